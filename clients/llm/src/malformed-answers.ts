import { errorMessage, type Logger } from '@farm/runtime';
import { ModelResponseMalformed } from './errors';

/** The openai client's own backoff for 429/5xx (0.5 s doubling to 8 s, up to a quarter less at random). */
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;

export const malformedBackoffMs = (retry: number, random = Math.random()): number =>
  Math.min(INITIAL_DELAY_MS * 2 ** retry, MAX_DELAY_MS) * (1 - random * 0.25);

/**
 * Runs one model call, asking again (with backoff) while the HTTP answer is malformed: at most `retries` more
 * times, as the openai client does for 429/5xx and timeouts, which it never does for a body it cannot use.
 * Returns the answer and how many malformed ones came before it; after the last attempt the error says how many.
 */
export async function retryMalformedAnswers<T>(
  call: () => Promise<T>,
  opts: { retries: number; log: Logger; sleep?: (ms: number) => Promise<void> },
): Promise<{ answer: T; malformedRetries: number }> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let retry = 0; ; retry++) {
    try {
      return { answer: await call(), malformedRetries: retry };
    } catch (err) {
      if (!(err instanceof ModelResponseMalformed)) throw err;
      if (retry >= opts.retries) {
        throw new ModelResponseMalformed(`model answer malformed ${retry + 1} time(s): ${errorMessage(err)}`, {
          cause: err,
          attempts: retry + 1,
        });
      }
      const delayMs = Math.round(malformedBackoffMs(retry));
      opts.log.warn('model answer malformed; asking again', { err: errorMessage(err), retry: retry + 1, delayMs });
      await sleep(delayMs);
    }
  }
}
