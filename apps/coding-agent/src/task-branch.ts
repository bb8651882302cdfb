import { farm } from '@farm/proto';
import {
  deleteRemoteBranch,
  pushBranch,
  PushRejected,
  readRemoteBranchCommit,
  type RemoteBranchCommit,
} from '@farm/git';
import { FarmError, errorMessage, type Logger } from '@farm/runtime';
import { LeaseLost, LeaseNotFound, type SymbolLeases, type TaskCommits } from '@farm/srm-client';
import { commitOwner } from './task-commit';
import { hardFail, softFail, type TaskDelivered, type TaskFailed } from './task-outcome';

const F = farm.v1.FailedStep;
const S = farm.v1.CommitStatus;

/** The branch a task's commit is pushed to. */
export const branchFor = (taskId: string) => `agt/${taskId}`;

/**
 * How a task's commit ended up on `agt/<task>`: delivered (on the branch, its leases claimed), or failed with
 * the step and why. A failed delivery never leaves a branch that looks finished.
 */
export type Delivery = TaskDelivered | TaskFailed;

export interface BranchDeps {
  leases?: Pick<SymbolLeases, 'claim' | 'release'>;
  /** The farm's record of its commits: written before each push, asked before adopting a commit found. */
  commits?: TaskCommits;
  log: Logger;
}

/** The tip of the task's branch before the agent does any work; undefined when there is none yet. */
export async function pushedCommit(url: string, branch: string, log: Logger): Promise<RemoteBranchCommit | undefined> {
  try {
    return await readRemoteBranchCommit(url, branch);
  } catch (err) {
    // The push will find out for sure: it is refused when the branch exists.
    log.warn('could not read the task branch; going on as if it did not exist', { branch, err });
    return undefined;
  }
}

/**
 * A branch that existed when the task started. The task's own commit (an earlier dispatch pushed it and then
 * died, or this task was redelivered after its push) is completed: its leases are claimed and it is the result,
 * without redoing the work. Anything else is refused; it is neither adopted nor overwritten.
 */
export async function completePushedBranch(
  task: farm.v1.ICodingTask,
  url: string,
  branch: string,
  pushed: RemoteBranchCommit,
  deps: BranchDeps,
): Promise<Delivery> {
  const owner = await ownCommit(task, pushed, deps);
  if (owner.kind === 'failed') return owner;
  if (owner.kind === 'foreign') return foreignBranch(branch, pushed.sha, owner.reason);
  const claim = await claimOrRetract(task, url, branch, pushed.sha, deps);
  if (claim) return claim;
  deps.log.info('task branch already holds this task’s commit; completed without redoing the work', {
    branch,
    commitSha: pushed.sha,
    pushedByDispatch: owner.dispatch,
  });
  return {
    kind: 'delivered',
    commitSha: pushed.sha,
    notes: [`${branch} already held this task's commit from dispatch ${owner.dispatch}; completed without redoing it`],
  };
}

/**
 * Records `commitSha` as this dispatch's commit, claims the task's leases for it, then pushes it. Recording first
 * means a commit of the farm's on the branch is always recorded (see ownCommit). Claiming before the push means a branch on the remote always
 * has its leases claimed: a refused claim (stale fencing token) pushes nothing, and an agent that dies between
 * the claim and the push leaves only the claim, which the next dispatch repeats with the same token. When the
 * push is refused because the branch exists, its tip decides: this task's commit (another agent of the task
 * pushed first) is the result, claimed for that commit; anything else is refused.
 */
export async function claimAndPush(
  task: farm.v1.ICodingTask,
  opts: { dir: string; url: string; branch: string; commitSha: string },
  deps: BranchDeps,
  timed: <T>(step: string, fn: () => Promise<T>) => Promise<T>,
): Promise<Delivery> {
  const { dir, url, branch, commitSha } = opts;
  const refused = await timed(
    'claim',
    async () => (await recordCommit(task, commitSha, deps)) ?? claimLeases(task, commitSha, deps),
  );
  if (refused) return refused;
  try {
    await timed('push', () => pushBranch({ dir, url, branch }));
    return { kind: 'delivered', commitSha, notes: [] };
  } catch (err) {
    const theirs =
      err instanceof PushRejected ? await readRemoteBranchCommit(url, branch).catch(() => undefined) : undefined;
    if (!theirs) {
      // The host could not take it now (timeout, 5xx): another dispatch pushes again; a refusal is final.
      const reason = `push failed: ${errorMessage(err)}`;
      return failedBy(F.STEP_PUSH, reason, err);
    }
    const owner = await ownCommit(task, theirs, deps);
    if (owner.kind === 'failed') return owner;
    if (owner.kind === 'foreign') return foreignBranch(branch, theirs.sha, owner.reason);
    const claim = await timed('claim', () => claimOrRetract(task, url, branch, theirs.sha, deps));
    if (claim) return claim;
    deps.log.info('another agent of this task pushed first; its commit is the result', {
      branch,
      commitSha: theirs.sha,
    });
    return {
      kind: 'delivered',
      commitSha: theirs.sha,
      notes: [`another agent of this task (dispatch ${owner.dispatch}) pushed first; its commit is the result`],
    };
  }
}

