import { farm } from '@farm/proto';
import { commitOnBase, type RemoteBranchCommit } from '@farm/git';
import { errorMessage } from '@farm/runtime';
import type { AgentDeps } from './agent-deps';
import { noteDiscardedByChecks } from './discarded-by-checks';
import { branchFor, claimAndPush, completePushedBranch } from './task-branch';
import { taskCommitMessage } from './task-commit';
import { hardFail, type ChangeReady, type TaskOutcome } from './task-outcome';
import type { TaskRun } from './task-run';
import type { TaskWorkspace } from './task-setup';
import { unifiedTreeDiff } from './tools/tree-diff';
import { netChanges } from './tools/workspace';
import { REPORT_LIMITS } from './trajectory-report';

const F = farm.v1.FailedStep;

/**
 * The change a strategy left in the tree becomes the task's commit on `agt/<task>`: made on the base commit from
 * the change's paths alone (whatever the repository's checks did to HEAD, refs or .git is left out, and said in
 * the notes), its leases claimed, pushed (see claimAndPush). The strategy's notes and lesson go with it.
 */
export async function publishChange(
  task: farm.v1.ICodingTask,
  workspace: TaskWorkspace,
  ready: ChangeReady,
  deps: AgentDeps,
  run: TaskRun,
): Promise<TaskOutcome> {
  const { repoDir: dir, base } = workspace;
  const branch = branchFor(task.id!);
  const attempt = run.observer.attempts;
  const discarded = await noteDiscardedByChecks(dir, base, workspace.startState);
  if (discarded.length) run.log.warn('the checks changed the checkout’s git data; not delivered', { discarded });
  const commit = await run.observer
    .timed('commit', attempt, () =>
      commitOnBase({
        dir,
        base,
        paths: ready.paths,
        branch,
        author: deps.settings.author,
        message: taskCommitMessage(task),
      }),
    )
    .catch((err: unknown) => ({ err }));
  if ('err' in commit) return hardFail(F.STEP_COMMIT, `commit failed: ${errorMessage(commit.err)}`);
  // What the task's branch adds to the base, for the result's report.
  const committed = (await netChanges(dir, base)).filter((c) => ready.paths.includes(c.path));
  const diff = run.redact(await unifiedTreeDiff(dir, base, committed, REPORT_LIMITS.diffChars));
  const delivery = await claimAndPush(
    task,
    { dir, url: task.repo?.url ?? '', branch, commitSha: commit.commit },
    { leases: deps.services.leases, commits: deps.services.commits, log: run.log },
    (step, fn) => run.observer.timed(step, attempt, fn),
  );
  if (delivery.kind === 'failed') return delivery;
  // Which tree the checks passed on: a build of exactly this tree need not run them again.
  const verification = ready.verification && { ...ready.verification, treeSha: commit.tree };
  return {
    ...delivery,
    notes: [...delivery.notes, ...ready.notes, ...discarded],
    diff,
    ...(verification ? { verification } : {}),
    ...(ready.lesson && deps.settings.lessons !== false ? { lesson: ready.lesson } : {}),
  };
}

/** An earlier run of the task pushed `pushed`: its result is emitted again (see completePushedBranch). */
export function republishPushed(
  task: farm.v1.ICodingTask,
  pushed: RemoteBranchCommit,
  deps: AgentDeps,
  run: TaskRun,
): Promise<TaskOutcome> {
  return completePushedBranch(task, task.repo?.url ?? '', branchFor(task.id!), pushed, {
    leases: deps.services.leases,
    commits: deps.services.commits,
    log: run.log,
  });
}
