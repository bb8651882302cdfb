// The builder deployment: consumes farm.build-requests.v1 and starts a build per request (a Kubernetes Job in
// jobs mode, a child process otherwise), so that no repository code runs in the orchestrator.
import { busConfigSchema, connectKafka } from '@farm/bus';
import { createLogger, loadConfigOrExit, runService, z } from '@farm/runtime';
import { startBuilder } from './builder';
import { builderConfigSchema, createBuildLauncher } from './config';

const schema = builderConfigSchema.merge(busConfigSchema).extend({
  FARM_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
});
const log = createLogger('builder');
const config = loadConfigOrExit(schema);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafka(config, 'builder', log);
  const launcher = createBuildLauncher(config, { bus, log });
  const builder = await startBuilder({ bus, launcher, log });
  return { stop: async () => (await builder.stop(), await bus.close()), health: () => bus.health() };
});
