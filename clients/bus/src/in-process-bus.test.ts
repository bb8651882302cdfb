import type { SqlExecutor, SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { farm } from '@farm/proto';
import {
  FarmError,
  ProcessStopping,
  beginStopping,
  createLogger,
  resetStoppingForTests,
  silentLogger,
} from '@farm/runtime';
import type { RawMessage } from './bus';
import { InProcessBus } from './in-process-bus';
import { openSqlBusJournal, type BusJournal } from './bus-journal';
import { defineBusScenarios, waitFor } from '../testing/bus-scenarios';
import { DEAD_LETTER_TOPIC, Topics } from './topics';

defineBusScenarios('in-process bus', () => new InProcessBus());

let journalStore: SqlStore;
afterAll(async () => journalStore?.close());
defineBusScenarios('journaled in-process bus', async () => {
  journalStore = await testPgliteStore();
  return InProcessBus.open(await openSqlBusJournal(journalStore));
});

const request = (id: string) =>
  farm.v1.ChangeRequest.create({ changeRequestId: id, title: id, repo: { url: 'http://h/r.git', baseRef: 'main' } });

/** What `groups` get again from a bus reopened on `store`'s journal (change request ids, in order). */
async function redeliveredAfterReopen(store: SqlStore, groups: string[]): Promise<string[]> {
  const again = await InProcessBus.open(await openSqlBusJournal(store));
  const redelivered: string[] = [];
  for (const group of groups)
    await again.subscribe(Topics.changeRequests, group, async (m) => void redelivered.push(m.changeRequestId));
  await again.drain();
  await again.close();
  return redelivered;
}

describe('journaled in-process bus across a restart', () => {
  it('redelivers what a group had not finished and nothing it had', async () => {
    const store = await testPgliteStore();
    try {
      const first = await InProcessBus.open(await openSqlBusJournal(store));
      const handled: string[] = [];
      let release!: () => void;
      const blocked = new Promise<void>((r) => (release = r));
      await first.subscribe(Topics.changeRequests, 'planner', async (m) => {
        if (m.changeRequestId === 'cr-2') await blocked; // still running when the farm stops
        handled.push(m.changeRequestId);
      });
      for (const id of ['cr-1', 'cr-2', 'cr-3']) await first.publish(Topics.changeRequests, request(id));
      await waitFor('cr-1 handled', () => (handled.includes('cr-1') ? true : undefined));
      // The process dies here: cr-2 is mid-handler, cr-3 not started. Nothing of `first` is closed or awaited.
      const second = await InProcessBus.open(await openSqlBusJournal(store));
      const redelivered: string[] = [];
      await second.subscribe(Topics.changeRequests, 'planner', async (m) => void redelivered.push(m.changeRequestId));
      await second.drain();
      expect(redelivered).toEqual(['cr-2', 'cr-3']);
      // A group that never consumed reads everything, as a new Kafka consumer group does.
      const fresh: string[] = [];
      await second.subscribe(Topics.changeRequests, 'watcher', async (m) => void fresh.push(m.changeRequestId));
      await second.drain();
      expect(fresh).toEqual(['cr-1', 'cr-2', 'cr-3']);
      release();
      await first.close();
      await second.close();
    } finally {
      await store.close();
    }
  });

  it('keeps publish order across topics and restarts', async () => {
    const store = await testPgliteStore();
    try {
      const first = await InProcessBus.open(await openSqlBusJournal(store));
      await Promise.all(['a', 'b', 'c', 'd'].map((id) => first.publish(Topics.changeRequests, request(id))));
      await first.close();
      const second = await InProcessBus.open(await openSqlBusJournal(store));
      await second.publish(Topics.changeRequests, request('e'));
      const seen: string[] = [];
      await second.subscribe(Topics.changeRequests, 'g', async (m) => void seen.push(m.changeRequestId));
      await second.drain();
      expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
      await second.close();
    } finally {
      await store.close();
    }
  });

  it('writes the positions of every group that moved meanwhile in one journal write', async () => {
    const store = await testPgliteStore();
    try {
      const journal = await openSqlBusJournal(store);
      const calls: { topic: string; group: string; lastSeq: number }[][] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const bus = await InProcessBus.open({
        ...journal,
        async commit(positions) {
          calls.push(positions);
          if (calls.length === 1) await held;
          await journal.commit(positions);
        },
      });
      const handled: string[] = [];
      for (const group of ['planner', 'audit', 'sse'])
        await bus.subscribe(
          Topics.changeRequests,
          group,
          async (m) => void handled.push(`${group}:${m.changeRequestId}`),
        );
      for (const id of ['cr-1', 'cr-2', 'cr-3']) await bus.publish(Topics.changeRequests, request(id));
      await waitFor('all handled', () => (handled.length === 9 ? true : undefined));
      expect(calls).toHaveLength(1);
      release();
      await bus.drain();
      await bus.close();
      // The held write, then one for whatever every group reached meanwhile.
      expect(calls).toHaveLength(2);
      expect(calls[1].map((p) => p.group).sort()).toEqual(['audit', 'planner', 'sse']);
      expect(await redeliveredAfterReopen(store, ['planner', 'audit', 'sse'])).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("writes a group's position once per burst, not once per message, without holding up its handler", async () => {
    const store = await testPgliteStore();
    try {
      const journal = await openSqlBusJournal(store);
      const writes: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const bus = await InProcessBus.open({
        ...journal,
        async commit(positions) {
          writes.push(...positions.map((p) => p.lastSeq));
          if (writes.length === 1) await held; // a slow disk under the first write
          await journal.commit(positions);
        },
      });
      const handled: string[] = [];
      await bus.subscribe(Topics.changeRequests, 'planner', async (m) => void handled.push(m.changeRequestId));
      const ids = ['cr-1', 'cr-2', 'cr-3', 'cr-4', 'cr-5'];
      for (const id of ids) await bus.publish(Topics.changeRequests, request(id));
      // All handled while the first position is still being written.
      await waitFor('all handled', () => (handled.length === ids.length ? true : undefined));
      expect(writes).toHaveLength(1);
      release();
      await bus.drain();
      await bus.close();
      expect(writes).toHaveLength(2); // the first message's position, then the last one's
      expect(writes[1]).toBeGreaterThan(writes[0]);
      expect(await redeliveredAfterReopen(store, ['planner'])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('a handler cut short because the process is stopping', () => {
  afterEach(() => resetStoppingForTests());

  it('is not a failure of its message: nothing is dead-lettered, and the next start handles it', async () => {
    const store = await testPgliteStore();
    try {
      const first = await InProcessBus.open(await openSqlBusJournal(store));
      const deadLetters: RawMessage[] = [];
      await first.subscribeRaw(DEAD_LETTER_TOPIC, 'watch', async (m) => void deadLetters.push(m));
      let calls = 0;
      await first.subscribe(
        Topics.changeRequests,
        'planner',
        async () => {
          calls++;
          beginStopping('SIGINT'); // Ctrl-C while the handler's model call is in flight: the call ends so
          throw new ProcessStopping('SIGINT');
        },
        { maxAttempts: 2 },
      );
      await first.publish(Topics.changeRequests, request('cr-9'));
      await waitFor('the handler ran', () => (calls > 0 ? true : undefined));
      await first.close(); // the stop reaches the bus
      expect([calls, deadLetters]).toEqual([1, []]); // tried once, no attempt counted, nothing dead-lettered
      resetStoppingForTests(); // the next start
      expect(await redeliveredAfterReopen(store, ['planner'])).toEqual(['cr-9']);
    } finally {
      await store.close();
    }
  });
});

describe('a message held through an outage when the process stops', () => {
  it('is handed back, not dead-lettered, and the next start handles it', async () => {
    const store = await testPgliteStore();
    try {
      const first = await InProcessBus.open(await openSqlBusJournal(store));
      const deadLetters: RawMessage[] = [];
      await first.subscribeRaw(DEAD_LETTER_TOPIC, 'watch', async (m) => void deadLetters.push(m));
      let tries = 0;
      await first.subscribe(
        Topics.changeRequests,
        'orchestrator',
        async () => {
          tries++;
          throw new FarmError('database unavailable', { retryable: true, outage: true });
        },
        { maxAttempts: 1 },
      );
      await first.publish(Topics.changeRequests, request('cr-7'));
      await waitFor('held', () => (tries > 1 ? true : undefined));
      await first.close(); // ends the hold: it does not wait for the database
      expect(deadLetters).toEqual([]);
      expect(await redeliveredAfterReopen(store, ['orchestrator'])).toEqual(['cr-7']);
    } finally {
      await store.close();
    }
  });
});

describe('positions written after a linger', () => {
  it('messages handled one after another within the linger share one position write, the last one', async () => {
    const store = await testPgliteStore();
    try {
      const journal = await openSqlBusJournal(store);
      const writes: number[][] = [];
      const bus = await InProcessBus.open(
        {
          ...journal,
          async commit(positions) {
            writes.push(positions.map((p) => p.lastSeq));
            await journal.commit(positions);
          },
        },
        silentLogger,
        { positionLingerMs: 300 },
      );
      const handled: string[] = [];
      await bus.subscribe(Topics.changeRequests, 'planner', async (m) => void handled.push(m.changeRequestId));
      for (let i = 1; i <= 8; i++) {
        await bus.publish(Topics.changeRequests, request(`cr-${i}`));
        await waitFor(`cr-${i} handled`, () => (handled.length === i ? true : undefined));
      }
      expect(writes).toEqual([]); // still lingering
      await bus.drain();
      expect(writes).toHaveLength(1);
      await bus.close();
      expect(await redeliveredAfterReopen(store, ['planner'])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('journal writes of a burst of publishes', () => {
  /** The store, counting the statements that append to the journal. */
  const countingAppends = (store: SqlExecutor) => {
    const counter = {
      inserts: 0,
      query: ((sql: string, params?: unknown[]) => {
        if (/^\s*INSERT INTO bus_messages/.test(sql)) counter.inserts++;
        return store.query(sql, params);
      }) as SqlExecutor['query'],
    };
    return counter;
  };
  let readers = 0;
  /** Every message of the topics as a new group reads it: `position key`, in journal order. */
  const readLog = async (bus: InProcessBus, topics: string[]) => {
    const log: string[] = [];
    const group = `reader-${++readers}`;
    const subs = await Promise.all(
      topics.map((t) => bus.subscribeRaw(t, group, async (m: RawMessage) => void log.push(`${m.position} ${m.key}`))),
    );
    await bus.drain();
    await Promise.all(subs.map((s) => s.stop()));
    return log.sort((a, b) => Number(a.slice(2, a.indexOf(' '))) - Number(b.slice(2, b.indexOf(' '))));
  };
  const settle = (p: Promise<void>) =>
    p.then(
      () => 'published',
      (err: Error) => `rejected: ${err.message}`,
    );

  it('200 concurrent publishes share a few journal statements, each journaled once, in publish order', async () => {
    const store = await testPgliteStore();
    try {
      const sql = countingAppends(store);
      const bus = await InProcessBus.open(await openSqlBusJournal(sql));
      const topics = ['farm.a', 'farm.b'];
      const keys = Array.from({ length: 200 }, (_, i) => `m-${String(i).padStart(3, '0')}`);
      const published: Promise<void>[] = [];
      for (const [i, key] of keys.entries()) {
        published.push(bus.publishRaw(topics[i % 2], Buffer.from(key), { key }));
        // Publishes keep arriving while earlier ones are being written.
        if (i % 20 === 19) await new Promise((r) => setImmediate(r));
      }
      await Promise.all(published);
      expect(sql.inserts).toBeLessThanOrEqual(20);

      const rows = await store.query<{ seq: string; msg_key: string }>(
        'SELECT seq, msg_key FROM bus_messages ORDER BY seq',
      );
      expect(rows.rows.map((r) => r.msg_key)).toEqual(keys);
      const before = await readLog(bus, topics);
      expect(before).toHaveLength(200);
      // Each message's position is its row's seq.
      const seqOfKey = new Map(rows.rows.map((r) => [r.msg_key, r.seq]));
      for (const entry of before) {
        const [position, key] = entry.split(' ');
        expect(position).toBe(`0:${seqOfKey.get(key)}`);
      }
      await bus.close();

      const again = await InProcessBus.open(await openSqlBusJournal(store));
      expect(await readLog(again, topics)).toEqual(before);
      await again.close();
    } finally {
      await store.close();
    }
  });

  it('messages published while a write is under way go into the next write together', async () => {
    const store = await testPgliteStore();
    try {
      const journal = await openSqlBusJournal(store);
      const writes: (string | null)[][] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const bus = await InProcessBus.open({
        ...journal,
        async appendMany(messages) {
          writes.push(messages.map((m) => m.key));
          if (writes.length === 1) await held; // a slow disk under the first write
          return journal.appendMany(messages);
        },
      });
      const first = bus.publishRaw('farm.a', Buffer.from('1'), { key: 'cr-1' });
      await waitFor('first write started', () => (writes.length ? true : undefined));
      const next = ['cr-2', 'cr-3', 'cr-4'].map((key) => bus.publishRaw('farm.a', Buffer.from(key), { key }));
      await new Promise((r) => setImmediate(r));
      expect(writes).toEqual([['cr-1']]);
      release();
      await Promise.all([first, ...next]);
      expect(writes).toEqual([['cr-1'], ['cr-2', 'cr-3', 'cr-4']]);
      await bus.close();
    } finally {
      await store.close();
    }
  });

  it('a failing write rejects the publishes of its batch only, and later publishes are written', async () => {
    const store = await testPgliteStore();
    try {
      const journal = await openSqlBusJournal(store);
      let writes = 0;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const failing: BusJournal = {
        ...journal,
        async appendMany(messages) {
          writes++;
          if (writes === 1) await held;
          if (writes === 2) throw new Error('disk full');
          return journal.appendMany(messages);
        },
      };
      const bus = await InProcessBus.open(failing);
      const publish = (key: string) => settle(bus.publishRaw('farm.a', Buffer.from(key), { key }));
      const first = publish('cr-1');
      await waitFor('first write started', () => (writes ? true : undefined));
      const failed = ['cr-2', 'cr-3'].map(publish); // the second write, which fails
      release();
      expect(await Promise.all([first, ...failed])).toEqual([
        'published',
        'rejected: disk full',
        'rejected: disk full',
      ]);
      expect(await publish('cr-4')).toBe('published');
      const log = await readLog(bus, ['farm.a']);
      expect(log.map((e) => e.split(' ')[1])).toEqual(['cr-1', 'cr-4']);
      await bus.close();

      const again = await InProcessBus.open(await openSqlBusJournal(store));
      expect(await readLog(again, ['farm.a'])).toEqual(log);
      await again.close();
    } finally {
      await store.close();
    }
  });
});

describe('a handler that waits', () => {
  it('is asked again and logged as a wait, not as a failure; a real failure is still a warning', async () => {
    const lines: { level: string; msg: string }[] = [];
    const bus = new InProcessBus(createLogger('test', { write: (l) => lines.push(JSON.parse(l)) }));
    let tries = 0;
    await bus.subscribe(
      Topics.changeRequests,
      'planner',
      async (m) => {
        tries++;
        if (m.changeRequestId === 'cr-wait' && tries < 3)
          throw new FarmError('waiting for symbols held by another request', { retryable: true, waiting: true });
        if (m.changeRequestId === 'cr-fail' && tries < 5) throw new FarmError('the clone failed', { retryable: true });
      },
      { maxAttempts: 10 },
    );
    await bus.publish(Topics.changeRequests, request('cr-wait'));
    await bus.drain();
    expect(tries).toBe(3);
    expect(lines.filter((l) => l.msg === 'handler failed')).toEqual([]);
    expect(lines.filter((l) => l.msg === 'handler waits; asked again later')).toHaveLength(2);
    await bus.publish(Topics.changeRequests, request('cr-fail'));
    await bus.drain();
    expect(lines.filter((l) => l.msg === 'handler failed').map((l) => l.level)).toEqual(['warn']);
    await bus.close();
  });
});
