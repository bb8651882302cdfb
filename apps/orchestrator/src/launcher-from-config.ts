import type { EventBus } from '@farm/bus';
import { entryScript, type Logger } from '@farm/runtime';
import { ChildProcessLauncher } from './child-process-launcher';
import { stateLayout, type OrchestratorConfig } from './config';
import { kubernetesJobLauncherFromEnv } from './kubernetes-launcher-config';
import { TaskTopicLauncher, type TaskLauncher } from './launcher';

/**
 * The one place a launcher is built from configuration: FARM_LAUNCHER picks it, `agentEnv` is what agent
 * processes get (process mode); jobs mode reads its FARM_JOB_* settings from `env`.
 */
export function createTaskLauncher(
  config: OrchestratorConfig,
  deps: {
    bus: EventBus;
    log: Logger;
    agentEnv?: NodeJS.ProcessEnv;
    env?: NodeJS.ProcessEnv;
    /** Process mode: stop running agents when the farm stops (default), or leave them to the next one. */
    onClose?: 'stop' | 'leave';
  },
): TaskLauncher {
  switch (config.FARM_LAUNCHER) {
    case 'jobs':
      return kubernetesJobLauncherFromEnv(deps.bus, deps.log, deps.env ?? process.env);
    case 'pool':
      return new TaskTopicLauncher(deps.bus);
    case 'process': {
      const layout = stateLayout(config.FARM_STATE_DIR);
      return new ChildProcessLauncher({
        bus: deps.bus,
        log: deps.log,
        agentEntry: entryScript('agent-job', deps.env ?? process.env),
        env: deps.agentEnv ?? deps.env ?? process.env,
        stateDir: layout.agents,
        logDir: layout.logs,
        onClose: deps.onClose,
        maxRunning: config.FARM_AGENT_PROCESSES || undefined,
      });
    }
  }
}
