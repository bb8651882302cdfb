import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { RefNotFound, resolveRemoteRef } from '@farm/git';
import { errorMessage, type Logger } from '@farm/runtime';
import { bundlePlan } from './bundle-plan';

/**
 * Consumes plans, resolves the base ref to a commit on the remote and publishes the task bundle. A ref that
 * does not exist produces a bundle with planning_error, so the request fails with the reason instead of hanging.
 */
export async function startCodePlanner(deps: {
  bus: EventBus;
  log: Logger;
  group?: string;
  resolveRef?: (url: string, ref: string) => Promise<string>;
}): Promise<Subscription> {
  const resolveRef = deps.resolveRef ?? resolveRemoteRef;
  return deps.bus.subscribe(Topics.plans, deps.group ?? 'code-planner', async (plan) => {
    const log = deps.log.child({ changeRequestId: plan.changeRequestId });
    let baseCommit: string;
    try {
      baseCommit = await resolveRef(plan.repo?.url ?? '', plan.repo?.baseRef || 'main');
    } catch (err) {
      if (!(err instanceof RefNotFound)) throw err; // network trouble: the bus retries
      log.warn('base ref not found', { err });
      await deps.bus.publish(
        Topics.taskBundles,
        Topics.taskBundles.type.fromObject({
          changeRequestId: plan.changeRequestId,
          repo: plan.repo,
          planningError: errorMessage(err),
        }),
      );
      return;
    }
    const bundle = bundlePlan(plan, baseCommit);
    log.info('task bundle ready', { baseCommit, tasks: bundle.tasks?.length });
    await deps.bus.publish(Topics.taskBundles, Topics.taskBundles.type.fromObject(bundle));
  });
}
