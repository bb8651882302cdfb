import { CoalescedRefresh } from './coalesced-refresh';

/** A refresh the test ends by hand, counting how many started. */
function manualRefreshes() {
  const pending: Array<{ resolve(): void; reject(err: Error): void }> = [];
  return {
    pending,
    refresh: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
  };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('refreshes shared by the callers that want one', () => {
  it('serves callers that came while a refresh ran with one next refresh, started after the first ended', async () => {
    const refreshes = new CoalescedRefresh();
    const m = manualRefreshes();
    const done: string[] = [];
    const first = refreshes.run('repo', m.refresh).then(() => done.push('first'));
    const later = [1, 2, 3].map((i) => refreshes.run('repo', m.refresh).then(() => done.push(`later ${i}`)));
    await settle();
    expect(m.pending).toHaveLength(1); // the later callers wait: the running refresh started before they asked
    m.pending[0].resolve();
    await first;
    await settle();
    expect(done).toEqual(['first']);
    expect(m.pending).toHaveLength(2); // one refresh for the three of them
    m.pending[1].resolve();
    await Promise.all(later);
    expect(done).toEqual(['first', 'later 1', 'later 2', 'later 3']);
    expect(refreshes.inFlight).toBe(0);
  });

  it('does not make one repository wait for another', async () => {
    const refreshes = new CoalescedRefresh();
    const m = manualRefreshes();
    const a = refreshes.run('a', m.refresh);
    const b = refreshes.run('b', m.refresh);
    await settle();
    expect(m.pending).toHaveLength(2);
    m.pending[1].resolve();
    await b; // while a still runs
    m.pending[0].resolve();
    await a;
  });

  it('fails the callers of a failed refresh, and gives those who came meanwhile a refresh of their own', async () => {
    const refreshes = new CoalescedRefresh();
    const m = manualRefreshes();
    const first = refreshes.run('repo', m.refresh);
    const second = refreshes.run('repo', m.refresh);
    await settle();
    m.pending[0].reject(new Error('fetch failed'));
    await expect(first).rejects.toThrow('fetch failed');
    await settle();
    m.pending[1].resolve();
    await expect(second).resolves.toBeUndefined();
    expect(refreshes.inFlight).toBe(0);
  });
});
