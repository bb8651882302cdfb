import { ReportedResults } from './reported-results';

describe('ReportedResults', () => {
  test('a result that arrived before the wait is seen at once', async () => {
    const r = new ReportedResults();
    r.expect('t1', 1);
    r.seen('t1', 1);
    expect(await r.waitFor('t1', 1, 60_000)).toBe(true);
  });

  test('a result arriving during the wait ends it', async () => {
    const r = new ReportedResults();
    r.expect('t1', 1);
    const waiting = r.waitFor('t1', 1, 60_000);
    r.seen('t1', 1);
    expect(await waiting).toBe(true);
  });

  test('results of another dispatch, or of tasks not expected, do not count', async () => {
    const r = new ReportedResults();
    r.expect('t1', 2);
    r.seen('t1', 1);
    r.seen('t9', 2);
    expect(await r.waitFor('t1', 2, 0)).toBe(false);
    expect(await r.waitFor('t9', 2, 0)).toBe(false);
  });

  test('no result within the grace: not reported; wakeAll ends every wait with what it has', async () => {
    const r = new ReportedResults();
    r.expect('t1', 1);
    r.expect('t2', 1);
    const w1 = r.waitFor('t1', 1, 60_000);
    const w2 = r.waitFor('t2', 1, 60_000);
    r.wakeAll();
    expect(await Promise.all([w1, w2])).toEqual([false, false]);
  });

  test('a forgotten or waited-for task is expected no longer', async () => {
    const r = new ReportedResults();
    r.expect('t1', 1);
    r.forget('t1', 1);
    r.seen('t1', 1);
    expect(await r.waitFor('t1', 1, 0)).toBe(false);
    r.expect('t2', 1);
    r.seen('t2', 1);
    expect(await r.waitFor('t2', 1, 0)).toBe(true);
    expect(await r.waitFor('t2', 1, 0)).toBe(false);
  });
});
