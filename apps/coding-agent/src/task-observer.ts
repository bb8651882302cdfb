import { farm } from '@farm/proto';
import type { TokenUsage } from '@farm/llm';
import type { StrategyName } from './agent-deps';
import { agentMetrics } from './metrics';
import type { BudgetStop, TaskBudget } from './task-budget';
import type { TaskOutcome } from './task-outcome';
import { resultRecord, type TaskUsage } from './task-result';
import type { Trajectory } from './trajectory';

const S = farm.v1.CommitStatus;
const NO_TOKENS: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** What any model call reports about itself. */
interface ModelAnswer {
  model: string;
  usage: TokenUsage;
  /** Malformed answers asked again before this one. */
  malformedRetries?: number;
}

/**
 * What one task reports on its way, in one place: the agent's metrics, the task's trajectory, how long each
 * step took, and what it used (attempts, model calls against its budget, reviews) for the result. The steps
 * say what happened; the observer counts it.
 */
export class TaskObserver {
  private attemptCount = 0;
  private model = '';
  private malformedRetries = 0;
  private readonly reviews: farm.v1.IReviewVerdict[] = [];
  private readonly durations: farm.v1.IStepDuration[] = [];
  /** What in the environment failed the task meanwhile (a check that timed out): a budget stop after it is not final. */
  private readonly environment: string[] = [];

  constructor(
    readonly trajectory: Trajectory,
    /** What the task may still spend; every model call is recorded against it here. */
    readonly budget: TaskBudget,
  ) {}

  /** Attempts so far: a diff tried, or a finish called. */
  get attempts(): number {
    return this.attemptCount;
  }

  /** Review verdicts so far, in order. */
  get verdicts(): readonly farm.v1.IReviewVerdict[] {
    return this.reviews;
  }

  record(event: string, data: Record<string, unknown>): void {
    this.trajectory.record(event, data);
  }

  /** For following the task live only (see Trajectory.progress). */
  progress(event: string, data: Record<string, unknown>): void {
    this.trajectory.progress?.(event, data);
  }

  started(): void {
    agentMetrics.inFlight.inc();
  }

  /** Runs `fn` as one of the task's steps; its duration goes into the result and the step histogram. */
  async timed<T>(step: string, attempt: number, fn: () => Promise<T>): Promise<T> {
    const start = process.hrtime.bigint();
    try {
      return await fn();
    } finally {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      this.durations.push({ step, attempt, seconds });
      agentMetrics.stepSeconds.observe({ step }, seconds);
    }
  }

  /** A new attempt begins; returns its number (from 1). */
  attemptStarted(): number {
    return ++this.attemptCount;
  }

  /** The task's model answered: its tokens and cost count against the budget and the metrics. */
  modelCalled(answer: ModelAnswer, costUsd: number): void {
    this.spent(answer, costUsd);
    this.model = answer.model;
  }

  /** The reviewer answered: spent like any call, but the result keeps naming the task's model. */
  reviewerCalled(answer: ModelAnswer, costUsd: number): void {
    this.spent(answer, costUsd);
  }

  private spent(answer: ModelAnswer, costUsd: number): void {
    this.budget.record(answer.usage, costUsd);
    this.malformedRetries += answer.malformedRetries ?? 0;
    agentMetrics.tokens.inc({ kind: 'prompt', model: answer.model }, answer.usage.promptTokens);
    agentMetrics.tokens.inc({ kind: 'completion', model: answer.model }, answer.usage.completionTokens);
    if (answer.usage.cachedInputTokens)
      agentMetrics.tokens.inc({ kind: 'cached_prompt', model: answer.model }, answer.usage.cachedInputTokens);
    agentMetrics.costUsd.inc({ model: answer.model }, costUsd); // 0 for an unpriced model: shown as 0, not as no data
  }

  /** An answer that could not be read still counts as a step: an endpoint answering garbage hits the budget. */
  unreadableAnswer(): void {
    this.budget.record(NO_TOKENS, 0);
  }

  patchResult(result: 'applied' | 'rejected' | 'check_failed'): void {
    agentMetrics.patches.inc({ result });
  }

  /** The tools the model may call: each counted from 0, so a tool never called shows as 0 rather than no data. */
  toolsOffered(tools: string[]): void {
    for (const tool of tools) for (const outcome of ['ok', 'error']) agentMetrics.toolCalls.inc({ tool, outcome }, 0);
  }

  toolCalled(tool: string, ok: boolean): void {
    agentMetrics.toolCalls.inc({ tool, outcome: ok ? 'ok' : 'error' });
  }

  reviewed(verdict: farm.v1.IReviewVerdict): void {
    this.reviews.push(verdict);
    this.trajectory.record('review', { ...verdict });
    agentMetrics.reviews.inc({ verdict: verdict.approved && !verdict.belowConfidence ? 'approved' : 'objected' });
  }

  /** A check run whose steps timed out: the machine or a service may be slow, not the change wrong. */
  checksRan(steps: { name: string; timedOut?: boolean; durationMs?: number }[]): void {
    for (const s of steps)
      if (s.timedOut)
        this.environment.push(`check ${s.name} timed out after ${Math.round((s.durationMs ?? 0) / 1000)} s`);
  }

  /**
   * A budget ran out. Its failure is final (STEP_BUDGET) when nothing in the environment failed the task meanwhile;
   * otherwise (STEP_BUDGET_ENVIRONMENT) the budget may have gone to a slow machine, and the task is run again.
   */
  budgetStopped(stop: BudgetStop): { failedStep: farm.v1.FailedStep; reason: string } {
    const cause = this.environment.length ? 'environment' : 'task';
    agentMetrics.budgetStops.inc({ budget: stop.limit, cause });
    if (cause === 'task') return { failedStep: farm.v1.FailedStep.STEP_BUDGET, reason: stop.reason };
    const seen = [...new Set(this.environment)];
    return {
      failedStep: farm.v1.FailedStep.STEP_BUDGET_ENVIRONMENT,
      reason: `${stop.reason}; meanwhile ${seen.slice(0, 3).join(', ')}${seen.length > 3 ? ` and ${seen.length - 3} more` : ''}: run again`,
    };
  }

  /** What the task used, for its result. */
  usage(strategy: StrategyName): TaskUsage {
    return {
      strategy,
      attempts: this.attemptCount,
      steps: this.budget.steps,
      tokens: this.budget.usage,
      costUsd: this.budget.costUsd,
      model: this.model,
      reviews: this.reviews,
      stepDurations: this.durations,
      malformedRetries: this.malformedRetries,
    };
  }

  /** The task ended with `result`: counted, and the trajectory's last line written. */
  ended(result: farm.v1.ICommitResult, outcome: TaskOutcome): void {
    agentMetrics.tasks.inc({ status: S[result.status!] });
    agentMetrics.attempts.observe(this.attemptCount);
    this.trajectory.record('result', resultRecord(result, outcome));
  }

  async close(): Promise<void> {
    agentMetrics.inFlight.dec();
    await this.trajectory.close();
  }
}
