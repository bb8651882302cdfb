import { costOfCall, DEFAULT_MODEL_PRICES, priceOf } from '@farm/llm';
import { TaskBudget } from './task-budget';

describe('a task budget', () => {
  test('steps run out at the limit; tokens and cost when exceeded; the stop names the limit and says how far', () => {
    const budget = new TaskBudget({ maxSteps: 2, maxTokens: 1000, maxCostUsd: 0.5 });
    budget.record({ promptTokens: 400, completionTokens: 100, totalTokens: 500 }, 0.1);
    expect(budget.exhausted()).toBeUndefined();
    budget.record({ promptTokens: 100, completionTokens: 100, totalTokens: 200 }, 0.1);
    expect(budget.exhausted()).toEqual({
      limit: 'steps',
      reason: 'step budget used up: 2 model calls, the limit is 2',
    });

    const tokens = new TaskBudget({ maxSteps: 10, maxTokens: 1000, maxCostUsd: 5 });
    tokens.record({ promptTokens: 900, completionTokens: 200, totalTokens: 1100 }, 0);
    expect(tokens.exhausted()).toEqual({
      limit: 'tokens',
      reason: 'token budget exceeded: 1100 tokens used, the limit is 1000',
    });

    const cost = new TaskBudget({ maxSteps: 10, maxTokens: 1e9, maxCostUsd: 0.5 });
    cost.record({ promptTokens: 1, completionTokens: 1, totalTokens: 2 }, 0.75);
    expect(cost.exhausted()).toEqual({
      limit: 'cost',
      reason: 'cost budget exceeded: $0.7500 spent, the limit is $0.50',
    });
  });
});

describe('the price table', () => {
  test('a model is priced by its name or the longest name it starts with; unknown models cost nothing', () => {
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(priceOf(DEFAULT_MODEL_PRICES, 'gpt-4o-2024-08-06')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o']);
    const usage = { promptTokens: 1_000_000, completionTokens: 500_000, totalTokens: 1_500_000 };
    expect(costOfCall(DEFAULT_MODEL_PRICES, 'gpt-4o-mini', usage)).toEqual({ usd: 0.45, priced: true });
    expect(costOfCall(DEFAULT_MODEL_PRICES, 'my-local-model', usage)).toEqual({ usd: 0, priced: false });
  });

  test('prompt tokens the endpoint served from its cache are priced at the cached input price, and counted', () => {
    const usage = { promptTokens: 1_000_000, completionTokens: 0, totalTokens: 1_000_000, cachedInputTokens: 800_000 };
    // 200k at $2.50 + 800k at $1.25 per million
    expect(costOfCall(DEFAULT_MODEL_PRICES, 'gpt-4o', usage).usd).toBeCloseTo(1.5, 10);
    // without a cached price they cost the input price
    expect(costOfCall({ m: { inputPerMillion: 1, outputPerMillion: 1 } }, 'm', usage).usd).toBeCloseTo(1, 10);
    const budget = new TaskBudget({ maxSteps: 5, maxTokens: 10_000, maxCostUsd: 1 });
    budget.record({ promptTokens: 3000, completionTokens: 10, totalTokens: 3010, cachedInputTokens: 2048 }, 0);
    budget.record({ promptTokens: 3500, completionTokens: 10, totalTokens: 3510 }, 0);
    budget.record({ promptTokens: 4000, completionTokens: 10, totalTokens: 4010, cachedInputTokens: 3072 }, 0);
    expect(budget.usage).toEqual({
      promptTokens: 10500,
      completionTokens: 30,
      totalTokens: 10530,
      cachedInputTokens: 5120,
    });
  });
});
