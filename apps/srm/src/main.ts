import { createLogger, loadConfig, runService, z } from '@farm/runtime';
import { openStore } from '@farm/store';
import { PostgresSymbolLeases } from '@farm/srm-client';
import { startSrmServer } from './server';

const schema = z.object({
  DATABASE_URL: z.string().optional(),
  /**
   * PGlite directory when DATABASE_URL is absent. Its own, not the orchestrator's FARM_STATE_DIR: an
   * embedded database can be opened by one process only.
   */
  FARM_SRM_STATE_DIR: z.string().default('.farm/srm-state'),
  /** The API, /metrics and /healthz share this port. */
  FARM_SRM_PORT: z.coerce.number().int().min(0).max(65535).default(9470),
});

const log = createLogger('srm');
const config = loadConfig(schema);
// No separate metrics port: the srm server answers /metrics itself.
void runService(log, undefined, async () => {
  const store = await openStore(config.DATABASE_URL, config.FARM_SRM_STATE_DIR);
  const leases = await PostgresSymbolLeases.open(store, log);
  const server = await startSrmServer({ leases, port: config.FARM_SRM_PORT, log });
  return {
    stop: async () => {
      await server.close(); // finishes the requests in flight before the pool goes
      leases.close();
      await store.close();
    },
  };
});
