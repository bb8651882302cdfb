import { InProcessBus, Topics } from '@farm/bus';
import { createJsonModel } from '@farm/llm';
import type { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer } from '@farm/scripted-llm';
import { planningUsage, startRequestPlanner } from './request-planner';
import type { SingleTaskPolicy } from './single-task';

const twoItems = {
  notes: 'split',
  items: [
    { id: 'code', goal: 'Fix the typo in code', kind: 'fix', paths: ['a.js'], symbols: [], depends_on: [] },
    { id: 'docs', goal: 'Fix the typo in docs', kind: 'docs', paths: ['README.md'], symbols: [], depends_on: [] },
  ],
};

/** The plan the request-planner publishes for `title`, and how many times it asked the model. */
async function planFor(title: string, singleTask: SingleTaskPolicy) {
  const server = await startScriptedModelServer({ script: { chat: [{ content: JSON.stringify(twoItems) }] } });
  const bus = new InProcessBus();
  const planner = await startRequestPlanner({
    bus,
    log: silentLogger,
    model: createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner', maxRetries: 0 }),
    singleTask,
  });
  try {
    const plan = new Promise<farm.v1.IPlan>((resolve) => {
      void bus.subscribe(Topics.plans, 'test', async (p) => resolve(p));
    });
    await bus.publish(
      Topics.acceptedRequests,
      Topics.acceptedRequests.type.fromObject({ changeRequestId: 'cr-1', title, repo: { url: 'u', baseRef: 'main' } }),
    );
    return { plan: await plan, modelCalls: server.requests.length };
  } finally {
    await planner.stop();
    await bus.close();
    await server.close();
  }
}

test('with FARM_PLAN_SINGLE_TASK=auto a one-sentence request is one task and the model is not asked', async () => {
  const { plan, modelCalls } = await planFor('Fix the typo in the README', 'auto');
  expect(modelCalls).toBe(0);
  expect(plan.items?.map((i) => i.goal)).toEqual(['Fix the typo in the README']);
  expect(plan.notes?.[0]).toContain('planner model not asked');
});

test('a longer request, or the default setting, is still planned by the model', async () => {
  const long = await planFor('Fix the typo in the README. Then fix the same typo in the code.', 'auto');
  expect(long.modelCalls).toBe(1);
  expect(long.plan.items?.map((i) => i.itemId)).toEqual(['code', 'docs']);
  const never = await planFor('Fix the typo in the README', 'never');
  expect(never.modelCalls).toBe(1);
  expect(never.plan.items).toHaveLength(2);
});

test("planning's tokens and cost travel with the plan, every answer counted and priced by the configured name", async () => {
  // A first answer that is not JSON and a second that plans: both were paid for. The server answers as its model
  // file (as llama.cpp does); the calls are priced by the configured name all the same.
  const server = await startScriptedModelServer({
    script: {
      answeredModel: '/models/qwen2.5-coder-q4.gguf',
      chat: [
        { content: 'Sure! Here is the plan', usage: { promptTokens: 1000, completionTokens: 10 } },
        { content: JSON.stringify(twoItems), usage: { promptTokens: 1200, completionTokens: 300 } },
      ],
    },
  });
  const bus = new InProcessBus();
  const planner = await startRequestPlanner({
    bus,
    log: silentLogger,
    model: createJsonModel({ baseURL: server.baseURL, apiKey: 'k', model: 'planner-x', maxRetries: 0 }),
    pricing: { model: 'planner-x', prices: { 'planner-x': { inputPerMillion: 1, outputPerMillion: 10 } } },
  });
  try {
    const plan = new Promise<farm.v1.IPlan>((resolve) => {
      void bus.subscribe(Topics.plans, 'test', async (p) => resolve(p));
    });
    await bus.publish(
      Topics.acceptedRequests,
      Topics.acceptedRequests.type.fromObject({ changeRequestId: 'cr-2', title: 't', repo: { url: 'u' } }),
    );
    const { planning, items } = await plan;
    expect(items).toHaveLength(2);
    expect(planning).toMatchObject({
      calls: 2,
      promptTokens: 2200,
      completionTokens: 310,
      totalTokens: 2510,
      model: 'planner-x',
      priced: true,
    });
    expect(planning?.costUsd).toBeCloseTo((2200 * 1 + 310 * 10) / 1e6, 12);
  } finally {
    await planner.stop();
    await bus.close();
    await server.close();
  }
});

test('a planner model the price table does not know is unpriced, not free; without a model planning costs nothing', () => {
  const usage = [{ promptTokens: 10, completionTokens: 5, totalTokens: 15 }];
  expect(planningUsage(usage, { model: 'local', prices: {} })).toMatchObject({ costUsd: 0, priced: false, calls: 1 });
  expect(planningUsage([], { model: 'local', prices: {} })).toMatchObject({ calls: 0, totalTokens: 0, priced: true });
});
