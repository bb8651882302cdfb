import { InProcessBus } from '../src/in-process-bus';
import { KafkaBus } from '../src/kafka-bus';
import type { EventBus } from '../src/bus';

/**
 * The two buses a scenario runs on, for `describe.each`: the in-process bus, and the Kafka broker the jest
 * global set-up started (KAFKA_BROKERS), with topics of the test's own (`name` prefixes them).
 */
export function testBuses(name: string): [string, () => Promise<EventBus>][] {
  return [
    ['the in-process bus', async () => new InProcessBus()],
    [
      'Kafka',
      () =>
        KafkaBus.connect({
          brokers: process.env.KAFKA_BROKERS!.split(','),
          clientId: name,
          topicPrefix: `${name}-${Date.now()}.`,
        }),
    ],
  ];
}
