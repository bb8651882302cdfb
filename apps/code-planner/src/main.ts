import { busConfigSchema, connectKafka } from '@farm/bus';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { createLogger, loadConfigOrExit, runService, z } from '@farm/runtime';
import { HttpSymbolLeases } from '@farm/srm-client';
import { startCodePlanner } from './code-planner';
import { codePlannerConfigSchema } from './config';
import { cloneAndLocateSymbols } from './locate-symbols';
import { srmReserver } from './srm-reserver';

const schema = codePlannerConfigSchema.merge(busConfigSchema).extend({
  FARM_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
});
const log = createLogger('code-planner');
const config = loadConfigOrExit(schema);
configureGitCredentials(loadConfigOrExit(gitCredentialsConfigSchema));
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafka(config, 'code-planner', log);
  const leases = config.FARM_SRM_URL
    ? srmReserver(new HttpSymbolLeases(config.FARM_SRM_URL, { componentToken: config.FARM_COMPONENT_TOKEN }))
    : undefined;
  const locateSymbols = cloneAndLocateSymbols(config.FARM_WORK_DIR);
  const sub = await startCodePlanner({ bus, log, leases, locateSymbols, leaseTtlSeconds: config.FARM_LEASE_TTL_S });
  return { stop: async () => (await sub.stop(), await bus.close()), health: () => bus.health() };
});
