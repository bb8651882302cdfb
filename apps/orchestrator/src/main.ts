import { connectKafka, busConfigSchema } from '@farm/bus';
import { createLogger, loadConfigOrExit, runService } from '@farm/runtime';
import { openStore } from '@farm/store';
import { HttpSymbolLeases } from '@farm/srm-client';
import { Orchestrator } from './orchestrator';
import { orchestratorConfigSchema, orchestratorOptionsFrom, stateLayout } from './config';
import { createTaskLauncher } from './launcher-from-config';
import { resumeLaunches } from './resume-launches';
import { changeRequestApi } from './http-api';
import { kubernetesAuthenticatorFromEnv } from '@farm/access';
import { openApiAccess } from './api-access';

const schema = orchestratorConfigSchema.merge(busConfigSchema);
const log = createLogger('orchestrator');
const config = loadConfigOrExit(schema);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafka(config, 'orchestrator', log);
  const store = await openStore(config.DATABASE_URL, stateLayout(config.FARM_STATE_DIR).database, log);
  const launcher = createTaskLauncher(config, { bus, log });
  await resumeLaunches(store, launcher);
  const orchestrator = new Orchestrator({
    bus,
    store,
    launcher,
    log,
    leases: config.FARM_SRM_URL
      ? new HttpSymbolLeases(config.FARM_SRM_URL, { componentToken: config.FARM_COMPONENT_TOKEN })
      : undefined,
    options: orchestratorOptionsFrom(config),
  });
  await orchestrator.start();
  // In a cluster, optionally the platform's identities too (FARM_AUTH_KUBERNETES): TokenReview + SubjectAccessReview.
  const kubernetes = kubernetesAuthenticatorFromEnv(process.env, { log });
  const access = await openApiAccess(store, config, ...(kubernetes ? [kubernetes] : []));
  return {
    routes: changeRequestApi({ store, orchestrator, log, access }),
    health: () => bus.health(),
    stop: async () => {
      await orchestrator.stop();
      await launcher.close();
      await bus.close();
      await store.close();
    },
  };
});
