import { rateLimitOf, SECONDARY_LIMIT_WAIT_MS } from './forge-rate-limit';

const now = Date.parse('2026-11-24T12:00:00Z');
const h = (headers: Record<string, string>) => new Headers(headers);

describe('rateLimitOf', () => {
  it('reads GitHub primary limits (remaining 0, reset in epoch seconds), with a second of margin', () => {
    const reset = String(now / 1000 + 30);
    expect(rateLimitOf(403, h({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), '', now)).toEqual({
      waitMs: 31_000,
      until: new Date(now + 31_000),
    });
    expect(rateLimitOf(429, h({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), '', now)?.waitMs).toBe(
      31_000,
    );
  });

  it('prefers retry-after, in seconds or as an HTTP date; a reset in the past is no wait', () => {
    expect(rateLimitOf(403, h({ 'retry-after': '5', 'x-ratelimit-remaining': '0' }), '', now)?.waitMs).toBe(5000);
    const date = new Date(now + 7000).toUTCString();
    expect(rateLimitOf(429, h({ 'retry-after': date }), '', now)?.waitMs).toBe(7000);
    const past = String(now / 1000 - 100);
    expect(rateLimitOf(403, h({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': past }), '', now)?.waitMs).toBe(0);
  });

  it('gives a secondary limit known only by its message a minute', () => {
    const msg = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
    expect(rateLimitOf(403, h({}), msg, now)?.waitMs).toBe(SECONDARY_LIMIT_WAIT_MS);
  });

  it('is no limit: a plain 403, remaining calls left, other statuses', () => {
    expect(rateLimitOf(403, h({}), 'Resource not accessible by integration', now)).toBeUndefined();
    expect(rateLimitOf(403, h({ 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '1' }), '', now)).toBeUndefined();
    expect(rateLimitOf(429, h({}), 'Too Many Requests', now)).toBeUndefined();
    expect(rateLimitOf(503, h({ 'retry-after': '5' }), '', now)).toBeUndefined();
    expect(rateLimitOf(404, h({ 'x-ratelimit-remaining': '0' }), '', now)).toBeUndefined();
  });
});
