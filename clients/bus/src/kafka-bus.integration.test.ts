import { KafkaBus } from './kafka-bus';
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
