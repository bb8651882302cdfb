import { ConfigError, z, type Logger } from '@farm/runtime';
import type { EventBus } from './bus';
import { openSqlBusJournal } from './bus-journal';
import { InProcessBus } from './in-process-bus';
import { KafkaBus } from './kafka-bus';

/** The bus settings of every app: Kafka when KAFKA_BROKERS is set. */
export const busConfigSchema = z.object({
  /** Comma-separated host:port of the Kafka brokers; without it `farm up` runs the in-process bus. */
  KAFKA_BROKERS: z.string().optional(),
  FARM_TOPIC_PREFIX: z.string().default(''),
  FARM_TOPIC_PARTITIONS: z.coerce.number().int().min(1).optional(),
  /** The in-process bus keeps its messages in the farm's database this many days. */
  FARM_BUS_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
});
export type BusConfig = z.infer<typeof busConfigSchema>;

export function connectKafka(config: BusConfig, clientId: string, log: Logger): Promise<KafkaBus> {
  if (!config.KAFKA_BROKERS)
    throw new ConfigError('KAFKA_BROKERS is required: comma-separated host:port of the Kafka brokers');
  return KafkaBus.connect({
    brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
    clientId,
    topicPrefix: config.FARM_TOPIC_PREFIX,
    partitions: config.FARM_TOPIC_PARTITIONS,
    lagIntervalMs: 15_000,
    log,
  });
}

/**
 * Kafka when KAFKA_BROKERS is set; otherwise the in-process bus journaled in `store` (the farm's own
 * database), so one machine needs no broker and loses nothing across a restart.
 */
export async function connectBus(
  config: BusConfig,
  opts: { clientId: string; log: Logger; store: Parameters<typeof openSqlBusJournal>[0] },
): Promise<EventBus> {
  if (config.KAFKA_BROKERS) return connectKafka(config, opts.clientId, opts.log);
  const journal = await openSqlBusJournal(opts.store, { retentionDays: config.FARM_BUS_RETENTION_DAYS });
  // Positions written at most every 50 ms: a burst's handled messages share a statement (a crash redelivers them).
  return InProcessBus.open(journal, opts.log, { positionLingerMs: 50 });
}
