import { InProcessBus, Topics } from '@farm/bus';
import { createJsonModel } from '@farm/llm';
import type { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer } from '@farm/scripted-llm';
import { startRequestPlanner } from './request-planner';
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
