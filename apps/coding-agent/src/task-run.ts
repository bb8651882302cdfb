import type { Logger, Redactor } from '@farm/runtime';
import type { TaskObserver } from './task-observer';

/** What every step of one task works with: its log, the redaction of secrets, and its observer. */
export interface TaskRun {
  /** The task's logger (change request and task ids on every line). */
  log: Logger;
  redact: Redactor;
  /** Metrics, trajectory, step timing, and what the task used against its budget. */
  observer: TaskObserver;
}
