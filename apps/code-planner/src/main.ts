import { connectKafkaFromEnv } from '@farm/bus';
import { createLogger, loadConfig, runService, z } from '@farm/runtime';
import { HttpSymbolLeases } from '@farm/srm-client';
import { startCodePlanner } from './code-planner';
import { srmReserver } from './srm-reserver';

const schema = z.object({
  /** The srm service; without it symbols are not reserved (items are still serialised within a request). */
  FARM_SRM_URL: z.string().url().optional(),
  FARM_LEASE_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 3600),
  FARM_METRICS_PORT: z.coerce.number().int().min(0).default(9464),
});

const log = createLogger('code-planner');
const config = loadConfig(schema);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafkaFromEnv('code-planner', log);
  const leases = config.FARM_SRM_URL ? srmReserver(new HttpSymbolLeases(config.FARM_SRM_URL)) : undefined;
  const sub = await startCodePlanner({ bus, log, leases, leaseTtlSeconds: config.FARM_LEASE_TTL_S });
  return { stop: async () => (await sub.stop(), await bus.close()) };
});
