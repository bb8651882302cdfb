import type { TokenUsage } from '@farm/llm';

export interface BudgetLimits {
  /** Model calls per task. */
  maxSteps: number;
  /** Prompt plus completion tokens per task. */
  maxTokens: number;
  /** US dollars per task (from the price table). */
  maxCostUsd: number;
}

export const DEFAULT_BUDGET: BudgetLimits = { maxSteps: 40, maxTokens: 400_000, maxCostUsd: 2 };

/** Which limit stopped a task (the `budget` label of farm_agent_budget_stops_total), and the reason to report. */
export interface BudgetStop {
  limit: 'steps' | 'tokens' | 'cost';
  reason: string;
}

/** What one task has spent so far, and whether a limit is reached (which, and how far). */
export class TaskBudget {
  steps = 0;
  readonly usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  costUsd = 0;

  constructor(readonly limits: BudgetLimits) {}

  record(usage: TokenUsage, costUsd: number): void {
    this.steps++;
    this.usage.promptTokens += usage.promptTokens;
    this.usage.completionTokens += usage.completionTokens;
    this.usage.totalTokens += usage.totalTokens || usage.promptTokens + usage.completionTokens;
    if (usage.cachedInputTokens)
      this.usage.cachedInputTokens = (this.usage.cachedInputTokens ?? 0) + usage.cachedInputTokens;
    this.costUsd += costUsd;
  }

  /** The limit that forbids a further model call, or undefined while the budget lasts. */
  exhausted(): BudgetStop | undefined {
    const { maxSteps, maxTokens, maxCostUsd } = this.limits;
    if (this.usage.totalTokens > maxTokens)
      return {
        limit: 'tokens',
        reason: `token budget exceeded: ${this.usage.totalTokens} tokens used, the limit is ${maxTokens}`,
      };
    if (this.costUsd > maxCostUsd)
      return {
        limit: 'cost',
        reason: `cost budget exceeded: $${this.costUsd.toFixed(4)} spent, the limit is $${maxCostUsd.toFixed(2)}`,
      };
    if (this.steps >= maxSteps)
      return { limit: 'steps', reason: `step budget used up: ${this.steps} model calls, the limit is ${maxSteps}` };
    return undefined;
  }
}
