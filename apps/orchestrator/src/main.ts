import { connectKafkaFromEnv } from '@farm/bus';
import { createLogger, loadConfig, runService, z } from '@farm/runtime';
import { openStore } from '@farm/store';
import { ChildProcessLauncher } from './child-process-launcher';
import { TaskTopicLauncher, type TaskLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { HttpSymbolLeases } from '@farm/srm-client';
import { kubernetesJobLauncherFromEnv } from './kubernetes-launcher-config';
import { startBuildRunner } from './build-runner';
import { changeRequestApi } from './http-api';

const schema = z.object({
  DATABASE_URL: z.string().optional(),
  FARM_STATE_DIR: z.string().default('.farm/state'),
  /** process: an agent child process per task; pool: tasks go to the worker pool topic; jobs: a Kubernetes Job per task. */
  FARM_LAUNCHER: z.enum(['process', 'pool', 'jobs']).default('process'),
  FARM_METRICS_PORT: z.coerce.number().int().min(0).default(9464),
  FARM_TASK_PARALLELISM: z.coerce.number().int().min(1).default(4),
  FARM_TASK_DEADLINE_S: z.coerce.number().int().positive().default(1800),
  FARM_MAX_TASK_DISPATCHES: z.coerce.number().int().min(1).default(2),
  /** The srm service, to release a request's leases when it ends. */
  FARM_SRM_URL: z.string().url().optional(),
});

// Resolved, not imported: the agent runs in its own process.
const AGENT_ENTRY = require.resolve('@farm/coding-agent/src/job.ts');
const log = createLogger('orchestrator');
const config = loadConfig(schema);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafkaFromEnv('orchestrator', log);
  const store = await openStore(config.DATABASE_URL, config.FARM_STATE_DIR);
  const launcher: TaskLauncher =
    config.FARM_LAUNCHER === 'jobs'
      ? kubernetesJobLauncherFromEnv(bus, log)
      : config.FARM_LAUNCHER === 'pool'
        ? new TaskTopicLauncher(bus)
        : new ChildProcessLauncher({ bus, log, agentEntry: AGENT_ENTRY });
  const orchestrator = new Orchestrator({
    bus,
    store,
    launcher,
    log,
    leases: config.FARM_SRM_URL ? new HttpSymbolLeases(config.FARM_SRM_URL) : undefined,
    options: {
      parallelism: config.FARM_TASK_PARALLELISM,
      taskDeadlineMs: config.FARM_TASK_DEADLINE_S * 1000,
      maxDispatches: config.FARM_MAX_TASK_DISPATCHES,
    },
  });
  await orchestrator.start();
  const builder = await startBuildRunner({ bus, log: log.child({ app: 'builder' }) });
  return {
    routes: changeRequestApi({ store, orchestrator, log }),
    stop: async () => {
      await builder.stop();
      await orchestrator.stop();
      await launcher.close();
      await bus.close();
      await store.close();
    },
  };
});
