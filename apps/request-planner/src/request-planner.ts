import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { costOfCall, type JsonModel, type ModelPrices, type TokenUsage } from '@farm/llm';
import type { farm } from '@farm/proto';
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
  /** The configured planner model's name and the price table its calls are priced by (never the echoed name). */
  pricing?: PlannerPricing;
}): Promise<Subscription> {
  return deps.bus.subscribe(Topics.acceptedRequests, deps.group ?? 'request-planner', async (cr) => {
    const oneTask = deps.model !== undefined && skipsPlannerModel(cr, deps.singleTask ?? 'never');
    let plan: farm.v1.IPlan;
    if (deps.model && !oneTask) {
      const planned = await planWithModel(cr, deps.model, { maxItems: deps.maxItems ?? 8, log: deps.log });
      plan = { ...planned.plan, planning: planningUsage(planned.usage, deps.pricing) };
    } else {
      plan = planRequest(
        cr,
        oneTask ? 'one-sentence request, planner model not asked (FARM_PLAN_SINGLE_TASK=auto)' : undefined,
      );
    }
    deps.log.info('plan ready', {
      changeRequestId: cr.changeRequestId,
      items: plan.items?.length,
      notes: plan.notes,
      ...(plan.planning ? { planning: plan.planning } : {}),
    });
    await deps.bus.publish(Topics.plans, Topics.plans.type.fromObject(plan));
  });
}

export interface PlannerPricing {
  model: string;
  prices: ModelPrices;
}

/** What the planner's answers cost, summed; priced only when every call's model is in the table. */
export function planningUsage(usage: readonly TokenUsage[], pricing?: PlannerPricing): farm.v1.IModelUsage {
  const costs = pricing ? usage.map((u) => costOfCall(pricing.prices, pricing.model, u)) : [];
  const sum = (pick: (u: TokenUsage) => number) => usage.reduce((n, u) => n + pick(u), 0);
  return {
    calls: usage.length,
    promptTokens: sum((u) => u.promptTokens),
    completionTokens: sum((u) => u.completionTokens),
    totalTokens: sum((u) => u.totalTokens),
    costUsd: costs.reduce((n, c) => n + c.usd, 0),
    model: pricing?.model ?? '',
    priced: pricing !== undefined && costs.every((c) => c.priced),
  };
}
