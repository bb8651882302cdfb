import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '@farm/runtime';

/**
 * A bus's KafkaJS client, whose log lines go to the farm's log. Its own module, imported when a bus connects:
 * a process that never connects to Kafka (an agent or a build under `farm up`) does not load KafkaJS.
 */
export function createKafkaClient(config: { clientId: string; brokers: string[] }, log: Logger): Kafka {
  return new Kafka({
    clientId: config.clientId,
    brokers: config.brokers,
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      const { message, ...rest } = entry.log;
      const fields = { namespace: entry.namespace, ...rest };
      if (entry.level <= logLevel.ERROR) log.error(`kafka: ${message}`, fields);
      else log.warn(`kafka: ${message}`, fields);
    },
    retry: { retries: 8 },
  });
}
