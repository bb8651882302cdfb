import { farm } from '@farm/proto';

const P = farm.v1.Phase;
const T = farm.v1.TaskState;
type Phase = farm.v1.Phase;
type TaskState = farm.v1.TaskState;

/** The moves a change request may make; anything else is a bug or a stale event and is refused. */
const ALLOWED: Record<number, Phase[]> = {
  [P.PHASE_UNSPECIFIED]: [P.RECEIVED],
  [P.RECEIVED]: [P.PLANNING, P.FAILED, P.CANCELLED],
  [P.PLANNING]: [P.CODING, P.AWAITING_APPROVAL, P.FAILED, P.CANCELLED],
  [P.AWAITING_APPROVAL]: [P.CODING, P.FAILED, P.CANCELLED],
  [P.CODING]: [P.BUILD, P.FAILED, P.CANCELLED],
  [P.BUILD]: [P.DONE, P.FAILED, P.CANCELLED],
};

export function canMove(from: Phase, to: Phase): boolean {
  return (ALLOWED[from] ?? []).includes(to);
}

export function parsePhase(name: string): Phase {
  const v = (P as unknown as Record<string, number>)[name];
  if (v === undefined) throw new Error(`unknown phase ${name}`);
  return v;
}

/**
 * Where CODING goes once results come in: BUILD when every task succeeded, FAILED as soon as one failed for
 * good (a SOFT_FAIL that will be re-dispatched is PENDING again by then).
 */
export function codingOutcome(statuses: TaskState[]): 'BUILD' | 'FAILED' | 'WAIT' {
  if (statuses.some((s) => s === T.TASK_SOFT_FAIL || s === T.TASK_HARD_FAIL)) return 'FAILED';
  if (statuses.length > 0 && statuses.every((s) => s === T.TASK_SUCCESS)) return 'BUILD';
  return 'WAIT';
}

export interface SchedulableTask {
  id: string;
  status: TaskState;
  dependsOn: string[];
}

/**
 * Tasks to start now: PENDING ones whose dependencies all succeeded, in id order, without exceeding
 * `parallelism` tasks running at once.
 */
export function readyTasks(tasks: SchedulableTask[], parallelism: number): string[] {
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  const running = tasks.filter((t) => t.status === T.TASK_DISPATCHED).length;
  const free = Math.max(0, parallelism - running);
  return tasks
    .filter(
      (t) =>
        t.status === T.TASK_PENDING && t.dependsOn.every((d) => status.get(d) === T.TASK_SUCCESS || !status.has(d)),
    )
    .map((t) => t.id)
    .sort()
    .slice(0, free);
}
