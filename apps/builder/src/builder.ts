import { farm } from '@farm/proto';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import type { Logger } from '@farm/runtime';
import type { BuildLauncher } from './build-launcher';

export interface BuilderDeps {
  bus: EventBus;
  launcher: BuildLauncher;
  log: Logger;
  group?: string;
}

/**
 * The build phase's consumer: resumes the builds a previous builder left, then starts one build (process or
 * Job) per BuildRequest. The request's position is committed once its build is durably started, so a build
 * lasting an hour never holds a consumer; a crash before that re-delivers it and the launcher sees it started.
 */
export async function startBuilder(deps: BuilderDeps): Promise<Subscription> {
  await deps.launcher.resume();
  const group = deps.group ?? 'builder';
  const sub = await deps.bus.subscribe(Topics.buildRequests, group, async (request) => {
    deps.log.info('build requested', { changeRequestId: request.changeRequestId, branches: request.branches.length });
    await deps.launcher.launch(request);
  });
  // A cancelled request's build is stopped; one that is not running (not started, or done) is left alone.
  const control = await deps.bus.subscribe(Topics.control, `${group}-control`, async (command) => {
    if (command.action !== farm.v1.ControlAction.CANCEL) return;
    await deps.launcher.cancel(command.changeRequestId);
  });
  return {
    async stop() {
      await control.stop();
      await sub.stop();
      await deps.launcher.close();
    },
  };
}
