import { connectKafka, busConfigSchema } from '@farm/bus';
import { createLogger, loadConfigOrExit, runService } from '@farm/runtime';
import { openStore, watchStoreReachable } from '@farm/store';
import { HttpSymbolLeases } from '@farm/srm-client';
import { Orchestrator } from './orchestrator';
import { orchestratorConfigSchema, orchestratorOptionsFrom, stateLayout } from './config';
import { createTaskLauncher } from './launcher-from-config';
import { egressPolicyWatchFromEnv } from './kubernetes-launcher-config';
import { resumeLaunches } from './resume-launches';
import { changeRequestApi } from './http-api';
import { kubernetesAuthenticatorFromEnv } from '@farm/access';
import { openApiAccess } from './api-access';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { forgeSetupConfigSchema, startForge } from './forge/forge-setup';

const schema = orchestratorConfigSchema
  .merge(busConfigSchema)
  .merge(forgeSetupConfigSchema)
  .merge(gitCredentialsConfigSchema);
const log = createLogger('orchestrator');
const config = loadConfigOrExit(schema);
// The forge's token may be the git credentials of its URL.
configureGitCredentials(config);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafka(config, 'orchestrator', log);
  const store = await openStore(config.DATABASE_URL, stateLayout(config.FARM_STATE_DIR).database, log);
  const launcher = createTaskLauncher(config, { bus, log });
  // Jobs mode: the agent pods' egress as the chart means it, else /readyz says why.
  const egress = config.FARM_LAUNCHER === 'jobs' ? egressPolicyWatchFromEnv(log) : undefined;
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
  // Pull requests, issues in, review comments answered, when a forge is configured (FARM_FORGE_KIND).
  const forge = startForge(config, { store, orchestrator, log });
  const database = watchStoreReachable(store, log);
  return {
    routes: changeRequestApi({
      store,
      orchestrator,
      log,
      access,
      forgeWebhooks: forge?.webhooks,
      forgeSite: forge?.site,
    }),
    // /healthz says when the database is away (submits get 503 meanwhile); /readyz fails then too.
    health: () => {
      const status = bus.health();
      return { healthy: status.healthy, reasons: [...status.reasons, ...database.health().reasons] };
    },
    readiness: () => {
      const checks = [database.readiness(), ...(egress ? [egress.readiness()] : [])];
      return { healthy: checks.every((c) => c.healthy), reasons: checks.flatMap((c) => c.reasons) };
    },
    stop: async () => {
      database.stop();
      egress?.stop();
      await forge?.bridge.stop();
      await orchestrator.stop();
      await launcher.close();
      await bus.close();
      await store.close();
    },
  };
});
