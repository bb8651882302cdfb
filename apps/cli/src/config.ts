import { ConfigError, loadConfig, z } from '@farm/runtime';

const schema = z.object({
  KAFKA_BROKERS: z.string().optional(),
  FARM_TOPIC_PREFIX: z.string().default(''),
  DATABASE_URL: z.string().optional(),
  FARM_STATE_DIR: z.string().default('.farm/state'),
  FARM_METRICS_PORT: z.coerce.number().int().min(0).default(9464),
  /** `farm up`: the srm's loopback port for the agent processes (0 picks a free one). */
  FARM_SRM_PORT: z.coerce.number().int().min(0).default(0),
  /** `farm up`: the request-planner's model; without it every request is one task. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().default('not-needed'),
  FARM_PLANNER_MODEL: z.string().default('gpt-4o-mini'),
  /** Where `farm status` and `farm list` ask (the orchestrator's or `farm up`'s HTTP port). */
  FARM_ORCHESTRATOR_URL: z.string().url().default('http://127.0.0.1:9464'),
});

export type CliConfig = z.infer<typeof schema>;
export const loadCliConfig = (): CliConfig => loadConfig(schema);

export function requireBrokers(config: CliConfig, command: string): string[] {
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError(
      `farm ${command} talks to the farm through Kafka: set KAFKA_BROKERS (e.g. 127.0.0.1:9092).\n` +
        `  To try everything on one machine without Kafka, run: farm demo`,
    );
  }
  return config.KAFKA_BROKERS.split(',');
}
