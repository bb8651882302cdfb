import { FarmError } from './errors';

/**
 * The process is stopping (SIGTERM, Ctrl-C). Calls that can take long — a model call with its retries, a forge
 * call waiting out a rate limit — end at once with ProcessStopping, so that stopping takes seconds, not minutes;
 * the work they were part of is redone by the next start (the bus hands the message back). Only calls that opt in
 * (by passing stoppingSignal()) are cut: the writes a clean stop still makes are not.
 */
export class ProcessStopping extends FarmError {
  constructor(reason: string) {
    super(`the process is stopping (${reason}): left to be redone by the next start`, { retryable: true });
  }
}

let controller = new AbortController();

/** Aborted, with a ProcessStopping as its reason, once the process begins to stop. */
export function stoppingSignal(): AbortSignal {
  return controller.signal;
}

export function beginStopping(reason: string): void {
  if (!controller.signal.aborted) controller.abort(new ProcessStopping(reason));
}

/** Whether `err` is (or was caused by) the process stopping, as opposed to a failure of the call itself. */
export function causedByStopping(err: unknown): boolean {
  if (!controller.signal.aborted) return false;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ProcessStopping || isAbort(e)) return true;
  }
  return false;
}

const isAbort = (err: unknown) => {
  const name = (err as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'APIUserAbortError';
};

/** Waits `ms`, or rejects with ProcessStopping as soon as the process begins to stop. */
export function sleepUnlessStopping(ms: number): Promise<void> {
  const signal = controller.signal;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onStop = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onStop);
      resolve();
    }, ms);
    signal.addEventListener('abort', onStop, { once: true });
  });
}

/** Tests only: a fresh, not stopping, process state. */
export function resetStoppingForTests(): void {
  controller = new AbortController();
}
