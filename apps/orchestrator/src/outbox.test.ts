import { Topics, type EventBus } from '@farm/bus';
import { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { createPgliteStore, migrate, type SqlStore } from '@farm/store';
import { Outbox } from './outbox';
import { orchestratorMigrations } from './schema';

let store: SqlStore;
beforeEach(async () => {
  store = await createPgliteStore();
  await migrate(store, orchestratorMigrations);
});
afterEach(() => store.close());

/** A bus that records what is published and can refuse or hold a publish, as a broker that is away or slow. */
function recordingBus(opts: { refuse?: (n: number) => boolean; hold?: Promise<void> } = {}) {
  const published: string[] = [];
  let calls = 0;
  const bus: Pick<EventBus, 'publishRaw'> = {
    async publishRaw(_topic, value) {
      calls++;
      if (opts.refuse?.(calls)) throw new Error('KafkaJSConnectionError: Connection error');
      if (calls === 1) await opts.hold;
      published.push(farm.v1.PhaseTransition.decode(value).reason);
    },
  };
  return { bus: bus as EventBus, published };
}

const enqueue = (outbox: Outbox, reasons: string[]) =>
  store.transaction(async (tx) => {
    for (const reason of reasons) {
      await outbox.enqueue(tx, Topics.phaseTransitions, 'cr', { changeRequestId: 'cr', reason });
    }
  });

const unsent = async () =>
  Number((await store.query('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL')).rows[0].n);

describe('the outbox', () => {
  it('marks what it published before a publish failed, and the next flush publishes the rest, each once', async () => {
    const { bus, published } = recordingBus({ refuse: (n) => n === 3 });
    const outbox = new Outbox(store, bus, silentLogger);
    await enqueue(outbox, ['a', 'b', 'c', 'd']);
    await expect(outbox.flush()).rejects.toThrow('Connection error');
    expect(published).toEqual(['a', 'b']);
    expect(await unsent()).toBe(2);
    await outbox.flush();
    expect(published).toEqual(['a', 'b', 'c', 'd']);
    expect(await unsent()).toBe(0);
  });

  it('flushes asked for while one runs are one flush after it, which publishes what they committed', async () => {
    let release!: () => void;
    const { bus, published } = recordingBus({ hold: new Promise<void>((r) => (release = r)) });
    const outbox = new Outbox(store, bus, silentLogger);
    await enqueue(outbox, ['first']);
    const running = outbox.flush();
    await enqueue(outbox, ['second']);
    const queued = outbox.flush();
    await enqueue(outbox, ['third']);
    expect(outbox.flush()).toBe(queued); // shared: it has not read the rows yet
    release();
    await Promise.all([running, queued]);
    expect(published).toEqual(['first', 'second', 'third']);
    expect(await unsent()).toBe(0);
  });
});
