// Worker-pool entry point: consumes the task topic in one consumer group, one task at a time per worker;
// the offset is committed only after the CommitResult is published.
import { farm } from '@farm/proto';
import { connectKafkaFromEnv, Topics } from '@farm/bus';
import { createLogger, runService } from '@farm/runtime';
import { agentDepsFromConfig } from './agent-deps';
import { loadAgentConfig } from './config';
import { runCodingTask } from './run-task';

const log = createLogger('coding-agent');
void runService(log, Number(process.env.FARM_METRICS_PORT ?? 9464), async () => {
  const config = loadAgentConfig();
  const deps = agentDepsFromConfig(config, log);
  const bus = await connectKafkaFromEnv('coding-agent', log);
  const sub = await bus.subscribe(Topics.codingTasks, process.env.FARM_AGENT_GROUP ?? 'coding-agent', async (task) => {
    const result = await runCodingTask(task, deps);
    await bus.publish(Topics.commitResults, farm.v1.CommitResult.fromObject(result));
  });
  return { stop: async () => (await sub.stop(), await bus.close()) };
});
