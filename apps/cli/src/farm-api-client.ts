import { existsSync, readFileSync } from 'node:fs';
import { ChangeRequestClient, type ChangeRequestClientOptions } from '@farm/farm-api';
import { stateLayout } from '@farm/runtime';
import { DEFAULT_FARM_URL, type CliConfig } from './config';

/** The token the CLI sends: FARM_TOKEN, else the admin token `farm up` keeps in the state directory. */
export function cliToken(config: Pick<CliConfig, 'FARM_TOKEN' | 'FARM_STATE_DIR'>): string | undefined {
  if (config.FARM_TOKEN) return config.FARM_TOKEN;
  const file = stateLayout(config.FARM_STATE_DIR).adminToken;
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

/**
 * The API the CLI calls: FARM_URL, else the one the `farm up` running on the state directory wrote there (any
 * port it was given), else DEFAULT_FARM_URL.
 */
export function cliApiUrl(config: Pick<CliConfig, 'FARM_URL' | 'FARM_STATE_DIR'>): string {
  if (config.FARM_URL) return config.FARM_URL;
  const file = stateLayout(config.FARM_STATE_DIR).apiUrl;
  const written = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  return /^https?:\/\//.test(written) ? written : DEFAULT_FARM_URL;
}

/** The farm's HTTP API as the CLI calls it: cliApiUrl with the CLI's token. */
export function farmApiClient(
  config: CliConfig,
  options: Omit<ChangeRequestClientOptions, 'baseUrl' | 'token'> = {},
): ChangeRequestClient {
  return new ChangeRequestClient({ baseUrl: cliApiUrl(config), token: cliToken(config), ...options });
}
