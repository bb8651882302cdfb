export * from './store';
export { createPgStore } from './pg-store';
export { createPgliteStore } from './pglite-store';

import type { SqlStore } from './store';
import { createPgStore } from './pg-store';
import { createPgliteStore } from './pglite-store';

/** DATABASE_URL picks PostgreSQL; without it the embedded PGlite (in dataDir, or in memory). */
export async function openStore(databaseUrl: string | undefined, pgliteDir?: string): Promise<SqlStore> {
  return databaseUrl ? createPgStore(databaseUrl) : createPgliteStore(pgliteDir);
}
