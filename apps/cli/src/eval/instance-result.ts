/** What a run records of each instance as it finishes: one JSON line of the run's results.jsonl. */
import type { TestGrade } from './grading';
import type { LogParserName } from './instances';

/**
 * resolved / unresolved: the agent's change was judged by the instance's tests. error: the instance itself
 * cannot judge an agent (its repository or base commit, its test patch, tests broken at base, a field past the
 * farm's bounds): never a failure of the agent, and the same on every run. infra_error: the farm or the
 * environment failed the run (the model server unreachable, the sandbox not ready, a set-up that failed or timed
 * out, the network): no verdict on the agent either, and run again by the next run of the same id. incomplete:
 * the run stopped before the instance ended (cost cap, interrupted, past its timeout): run again to finish it.
 */
export type InstanceStatus = 'resolved' | 'unresolved' | 'error' | 'infra_error' | 'incomplete';

export const INSTANCE_STATUSES: readonly InstanceStatus[] = [
  'resolved',
  'unresolved',
  'error',
  'infra_error',
  'incomplete',
];

/** A command of the instance's that ran in the sandbox, its whole output kept in a file of the run's directory. */
export interface CommandRun {
  command: string;
  /** The output, relative to the run's directory. */
  log: string;
  exitCode: number | null;
  timedOut: boolean;
  durationS: number;
}

/** A run of the instance's tests: the log a verdict was graded from, and how to read it again. */
export interface TestRun extends CommandRun {
  parser: LogParserName;
}

export interface InstanceResult {
  instance_id: string;
  status: InstanceStatus;
  reason: string;
  model_name_or_path: string;
  /** The farm's change against base_commit (empty when it delivered none). */
  model_patch: string;
  changeRequestId?: string;
  /** The farm's final phase for the request. */
  phase?: string;
  costUsd: number;
  tokens: { prompt: number; completion: number; total: number };
  /** From submitting the instance to its final phase, and then scoring it. */
  wallTimeS: number;
  scoringTimeS: number;
  /**
   * Where the wall time went: the set-up check at the base, the farm (submit to final phase), getting its
   * branch, scoring; and of those, the instance's test runs in the sandbox (at the base, then on the change).
   */
  stageTimesS?: { setup: number; farm: number; branch: number; scoring: number; tests: number };
  /** Model calls of all the request's agents (the planner's excluded). */
  modelCalls: number;
  /** Agent attempts (diff strategy) or finishes (tool loop), over every dispatch. */
  turns: number;
  dispatches: number;
  /** How the agents' edits were located (`exact`, `whitespace`, ...), counted. */
  editTiers: Record<string, number>;
  /** The task's own verification (its tests on the base and the branch), as the farm reported it. */
  verification?: Record<string, unknown>;
  tests?: TestGrade;
  /**
   * The commands whose output a verdict was graded from: the environment's set-up, the tests at the base (the
   * set-up check), the tests on the change (the verdict).
   */
  testRuns?: { setup?: CommandRun; base?: TestRun; change?: TestRun };
  /** Which try of the instance in its run this is: a run again after the farm failed it submits a new request. */
  attempt?: number;
  finishedAt: string;
}

/** Counted in the resolved rate: an instance whose agent was judged. */
export const judged = (r: InstanceResult) => r.status === 'resolved' || r.status === 'unresolved';

/** Run again by the next run of the same id: no verdict was reached. */
export const toRunAgain = (r: InstanceResult | undefined) =>
  !r || r.status === 'incomplete' || r.status === 'infra_error';
