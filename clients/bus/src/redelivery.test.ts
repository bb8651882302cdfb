import {
  INLINE_BACKOFF_CAP_MS,
  REDELIVERY_DELAY_CAP_MS,
  REDELIVERY_HEADERS,
  inlineBackoffMs,
  readRedelivery,
  redeliveryDelayMs,
  redeliveryHeaders,
  withoutRedeliveryHeaders,
} from './redelivery';

describe('redelivery of a message whose handler keeps failing', () => {
  it('the quick tries of one delivery stay short whatever the configured backoff', () => {
    // The orchestrator's settings: 200 ms doubling. Two waits between three tries.
    expect([1, 2].map((n) => inlineBackoffMs(n, 200))).toEqual([200, 400]);
    expect(inlineBackoffMs(2, 60_000)).toBe(INLINE_BACKOFF_CAP_MS);
  });

  it('redeliveries wait longer each time, up to a cap', () => {
    expect([3, 6, 9].map((attempts) => redeliveryDelayMs(attempts, 200))).toEqual([800, 6_400, 51_200]);
    expect(redeliveryDelayMs(20, 200)).toBe(REDELIVERY_DELAY_CAP_MS);
  });

  it('a copy carries its count, due time and group; an original reads as never redelivered', () => {
    const headers = redeliveryHeaders(
      { 'content-type': 'application/json', [REDELIVERY_HEADERS.attempts]: '3' },
      { attempts: 6, notBefore: 1_700_000_000_000, group: 'orchestrator', firstPosition: '2:41' },
    );
    expect(readRedelivery(headers)).toEqual({
      attempts: 6,
      notBefore: 1_700_000_000_000,
      group: 'orchestrator',
      firstPosition: '2:41',
    });
    expect(withoutRedeliveryHeaders(headers)).toEqual({ 'content-type': 'application/json' });
    expect(readRedelivery({ 'content-type': 'application/json' })).toEqual({ attempts: 0, notBefore: 0 });
  });
});
