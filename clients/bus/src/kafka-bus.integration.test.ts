import { FarmError, serveMetrics, silentLogger } from '@farm/runtime';
import { farm } from '@farm/proto';
import { KafkaBus } from './kafka-bus';
import { Topics } from './topics';
import { defineBusScenarios, waitFor } from '../testing/bus-scenarios';

// Runs against the real broker the jest global setup starts (or KAFKA_BROKERS when given).
defineBusScenarios('Kafka bus', () =>
  KafkaBus.connect({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    clientId: 'bus-test',
    partitions: 3,
    topicPrefix: `bus-test-${Date.now()}.`,
  }),
);

describe('two farms on one Kafka cluster', () => {
  it('keeps consumer groups of different topic prefixes apart: both farms consume with the same group name', async () => {
    const brokers = process.env.KAFKA_BROKERS!.split(',');
    const run = Date.now();
    const farms = await Promise.all(
      ['a', 'b'].map((name) =>
        KafkaBus.connect({ brokers, clientId: `farm-${name}`, partitions: 3, topicPrefix: `two-${run}-${name}.` }),
      ),
    );
    try {
      const received = farms.map(() => [] as string[]);
      // The same group name in both farms, as two `farm up` or two Helm releases would use.
      await Promise.all(
        farms.map((bus, i) =>
          bus.subscribe(Topics.control, 'orchestrator', async (m) => {
            received[i].push(m.changeRequestId);
          }),
        ),
      );
      for (const [i, bus] of farms.entries()) {
        for (let n = 0; n < 6; n++) {
          await bus.publish(
            Topics.control,
            Topics.control.type.fromObject({ changeRequestId: `cr-${i}-${n}`, action: 1 }),
          );
        }
      }
      const deadline = Date.now() + 60_000;
      while ((received[0].length < 6 || received[1].length < 6) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(received[0].sort()).toEqual([0, 1, 2, 3, 4, 5].map((n) => `cr-0-${n}`));
      expect(received[1].sort()).toEqual([0, 1, 2, 3, 4, 5].map((n) => `cr-1-${n}`));
    } finally {
      await Promise.all(farms.map((b) => b.close()));
    }
  });
});

describe('a member dropped from its group while its handler held the event loop', () => {
  it('rejoins by itself: the message it held is delivered again, later ones flow, /healthz stays ok', async () => {
    // The field report's case: a handler keeps the event loop busy past the session timeout, so no heartbeat goes
    // out and the broker drops the member. Committing per message, the next commit failed with "The coordinator is
    // not aware of this member" and the consumer crashed (503 until the bus restarted it). Committing in batches,
    // KafkaJS's runner meets that on its heartbeat, re-joins the group and fetches from the last committed
    // offset: the held message again (handlers are idempotent), with no crash and no restart.
    const bus = await KafkaBus.connect({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      clientId: 'crash-test',
      partitions: 1,
      topicPrefix: `crash-test-${Date.now()}.`,
      sessionTimeoutMs: 6_000, // the broker's minimum
    });
    const health = await serveMetrics(0, silentLogger, undefined, () => bus.health());
    const healthz = async () => {
      const res = await fetch(`http://127.0.0.1:${health.port}/healthz`);
      return { status: res.status, body: await res.text() };
    };
    try {
      const deliveries: string[] = [];
      await bus.subscribeRaw(Topics.control.name, 'slow', async (m) => {
        deliveries.push(m.value!.toString());
        // A handler that keeps the event loop busy past the session timeout: no heartbeat can go out meanwhile
        // (one that merely waits that long keeps its membership: the bus sends heartbeats while it runs).
        if (deliveries.length === 1) for (const end = Date.now() + 9_000; Date.now() < end;);
      });
      expect(await healthz()).toEqual({ status: 200, body: 'ok' });
      await bus.publishRaw(Topics.control.name, Buffer.from('held too long'), { key: 'k' });
      await waitFor('the redelivery', () => (deliveries.length === 2 ? true : undefined), 60_000);
      expect(deliveries).toEqual(['held too long', 'held too long']);
      expect(await healthz()).toEqual({ status: 200, body: 'ok' });
      await bus.publishRaw(Topics.control.name, Buffer.from('after the rejoin'), { key: 'k' });
      await waitFor('the next message', () => (deliveries.length === 3 ? true : undefined), 60_000);
      expect(deliveries[2]).toBe('after the rejoin');
      expect(bus.health()).toMatchObject({ healthy: true, deadConsumers: [] });
    } finally {
      await health.close();
      await bus.close();
    }
  }, 120_000);
});

describe('a message held through an outage longer than the session timeout', () => {
  it('keeps its member in the group (heartbeats while it waits) and is handled once, with nothing copied', async () => {
    const bus = await KafkaBus.connect({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      clientId: 'outage-test',
      partitions: 1,
      topicPrefix: `outage-test-${Date.now()}.`,
      sessionTimeoutMs: 6_000, // the broker's minimum
    });
    try {
      const tries: number[] = [];
      const handled: string[] = [];
      const started = Date.now();
      await bus.subscribe(
        Topics.control,
        'held',
        async (m, meta) => {
          tries.push(meta.attempt);
          if (Date.now() - started < 15_000) {
            throw new FarmError('database unavailable: connect ECONNREFUSED', { retryable: true, outage: true });
          }
          handled.push(m.changeRequestId);
        },
        { maxAttempts: 2 },
      );
      await bus.publish(Topics.control, farm.v1.ControlCommand.create({ changeRequestId: 'cr-held' }));
      await waitFor('handled', () => (handled.length ? true : undefined), 60_000);
      expect(bus.health()).toMatchObject({ healthy: true });
      expect(new Set(tries)).toEqual(new Set([1])); // no attempt counted for the outage
      // Nothing was re-published: the topic holds the one message, and it was not handled again.
      await bus.publish(Topics.control, farm.v1.ControlCommand.create({ changeRequestId: 'cr-after' }));
      await waitFor('the next one', () => (handled.length === 2 ? true : undefined), 60_000);
      expect(handled).toEqual(['cr-held', 'cr-after']);
    } finally {
      await bus.close();
    }
  }, 120_000);
});
