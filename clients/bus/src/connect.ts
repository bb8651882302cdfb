import { loadConfig, type Logger } from '@farm/runtime';
import { busConfigSchema, connectKafka } from './config';
import type { KafkaBus } from './kafka-bus';

/** The Kafka bus from KAFKA_BROKERS (required), FARM_TOPIC_PREFIX and FARM_TOPIC_PARTITIONS. */
export function connectKafkaFromEnv(
  clientId: string,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<KafkaBus> {
  return connectKafka(loadConfig(busConfigSchema, env), clientId, log);
}
