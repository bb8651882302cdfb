import { Topics, type EventBus, type Subscription } from '@farm/bus';
import type { JsonModel } from '@farm/llm';
import type { Logger } from '@farm/runtime';
import { planRequest } from './plan-request';
import { planWithModel } from './plan-with-model';
import { skipsPlannerModel, type SingleTaskPolicy } from './single-task';

/**
 * Consumes the change requests the orchestrator admitted and publishes their plans: decomposed by the model when one is configured, one
 * item per request otherwise. A redelivered request is planned again; the orchestrator keeps the first bundle.
 */
export async function startRequestPlanner(deps: {
  bus: EventBus;
  log: Logger;
  model?: JsonModel;
  maxItems?: number;
  /** FARM_PLAN_SINGLE_TASK: `auto` plans an obviously one-task request without the model (default `never`). */
  singleTask?: SingleTaskPolicy;
  group?: string;
}): Promise<Subscription> {
  return deps.bus.subscribe(Topics.acceptedRequests, deps.group ?? 'request-planner', async (cr) => {
    const oneTask = deps.model !== undefined && skipsPlannerModel(cr, deps.singleTask ?? 'never');
    const plan =
      deps.model && !oneTask
        ? (await planWithModel(cr, deps.model, { maxItems: deps.maxItems ?? 8, log: deps.log })).plan
        : planRequest(
            cr,
            oneTask ? 'one-sentence request, planner model not asked (FARM_PLAN_SINGLE_TASK=auto)' : undefined,
          );
    deps.log.info('plan ready', { changeRequestId: cr.changeRequestId, items: plan.items?.length, notes: plan.notes });
    await deps.bus.publish(Topics.plans, Topics.plans.type.fromObject(plan));
  });
}
