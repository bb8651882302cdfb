import { AdmissionQueue, capFrom } from './kubernetes-admission';

/** A queue over fake steps: `slots` is the cap, `refuse` makes the next launches fail for now. */
function queue(cap: number) {
  const state = { cap, running: [] as string[], refuse: 0, lengths: [] as number[], errors: [] as unknown[] };
  const q = new AdmissionQueue<string>(
    {
      cap: async () => state.cap,
      running: () => state.running.length,
      launch: async (item) => {
        if (state.refuse > 0) return (state.refuse--, false);
        state.running.push(item);
        return true;
      },
      queued: (n) => state.lengths.push(n),
    },
    (err) => state.errors.push(err),
  );
  return { q, state };
}

describe('AdmissionQueue', () => {
  test('launches in order while fewer than the cap run; the rest wait for a slot', async () => {
    const { q, state } = queue(2);
    for (const item of ['a', 'b', 'c', 'd']) q.add(item);
    await q.pump();
    expect(state.running).toEqual(['a', 'b']);
    expect(q.length).toBe(2);
    state.running.shift(); // a finished
    await q.pump();
    expect(state.running).toEqual(['b', 'c']);
    expect(state.lengths.at(-1)).toBe(1);
  });

  test('pumps at once never take more than the free slots', async () => {
    const { q, state } = queue(3);
    for (let i = 0; i < 10; i++) q.add(`t${i}`);
    await Promise.all([q.pump(), q.pump(), q.pump()]);
    expect(state.running).toEqual(['t0', 't1', 't2']);
  });

  test('an item the launch could not start keeps its place at the head', async () => {
    const { q, state } = queue(5);
    q.add('a');
    q.add('b');
    state.refuse = 1;
    await q.pump();
    expect(state.running).toEqual([]);
    expect(q.length).toBe(2);
    await q.pump();
    expect(state.running).toEqual(['a', 'b']);
  });

  test('a cap of 0 pauses launching; raising it launches the waiting ones', async () => {
    const { q, state } = queue(0);
    q.add('a');
    await q.pump();
    expect(state.running).toEqual([]);
    state.cap = 1;
    await q.pump();
    expect(state.running).toEqual(['a']);
  });

  test('drop removes the matching waiting items only', async () => {
    const { q, state } = queue(0);
    for (const item of ['cr-a/1', 'cr-b/1', 'cr-a/2']) q.add(item);
    q.drop((item) => item.startsWith('cr-a/'));
    state.cap = 5;
    await q.pump();
    expect(state.running).toEqual(['cr-b/1']);
  });

  test('a failing step is reported and the queue goes on with the next pump', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const launched: string[] = [];
    const q = new AdmissionQueue<string>(
      {
        cap: async () => {
          if (fail) throw new Error('API away');
          return 1;
        },
        running: () => launched.length,
        launch: async (item) => (launched.push(item), true),
      },
      (err) => errors.push(err),
    );
    q.add('a');
    await q.pump();
    expect(errors).toHaveLength(1);
    fail = false;
    await q.pump();
    expect(launched).toEqual(['a']);
  });

  test('after close nothing more is launched', async () => {
    const { q, state } = queue(5);
    await q.close();
    q.add('a');
    await q.pump();
    expect(state.running).toEqual([]);
  });
});

describe('capFrom', () => {
  test('absent: the configured cap; a whole number >= 0: that number; anything else: the last cap', () => {
    expect(capFrom(undefined, 4, 7)).toEqual({ cap: 4 });
    expect(capFrom('0', 4, 7)).toEqual({ cap: 0 });
    expect(capFrom('12', 4, 7)).toEqual({ cap: 12 });
    expect(capFrom('-1', 4, 7)).toEqual({ cap: 7, invalid: '-1' });
    expect(capFrom('2.5', 4, 7)).toEqual({ cap: 7, invalid: '2.5' });
    expect(capFrom('many', 4, 7)).toEqual({ cap: 7, invalid: 'many' });
  });
});
