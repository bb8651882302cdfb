import { CoalescedBatches } from './coalesced-batches';

/** Batches the test ends by hand: each records its key and items; ending one answers each item doubled. */
function manualBatches() {
  const started: Array<{ key: string; items: number[]; end(failing?: number[]): void; fail(err: Error): void }> = [];
  const batches = new CoalescedBatches<number, number>(
    (key, items) =>
      new Promise((resolve, reject) =>
        started.push({
          key,
          items,
          end: (failing = []) =>
            resolve(
              items.map((i) =>
                failing.includes(i)
                  ? { status: 'rejected', reason: new Error(`item ${i} failed`) }
                  : { status: 'fulfilled', value: i * 2 },
              ),
            ),
          fail: reject,
        }),
      ),
  );
  return { batches, started };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('work asked for by many callers, done in batches', () => {
  it('gives the callers of one turn one batch, and those that came while it ran the next one', async () => {
    const { batches, started } = manualBatches();
    const first = [1, 2, 3].map((i) => batches.run('repo', i));
    await settle();
    const later = [4, 5].map((i) => batches.run('repo', i));
    await settle();
    expect(started.map((b) => b.items)).toEqual([[1, 2, 3]]); // the later ones wait for the running batch
    started[0].end();
    expect(await Promise.all(first)).toEqual([2, 4, 6]);
    await settle();
    expect(started.map((b) => b.items)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    started[1].end();
    expect(await Promise.all(later)).toEqual([8, 10]);
    expect(batches.inFlight).toBe(0);
  });

  it('does not make one repository wait for another', async () => {
    const { batches, started } = manualBatches();
    const a = batches.run('a', 1);
    const b = batches.run('b', 2);
    await settle();
    expect(started.map((s) => s.key)).toEqual(['a', 'b']);
    started[1].end();
    await expect(b).resolves.toBe(4); // while a still runs
    started[0].end();
    await expect(a).resolves.toBe(2);
  });

  it('fails only the items that failed, or all of a batch that failed, and still runs the next batch', async () => {
    const { batches, started } = manualBatches();
    const first = [1, 2].map((i) => batches.run('repo', i));
    await settle();
    const second = [3, 4].map((i) => batches.run('repo', i));
    started[0].end([2]);
    await expect(first[0]).resolves.toBe(2);
    await expect(first[1]).rejects.toThrow('item 2 failed');
    await settle();
    started[1].fail(new Error('no such repository'));
    for (const s of second) await expect(s).rejects.toThrow('no such repository');
    expect(batches.inFlight).toBe(0);
    // A later call gets a batch of its own.
    const again = batches.run('repo', 3);
    await settle();
    started[2].end();
    await expect(again).resolves.toBe(6);
  });

  it('fails the callers of a batch whose work throws before it starts', async () => {
    const batches = new CoalescedBatches<number, number>(() => {
      throw new Error('bad key');
    });
    await expect(batches.run('repo', 1)).rejects.toThrow('bad key');
    expect(batches.inFlight).toBe(0);
  });
});
