import { sleepUnlessStopping, stoppingSignal } from './stopping';
import { errorMessage } from './errors';

/** The server refused the connection: nothing was sent, so trying again cannot apply anything twice. */
export function isConnectionRefused(err: unknown): boolean {
  return someCause(
    err,
    (e) => (e as { code?: unknown }).code === 'ECONNREFUSED' || /\bECONNREFUSED\b/.test(errorMessage(e)),
  );
}

/**
 * The connection was refused, or broke before an answer (reset, hung up, an empty reply): the server is away or
 * restarting. Only for requests that change nothing (reads), which may have reached it.
 */
export function isConnectionLost(err: unknown): boolean {
  return (
    isConnectionRefused(err) ||
    someCause(
      err,
      (e) =>
        ['ECONNRESET', 'EPIPE'].includes(String((e as { code?: unknown }).code)) ||
        /\bECONNRESET\b|socket hang up|Empty reply from server|Connection reset by peer|Recv failure/i.test(
          errorMessage(e),
        ),
    )
  );
}

function someCause(err: unknown, test: (e: unknown) => boolean): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return true;
  }
  return false;
}

/**
 * Runs `fn`, trying again while `shouldRetry` says the failure is passing, for up to `forMs` in all (backoff
 * 250 ms doubling to 5 s); then the last error is thrown.
 */
export async function retryWithBackoff<T>(
  fn: () => Promise<T>,
  opts: {
    forMs: number;
    shouldRetry: (err: unknown) => boolean;
    /** Tries no more once the process begins to stop (see stoppingSignal): the next start does the work. */
    untilStopping?: boolean;
  },
): Promise<T> {
  const deadline = Date.now() + opts.forMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!opts.shouldRetry(err) || Date.now() >= deadline) throw err;
      if (opts.untilStopping && stoppingSignal().aborted) throw err;
      const wait = Math.min(5000, 250 * 2 ** attempt, Math.max(0, deadline - Date.now()));
      if (opts.untilStopping) await sleepUnlessStopping(wait).catch(() => Promise.reject(err));
      else await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * Runs `fn`, trying again while the server refuses connections, up to `forMs` in all. A farm's own services
 * restart (a restarted `farm up` brings its git server and srm back on the same ports), and an agent that
 * outlived the restart should wait for them rather than fail.
 */
export function retryWhileRefused<T>(fn: () => Promise<T>, forMs = 90_000): Promise<T> {
  return retryWithBackoff(fn, { forMs, shouldRetry: isConnectionRefused, untilStopping: true });
}

/**
 * A read (clone, fetch, listing refs) tried again while the server is away: refused, or the connection broke
 * before the answer, as when a restarting `farm up` took its git server down mid-request.
 */
export function retryWhileUnreachable<T>(fn: () => Promise<T>, forMs = 90_000): Promise<T> {
  return retryWithBackoff(fn, { forMs, shouldRetry: isConnectionLost, untilStopping: true });
}
