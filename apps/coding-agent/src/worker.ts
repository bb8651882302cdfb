// Worker-pool entry point: one coding-agent replica consuming the task topic (see worker-pool.ts).
import { busConfigSchema, connectKafka } from '@farm/bus';
import { configureGitCredentials, gitCredentialsConfigSchema } from '@farm/git';
import { createLogger, loadConfigOrExit, runService } from '@farm/runtime';
import { watchConfinement } from '@farm/sandbox';
import { agentDepsFromConfig } from './agent-deps';
import { agentConfigSchema, agentWorkerConfigSchema } from './config';
import { registerAgentMetrics } from './metrics';
import { startAgentWorker } from './worker-pool';

const log = createLogger('coding-agent');
const config = loadConfigOrExit(agentConfigSchema.merge(agentWorkerConfigSchema).merge(busConfigSchema));
const gitCredentials = loadConfigOrExit(gitCredentialsConfigSchema);
configureGitCredentials(gitCredentials);
registerAgentMetrics(); // scraped here: its results carry no samples
void runService(log, config.FARM_METRICS_PORT, async () => {
  const deps = agentDepsFromConfig(config, log, [gitCredentials.FARM_GIT_TOKEN]);
  const bus = await connectKafka(config, 'coding-agent', log);
  const sub = await startAgentWorker(bus, deps, config.FARM_AGENT_GROUP);
  // A replica whose sandbox cannot confine the checks refuses every task: unhealthy, and says why; degraded while
  // its probe does not answer (a busy machine), its tasks waiting for the answer.
  const confinement = await watchConfinement(log);
  const health = () => {
    const status = bus.health();
    const sandbox = confinement.health();
    return { healthy: status.healthy && sandbox.healthy, reasons: [...status.reasons, ...sandbox.reasons] };
  };
  return { stop: async () => (confinement.stop(), await sub.stop(), await bus.close()), health };
});
