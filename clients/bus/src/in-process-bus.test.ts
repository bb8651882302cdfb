import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { farm } from '@farm/proto';
import { InProcessBus } from './in-process-bus';
import { openSqlBusJournal } from './bus-journal';
import { defineBusScenarios, waitFor } from '../testing/bus-scenarios';
import { Topics } from './topics';

defineBusScenarios('in-process bus', () => new InProcessBus());

let journalStore: SqlStore;
afterAll(async () => journalStore?.close());
defineBusScenarios('journaled in-process bus', async () => {
  journalStore = await testPgliteStore();
  return InProcessBus.open(await openSqlBusJournal(journalStore));
});

describe('journaled in-process bus across a restart', () => {
  const request = (id: string) =>
    farm.v1.ChangeRequest.create({ changeRequestId: id, title: id, repo: { url: 'http://h/r.git', baseRef: 'main' } });

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
      const again = await InProcessBus.open(await openSqlBusJournal(store));
      const redelivered: string[] = [];
      for (const group of ['planner', 'audit', 'sse'])
        await again.subscribe(Topics.changeRequests, group, async (m) => void redelivered.push(m.changeRequestId));
      await again.drain();
      expect(redelivered).toEqual([]);
      await again.close();
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
      const again = await InProcessBus.open(await openSqlBusJournal(store));
      const redelivered: string[] = [];
      await again.subscribe(Topics.changeRequests, 'planner', async (m) => void redelivered.push(m.changeRequestId));
      await again.drain();
      expect(redelivered).toEqual([]);
      await again.close();
    } finally {
      await store.close();
    }
  });
});
