import { ConfigError, type Logger } from '@farm/runtime';
import { KafkaBus } from './kafka-bus';

/** The Kafka bus from KAFKA_BROKERS (required) and FARM_TOPIC_PREFIX (optional). */
export async function connectKafkaFromEnv(
  clientId: string,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<KafkaBus> {
  if (!env.KAFKA_BROKERS)
    throw new ConfigError('KAFKA_BROKERS is required: comma-separated host:port of the Kafka brokers');
  return KafkaBus.connect({
    brokers: env.KAFKA_BROKERS.split(',').map((b) => b.trim()),
    clientId,
    topicPrefix: env.FARM_TOPIC_PREFIX ?? '',
    partitions: env.FARM_TOPIC_PARTITIONS ? Number(env.FARM_TOPIC_PARTITIONS) : undefined,
    lagIntervalMs: 15_000,
    log,
  });
}
