import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

export const busMetrics = {
  deadLetters: new Counter({
    name: 'farm_bus_dead_letters_total',
    help: 'Messages sent to the dead-letter topic, by source topic, consumer group and error kind',
    labelNames: ['topic', 'group', 'kind'],
    registers: [metricsRegistry],
  }),
  consumerLag: new Gauge({
    name: 'farm_bus_consumer_lag',
    help: 'Messages not yet consumed, by topic and consumer group (Kafka; read at scrape time)',
    labelNames: ['topic', 'group'],
    registers: [metricsRegistry],
  }),
};
