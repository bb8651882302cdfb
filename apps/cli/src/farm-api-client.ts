import { existsSync, readFileSync } from 'node:fs';
import { ChangeRequestClient, type ChangeRequestClientOptions } from '@farm/farm-api';
import { stateLayout } from '@farm/runtime';
import type { CliConfig } from './config';

/** The token the CLI sends: FARM_TOKEN, else the admin token `farm up` keeps in the state directory. */
export function cliToken(config: Pick<CliConfig, 'FARM_TOKEN' | 'FARM_STATE_DIR'>): string | undefined {
  if (config.FARM_TOKEN) return config.FARM_TOKEN;
  const file = stateLayout(config.FARM_STATE_DIR).adminToken;
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

/** The farm's HTTP API as the CLI calls it: FARM_URL with the CLI's token. */
export function farmApiClient(
  config: CliConfig,
  options: Omit<ChangeRequestClientOptions, 'baseUrl' | 'token'> = {},
): ChangeRequestClient {
  return new ChangeRequestClient({ baseUrl: config.FARM_URL, token: cliToken(config), ...options });
}
