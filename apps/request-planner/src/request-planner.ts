import { Topics, type EventBus, type Subscription } from '@farm/bus';
import type { Logger } from '@farm/runtime';
import { planRequest } from './plan-request';

/** Consumes change requests and publishes their plans. Stateless: a redelivered request yields the same plan. */
export async function startRequestPlanner(deps: { bus: EventBus; log: Logger; group?: string }): Promise<Subscription> {
  return deps.bus.subscribe(Topics.changeRequests, deps.group ?? 'request-planner', async (cr) => {
    const plan = planRequest(cr);
    deps.log.info('plan ready', { changeRequestId: cr.changeRequestId, items: plan.items?.length });
    await deps.bus.publish(Topics.plans, Topics.plans.type.fromObject(plan));
  });
}
