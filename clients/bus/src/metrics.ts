import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

/** Buses whose lag is read when /metrics is scraped (the in-process bus: its lag is a subtraction). */
const lagAtScrape = new Set<WeakRef<{ measureLag(): void }>>();

/** Has `bus`'s farm_bus_consumer_lag read at every scrape; the returned function stops it. */
export function measureLagAtScrape(bus: { measureLag(): void }): () => void {
  const ref = new WeakRef(bus);
  lagAtScrape.add(ref);
  return () => void lagAtScrape.delete(ref);
}

export const busMetrics = {
  deadLetters: new Counter({
    name: 'farm_bus_dead_letters_total',
    help: 'Messages sent to the dead-letter topic, by source topic, consumer group and error kind',
    labelNames: ['topic', 'group', 'kind'],
    registers: [metricsRegistry],
  }),
  redeliveries: new Counter({
    name: 'farm_bus_redeliveries_total',
    help: 'Messages re-published for a later redelivery after their handler kept failing, by topic and group',
    labelNames: ['topic', 'group'],
    registers: [metricsRegistry],
  }),
  heldByOutage: new Gauge({
    name: 'farm_bus_held_by_outage',
    help: 'Messages held in place because a service their handler needs is away (no attempt counted), by topic and group',
    labelNames: ['topic', 'group'],
    registers: [metricsRegistry],
  }),
  consumerRestarts: new Counter({
    name: 'farm_bus_consumer_restarts_total',
    help: 'Kafka consumers restarted by the bus after they crashed, by topic and group',
    labelNames: ['topic', 'group'],
    registers: [metricsRegistry],
  }),
  consumerLag: new Gauge({
    name: 'farm_bus_consumer_lag',
    help: 'Messages not yet consumed, by topic and consumer group (Kafka: read every few seconds; in-process: at scrape time)',
    labelNames: ['topic', 'group'],
    registers: [metricsRegistry],
    collect() {
      for (const ref of lagAtScrape) {
        const bus = ref.deref();
        if (bus) bus.measureLag();
        else lagAtScrape.delete(ref);
      }
    },
  }),
};
