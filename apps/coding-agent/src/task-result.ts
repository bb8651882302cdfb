import { failedStepName, farm } from '@farm/proto';
import type { TokenUsage } from '@farm/llm';
import type { StrategyName } from './agent-deps';
import { branchFor } from './task-branch';
import type { TaskOutcome } from './task-outcome';

const S = farm.v1.CommitStatus;

/** What the task used on its way: for the result, whatever the outcome. */
export interface TaskUsage {
  strategy: StrategyName;
  attempts: number;
  steps: number;
  tokens: TokenUsage;
  costUsd: number;
  model: string;
  reviews: farm.v1.IReviewVerdict[];
  stepDurations: farm.v1.IStepDuration[];
  /** Malformed model answers that were asked again (the notes say so). */
  malformedRetries: number;
}

/** The CommitResult the agent publishes for `outcome`; every note redacted. */
export function assembleResult(
  task: farm.v1.ICodingTask,
  outcome: TaskOutcome,
  usage: TaskUsage,
  redact: (text: string) => string,
): farm.v1.ICommitResult {
  const fields: Partial<farm.v1.ICommitResult> =
    outcome.kind === 'delivered'
      ? {
          status: S.SUCCESS,
          commitSha: outcome.commitSha,
          branchName: branchFor(task.id!),
          ...(outcome.lesson ? { lesson: outcome.lesson } : {}),
        }
      : { status: outcome.status, failedStep: outcome.failedStep };
  const notes = outcome.kind === 'delivered' ? outcome.notes : [outcome.reason, ...(outcome.notes ?? [])];
  return {
    taskId: task.id,
    changeRequestId: task.changeRequestId,
    dispatch: task.dispatch,
    attempts: usage.attempts,
    tokenUsage: { ...usage.tokens },
    stepDurations: usage.stepDurations,
    costUsd: usage.costUsd,
    model: usage.model,
    steps: usage.steps,
    strategy: usage.strategy === 'tools' ? farm.v1.AgentStrategy.TOOLS : farm.v1.AgentStrategy.DIFF,
    reviews: usage.reviews,
    ...(outcome.verification ? { verification: outcome.verification } : {}),
    ...fields,
    notes: [
      ...notes,
      ...(usage.malformedRetries ? [`model answer malformed, retried ${usage.malformedRetries}x`] : []),
    ].map(redact),
  };
}

/** The trajectory's last line: how the task ended and what it used. */
export function resultRecord(result: farm.v1.ICommitResult, outcome: TaskOutcome): Record<string, unknown> {
  return {
    status: S[result.status ?? 0],
    ...(outcome.kind === 'delivered'
      ? {
          commitSha: result.commitSha,
          branchName: result.branchName,
          notes: outcome.notes,
          ...(outcome.lesson ? { lesson: outcome.lesson } : {}),
        }
      : { failedStep: failedStepName(outcome.failedStep), notes: [outcome.reason, ...(outcome.notes ?? [])] }),
    costUsd: result.costUsd,
    steps: result.steps,
    tokens: result.tokenUsage,
    attempts: result.attempts,
  };
}
