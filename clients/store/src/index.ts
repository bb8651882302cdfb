export * from './store';
export { createPgStore } from './pg-store';
export { createPgliteStore, sqlStoreOnPglite, type PgliteConnection } from './pglite-store';
export { StoreUnavailable, isConnectionError } from './connection-errors';

import type { Logger } from '@farm/runtime';
import type { SqlStore } from './store';
import { createPgStore } from './pg-store';
import { createPgliteStore } from './pglite-store';

/** DATABASE_URL picks PostgreSQL; without it the embedded PGlite (in dataDir, or in memory). */
export async function openStore(databaseUrl: string | undefined, pgliteDir?: string, log?: Logger): Promise<SqlStore> {
  return databaseUrl ? createPgStore(databaseUrl, { log }) : createPgliteStore(pgliteDir);
}
export { watchStoreReachable, type StoreHealth } from './store-health';
