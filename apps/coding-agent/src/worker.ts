// Worker-pool entry point: one coding-agent replica consuming the task topic (see worker-pool.ts).
import { busConfigSchema, connectKafka } from '@farm/bus';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { createLogger, loadConfigOrExit, runService } from '@farm/runtime';
import { describeStatus, reportConfinement } from '@farm/sandbox';
import { agentDepsFromConfig } from './agent-deps';
import { agentConfigSchema, agentWorkerConfigSchema } from './config';
import { startAgentWorker } from './worker-pool';

const log = createLogger('coding-agent');
const config = loadConfigOrExit(agentConfigSchema.merge(agentWorkerConfigSchema).merge(busConfigSchema));
const gitCredentials = loadConfigOrExit(gitCredentialsConfigSchema);
configureGitCredentials(gitCredentials);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const deps = agentDepsFromConfig(config, log, [gitCredentials.FARM_GIT_TOKEN]);
  const bus = await connectKafka(config, 'coding-agent', log);
  const sub = await startAgentWorker(bus, deps, config.FARM_AGENT_GROUP);
  // A replica whose sandbox cannot confine the checks refuses every task: unhealthy, and says why.
  const confinement = await reportConfinement(log);
  const health = () => {
    const status = bus.health();
    if (!confinement.missing.length) return status;
    return { healthy: false, reasons: [...status.reasons, describeStatus(confinement)] };
  };
  return { stop: async () => (await sub.stop(), await bus.close()), health };
});
