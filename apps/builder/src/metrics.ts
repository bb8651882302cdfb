import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

export const builderMetrics = {
  launched: new Counter({
    name: 'farm_builder_builds_launched_total',
    help: 'Builds started (a process or a Job per BuildRequest)',
    registers: [metricsRegistry],
  }),
  inPlace: new Counter({
    name: 'farm_builder_builds_in_place_total',
    help: 'One-task builds done without a process or a checkout: the task had checked exactly that tree',
    registers: [metricsRegistry],
  }),
  running: new Gauge({
    name: 'farm_builder_builds_running',
    help: 'Builds this builder follows that have not ended',
    registers: [metricsRegistry],
  }),
  unreported: new Counter({
    name: 'farm_builder_builds_unreported_total',
    help: 'Builds that ended without a BuildResult; BUILD_FAILED was published for them',
    registers: [metricsRegistry],
  }),
};
