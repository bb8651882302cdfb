import { silentLogger } from '@farm/runtime';
import { ModelResponseMalformed, ModelUnavailable } from './errors';
import { malformedBackoffMs, retryMalformedAnswers } from './malformed-answers';

describe('retrying malformed model answers', () => {
  const answers = (...outcomes: (string | Error)[]) => {
    let i = 0;
    return async () => {
      const next = outcomes[i++];
      if (next instanceof Error) throw next;
      return next;
    };
  };

  it('asks again with a growing backoff until an answer is usable, and counts the malformed ones', async () => {
    const slept: number[] = [];
    const out = await retryMalformedAnswers(
      answers(new ModelResponseMalformed('not JSON'), new ModelResponseMalformed('no choices'), 'ok'),
      { retries: 2, log: silentLogger, sleep: async (ms) => void slept.push(ms) },
    );
    expect(out).toEqual({ answer: 'ok', malformedRetries: 2 });
    expect(slept).toHaveLength(2);
    expect(slept[1]).toBeGreaterThan(slept[0]);
  });

  it('does not retry other errors: the openai client already retried those', async () => {
    const outage = new ModelUnavailable('model API error: 503', { status: 503, retryable: true });
    await expect(retryMalformedAnswers(answers(outage, 'ok'), { retries: 2, log: silentLogger })).rejects.toBe(outage);
  });

  it('backs off like the openai client: 0.5 s doubling, at most 8 s, up to a quarter less', () => {
    expect([0, 1, 2, 6].map((n) => malformedBackoffMs(n, 0))).toEqual([500, 1000, 2000, 8000]);
    expect(malformedBackoffMs(0, 1)).toBe(375);
  });
});
