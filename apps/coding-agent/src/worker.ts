// Worker-pool entry point: one coding-agent replica consuming the task topic (see worker-pool.ts).
import { connectKafkaFromEnv } from '@farm/bus';
import { createLogger, runService } from '@farm/runtime';
import { agentDepsFromConfig } from './agent-deps';
import { loadAgentConfig } from './config';
import { startAgentWorker } from './worker-pool';

const log = createLogger('coding-agent');
void runService(log, Number(process.env.FARM_METRICS_PORT ?? 9464), async () => {
  const deps = agentDepsFromConfig(loadAgentConfig(), log);
  const bus = await connectKafkaFromEnv('coding-agent', log);
  const sub = await startAgentWorker(bus, deps, process.env.FARM_AGENT_GROUP ?? 'coding-agent');
  return { stop: async () => (await sub.stop(), await bus.close()) };
});
