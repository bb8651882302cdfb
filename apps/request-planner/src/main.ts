import { busConfigSchema, connectKafka } from '@farm/bus';
import { createLogger, loadConfigOrExit, runService, z } from '@farm/runtime';
import { plannerModelFrom, plannerPricingFrom, requestPlannerConfigSchema } from './config';
import { startRequestPlanner } from './request-planner';

const schema = requestPlannerConfigSchema.merge(busConfigSchema).extend({
  FARM_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
});
const log = createLogger('request-planner');
const config = loadConfigOrExit(schema);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafka(config, 'request-planner', log);
  const model = plannerModelFrom(config, log);
  const sub = await startRequestPlanner({
    bus,
    log,
    model,
    maxItems: config.FARM_PLANNER_MAX_ITEMS,
    singleTask: config.FARM_PLAN_SINGLE_TASK,
    pricing: plannerPricingFrom(config),
  });
  return { stop: async () => (await sub.stop(), await bus.close()), health: () => bus.health() };
});
