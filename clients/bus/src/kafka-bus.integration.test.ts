import { KafkaBus } from './kafka-bus';
import { Topics } from './topics';
import { defineBusScenarios } from '../testing/bus-scenarios';

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
