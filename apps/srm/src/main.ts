import { createLogger, ensureWritableDir, loadConfigOrExit, runService } from '@farm/runtime';
import { openStore } from '@farm/store';
import { PostgresSymbolLeases } from '@farm/srm-client';
import { srmConfigSchema } from './config';
import { startSrmServer } from './server';

const log = createLogger('srm');
const config = loadConfigOrExit(srmConfigSchema);
// No separate metrics port: the srm server answers /metrics itself.
void runService(log, undefined, async () => {
  if (!config.DATABASE_URL)
    ensureWritableDir(
      config.FARM_SRM_STATE_DIR,
      'FARM_SRM_STATE_DIR',
      'set DATABASE_URL (PostgreSQL), or FARM_SRM_STATE_DIR to a writable directory for the embedded database',
    );
  const store = await openStore(config.DATABASE_URL, config.FARM_SRM_STATE_DIR, log);
  const leases = await PostgresSymbolLeases.open(store, log);
  const server = await startSrmServer({
    leases,
    port: config.FARM_SRM_PORT,
    log,
    componentToken: config.FARM_COMPONENT_TOKEN,
  });
  return {
    stop: async () => {
      await server.close(); // finishes the requests in flight before the pool goes
      leases.close();
      await store.close();
    },
  };
});
