import { farm } from '@farm/proto';

const S = farm.v1.CommitStatus;

/** The task's commit is on `agt/<task>` with its leases claimed: SUCCESS. */
export interface TaskDelivered {
  kind: 'delivered';
  commitSha: string;
  notes: string[];
  lesson?: farm.v1.ILesson;
  /** The committed change as a unified diff, redacted (for the result's report). */
  diff?: string;
  verification?: farm.v1.IVerification;
}

/**
 * The task ends without a commit to report: SOFT_FAIL (the orchestrator may dispatch it again) or HARD_FAIL,
 * with the step that ended it and why. `notes` follow the reason in the result.
 */
export interface TaskFailed {
  kind: 'failed';
  status: farm.v1.CommitStatus.SOFT_FAIL | farm.v1.CommitStatus.HARD_FAIL;
  failedStep: farm.v1.FailedStep;
  reason: string;
  notes?: string[];
  /** Set when the change was checked but not verified (STEP_VERIFY). */
  verification?: farm.v1.IVerification;
}

/** Every way a task ends; each step returns one (or hands over to the next step), none throws to say so. */
export type TaskOutcome = TaskDelivered | TaskFailed;

/** What a strategy hands over when the tree holds a change that passed the checks: the paths to commit. */
export interface ChangeReady {
  kind: 'ready';
  paths: string[];
  notes: string[];
  lesson?: farm.v1.ILesson;
  /** What verified the change: the checks and the differential of its tests. */
  verification?: farm.v1.IVerification;
}

/** How a strategy ends: a change ready to commit, or the task's failure. */
export type StrategyOutcome = ChangeReady | TaskFailed;

export const softFail = (failedStep: farm.v1.FailedStep, reason: string, notes: string[] = []): TaskFailed => ({
  kind: 'failed',
  status: S.SOFT_FAIL,
  failedStep,
  reason,
  notes,
});

export const hardFail = (failedStep: farm.v1.FailedStep, reason: string): TaskFailed => ({
  kind: 'failed',
  status: S.HARD_FAIL,
  failedStep,
  reason,
});
