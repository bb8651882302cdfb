import { InProcessBus, KafkaBus } from '@farm/bus';
import { createPgStore, createPgliteStore } from '@farm/store';
import { defineFarmScenarios } from './farm-scenarios';

defineFarmScenarios('one machine (in-process bus, PGlite)', async () => ({
  bus: new InProcessBus(),
  store: await createPgliteStore(),
}));

// Real Kafka and PostgreSQL, started by the jest global setup unless KAFKA_BROKERS / DATABASE_URL are given.
defineFarmScenarios('cluster services (Kafka, PostgreSQL)', async () => ({
  bus: await KafkaBus.connect({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    clientId: 'farm-e2e',
    topicPrefix: `e2e-${Date.now()}.`,
  }),
  store: createPgStore(process.env.DATABASE_URL!),
}));