type Ownership = { kind: 'this-task'; dispatch: number } | { kind: 'foreign'; reason: string } | TaskFailed;

/**
 * Whether a commit found on the task's branch is this task's own: its trailers name the task, and the farm
 * recorded it before an earlier dispatch pushed it. Trailers alone are refused: anyone who may push can type them.
 * An srm that cannot answer now is a SOFT_FAIL (the next dispatch asks again), never an adoption.
 */
async function ownCommit(task: farm.v1.ICodingTask, commit: RemoteBranchCommit, deps: BranchDeps): Promise<Ownership> {
  const owner = commitOwner(task, commit.message);
  if (owner.kind === 'foreign') return owner;
  if (!deps.commits) {
    return { kind: 'foreign', reason: 'no srm (FARM_SRM_URL) holds the record of the farm’s commits to confirm it' };
  }
  try {
    const record = await deps.commits.findCommit({
      taskId: task.id ?? '',
      changeRequestId: task.changeRequestId ?? '',
      commitSha: commit.sha,
    });
    if (record) return { kind: 'this-task', dispatch: record.dispatch };
  } catch (err) {
    const reason = `could not ask the srm whether ${commit.sha.slice(0, 12)} is this task's: ${errorMessage(err)}`;
    return failedBy(F.STEP_BRANCH, reason, err);
  }
  return {
    kind: 'foreign',
    reason:
      `its trailers name dispatch ${owner.dispatch} of this task, but the farm has no record of making it ` +
      '(trailers are text anyone who may push can write)',
  };
}

/** Writes the farm's record of the commit before it is pushed; a failure pushes nothing. */
async function recordCommit(
  task: farm.v1.ICodingTask,
  commitSha: string,
  deps: BranchDeps,
): Promise<TaskFailed | undefined> {
  if (!deps.commits) return undefined;
  try {
    await deps.commits.recordCommit({
      taskId: task.id ?? '',
      changeRequestId: task.changeRequestId ?? '',
      commitSha,
      dispatch: task.dispatch ?? 0,
    });
    return undefined;
  } catch (err) {
    const reason = `recording the commit failed: ${errorMessage(err)}`;
    return failedBy(F.STEP_CLAIM, reason, err);
  }
}

function foreignBranch(branch: string, sha: string, reason: string): TaskFailed {
  return hardFail(
    F.STEP_BRANCH,
    `${branch} holds commit ${sha.slice(0, 12)}, which this task did not make (${reason}); ` +
      'it is neither adopted nor overwritten: remove the branch, then submit the request again',
  );
}

/**
 * Claims the leases for a commit already on the branch; when the srm refuses the claim, the branch is deleted
 * (only while it still holds that commit) so that nothing looks finished without its leases.
 */
async function claimOrRetract(
  task: farm.v1.ICodingTask,
  url: string,
  branch: string,
  sha: string,
  deps: BranchDeps,
): Promise<TaskFailed | undefined> {
  const refused = await claimLeases(task, sha, deps);
  if (!refused || refused.status !== S.HARD_FAIL) return refused;
  const deleted = await deleteRemoteBranch(url, branch, sha).catch((err) => {
    deps.log.error('could not delete the task branch after a refused claim', { branch, commitSha: sha, err });
    return false;
  });
  return {
    ...refused,
    reason: `${refused.reason}; ${deleted ? `${branch} deleted` : `${branch} could not be deleted`}`,
  };
}

/** Claims every reserved lease of the task for `commitSha`; undefined when all are claimed. */
async function claimLeases(
  task: farm.v1.ICodingTask,
  commitSha: string,
  deps: BranchDeps,
): Promise<TaskFailed | undefined> {
  if (!deps.leases) return undefined;
  for (const lease of task.reservedLeases ?? []) {
    try {
      await deps.leases.claim(lease.id!, lease.fencingToken!, commitSha);
    } catch (err) {
      // Refused for good (stale token, released, expired, unknown): the task must not count as done.
      if (err instanceof LeaseLost || err instanceof LeaseNotFound) {
        return hardFail(F.STEP_CLAIM, `lease lost: ${err.message}`);
      }
      // The srm could not answer: another dispatch can claim with the same token later.
      const reason = `claiming leases failed: ${errorMessage(err)}`;
      return failedBy(F.STEP_CLAIM, reason, err);
    }
  }
  return undefined;
}

/** Giving up: free the task's symbols for others (best effort; the orchestrator releases them too). */
export async function releaseLeases(task: farm.v1.ICodingTask, deps: BranchDeps): Promise<void> {
  for (const lease of task.reservedLeases ?? []) {
    await deps.leases
      ?.release(lease.id!, lease.fencingToken || undefined)
      .catch((err) => deps.log.warn('lease release failed', { leaseId: lease.id, err }));
  }
}

/** A step that failed with `err`: SOFT_FAIL (another dispatch tries again) when the error may pass, else HARD_FAIL. */
function failedBy(step: farm.v1.FailedStep, reason: string, err: unknown): TaskFailed {
  return err instanceof FarmError && err.retryable ? softFail(step, reason) : hardFail(step, reason);
}
