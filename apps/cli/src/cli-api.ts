import type { ChangeRequestClient } from '@farm/farm-api';

/** The farm's API client for a command, loaded when the command runs (a command's help does not load it). */
export async function cliApi(): Promise<ChangeRequestClient> {
  const [{ farmApiClient }, { loadCliConfig }] = await Promise.all([import('./farm-api-client'), import('./config')]);
  return farmApiClient(loadCliConfig());
}
