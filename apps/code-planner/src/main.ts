import { connectKafkaFromEnv } from '@farm/bus';
import { createLogger, runService } from '@farm/runtime';
import { startCodePlanner } from './code-planner';

const log = createLogger('code-planner');
void runService(log, Number(process.env.FARM_METRICS_PORT ?? 9464), async () => {
  const bus = await connectKafkaFromEnv('code-planner', log);
  const sub = await startCodePlanner({ bus, log });
  return { stop: async () => (await sub.stop(), await bus.close()) };
});
