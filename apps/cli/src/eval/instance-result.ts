/** What a run records of each instance as it finishes: one JSON line of the run's results.jsonl. */
import type { TestGrade } from './grading';

/**
 * resolved / unresolved: the agent's change was judged by the instance's tests. error: the instance could not
 * be set up or judged (repository, environment, tests broken at base): never a failure of the agent.
 * incomplete: the run stopped before the instance ended (cost cap, interrupted): run again to finish it.
 */
export type InstanceStatus = 'resolved' | 'unresolved' | 'error' | 'incomplete';

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
  finishedAt: string;
}

/** Counted in the resolved rate: an instance whose agent was judged. */
export const judged = (r: InstanceResult) => r.status === 'resolved' || r.status === 'unresolved';
