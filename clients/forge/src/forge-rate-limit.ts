/**
 * When a forge answer says "rate limited", and until when. GitHub answers its primary limit with 403 or 429,
 * `x-ratelimit-remaining: 0` and `x-ratelimit-reset` (epoch seconds); its secondary limits with 403 or 429 and
 * `retry-after` (seconds), or only a message, after which it asks for at least a minute's wait
 * (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api). GitLab answers 429 with
 * `retry-after`. A 403 with none of these is a refusal, not a limit.
 */

/** The wait a secondary limit without headers asks for. */
export const SECONDARY_LIMIT_WAIT_MS = 60_000;
/** The reset is the forge's clock: a little margin so the retry does not land a moment early. */
const CLOCK_MARGIN_MS = 1000;

export interface RateLimit {
  /** How long to wait from `now`. */
  waitMs: number;
  /** When the forge accepts calls again. */
  until: Date;
}

export function rateLimitOf(
  status: number,
  headers: Headers,
  message: string,
  now = Date.now(),
): RateLimit | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const at = (ms: number): RateLimit => {
    const waitMs = Math.max(0, Math.ceil(ms));
    return { waitMs, until: new Date(now + waitMs) };
  };
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(ms)) return at(ms);
  }
  if (headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(headers.get('x-ratelimit-reset'));
    return at(Number.isFinite(reset) && reset > 0 ? reset * 1000 - now + CLOCK_MARGIN_MS : SECONDARY_LIMIT_WAIT_MS);
  }
  if (/rate limit/i.test(message)) return at(SECONDARY_LIMIT_WAIT_MS);
  return undefined;
}
