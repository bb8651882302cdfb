import { connectKafkaFromEnv } from '@farm/bus';
import { createLogger, runService } from '@farm/runtime';
import { startRequestPlanner } from './request-planner';

const log = createLogger('request-planner');
void runService(log, Number(process.env.FARM_METRICS_PORT ?? 9464), async () => {
  const bus = await connectKafkaFromEnv('request-planner', log);
  const sub = await startRequestPlanner({ bus, log });
  return { stop: async () => (await sub.stop(), await bus.close()) };
});
