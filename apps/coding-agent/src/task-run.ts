import type { Logger } from '@farm/runtime';
import type { TaskBudget } from './task-budget';
import type { ToolLoopState } from './tool-loop';
import type { Redactor } from './tools/redact-secrets';
import type { Trajectory } from './trajectory';

/** What every step of one task works with: its log, redaction, trajectory and budget, and what it used so far. */
export interface TaskRun {
  /** The task's logger (change request and task ids on every line). */
  log: Logger;
  redact: Redactor;
  trajectory: Trajectory;
  budget: TaskBudget;
  /** Attempts, reviews, the model that answered, malformed answers asked again: for the result. */
  state: ToolLoopState;
  /** Runs `fn` as one of the task's timed steps (its duration goes into the result). */
  timed: <T>(step: string, attempt: number, fn: () => Promise<T>) => Promise<T>;
}
