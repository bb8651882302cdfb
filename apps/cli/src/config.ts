import { busConfigSchema } from '@farm/bus';
import path from 'node:path';
import { ConfigError, FARM_ROOT, loadConfig, z } from '@farm/runtime';

/**
 * One machine's farm state: the checkout's own `.farm/state`, whatever the current directory, so that `farm up`
 * in one shell and `farm submit --repo .` in the user's repository find the same farm (and its admin token).
 */
export const DEFAULT_STATE_DIR = path.join(FARM_ROOT, '.farm', 'state');

/** `farm up`'s API when nothing says otherwise (FARM_METRICS_PORT's default). */
export const DEFAULT_FARM_URL = 'http://127.0.0.1:9464';

/** The CLI's settings: where the farm's HTTP API is, and Kafka for users who only have Kafka. */
export const cliConfigSchema = busConfigSchema.extend({
  /**
   * The farm's HTTP API (`farm up`, or the orchestrator deployment); without it, the URL of the `farm up`
   * running on FARM_STATE_DIR, else DEFAULT_FARM_URL.
   */
  FARM_URL: z.string().url().optional(),
  /** The bearer token the CLI sends; without it, the token `farm up` keeps in FARM_STATE_DIR. */
  FARM_TOKEN: z.string().optional(),
  FARM_STATE_DIR: z.string().default(DEFAULT_STATE_DIR),
});

export type CliConfig = z.infer<typeof cliConfigSchema>;
export const loadCliConfig = (): CliConfig => loadConfig(cliConfigSchema);

export function requireBrokers(config: CliConfig, command: string): string[] {
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError(
      `farm ${command} talks to the farm through Kafka: set KAFKA_BROKERS (e.g. 127.0.0.1:9092).\n` +
        `  To try everything on one machine without Kafka, run: farm demo`,
    );
  }
  return config.KAFKA_BROKERS.split(',');
}
