import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { farm } from '@farm/proto';
import { cloneAtCommit, readRepoState, type RemoteBranchCommit, type RepoState } from '@farm/git';
import { FarmError, errorMessage } from '@farm/runtime';
import {
  checkPlanFor,
  confinementStatus,
  describeStatus,
  firstUnrunnableStep,
  ProbeTimedOut,
  SandboxRunnerUnavailable,
  type CheckPlan,
  type ConfinementStatus,
} from '@farm/sandbox';
import type { AgentDeps } from './agent-deps';
import { retrieveContext, type RetrievedContext } from './retrieve-context';
import { branchFor, pushedCommit } from './task-branch';
import { hardFail, softFail, type TaskFailed } from './task-outcome';
import { noTestsRefusal } from './verify-change';
import type { TaskRun } from './task-run';

const F = farm.v1.FailedStep;

/** A checkout of the task's base commit, what retrieval found for its goal, and the checks its change must pass. */
export interface TaskWorkspace {
  repoDir: string;
  /**
   * The commit the task starts from. The repository's checks can move HEAD and rewrite .git: the change is
   * measured against this commit and committed on it, never on what HEAD says then.
   */
  base: string;
  /** The checkout's git data before any of the repository's commands ran (to say what they changed). */
  startState: RepoState;
  context: RetrievedContext;
  plan: CheckPlan;
}

/** Where a task stands before any work: ready to work, already pushed by an earlier run, or failed. */
export type TaskSetup =
  { kind: 'workspace'; workspace: TaskWorkspace } | { kind: 'pushed'; commit: RemoteBranchCommit } | TaskFailed;

/** Runs `fn` in a fresh directory under `root` for one task, removed afterwards whatever happens. */
export async function withWorkDir<T>(root: string, taskId: string, fn: (dir: string) => Promise<T>): Promise<T> {
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(path.join(root, `${taskId}-`));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How long a task waits for a sandbox probe that keeps running out of time before it is handed back. */
const PROBE_WAIT_MS = 10 * 60_000;

/** The sandbox's answer, waited for while its probe runs out of time (a busy machine is no verdict). */
async function answeredConfinement(run: TaskRun): Promise<ConfinementStatus> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await confinementStatus();
    } catch (err) {
      if (!(err instanceof ProbeTimedOut) || Date.now() - started >= PROBE_WAIT_MS) throw err;
      run.log.warn('the sandbox probe timed out: the machine is busy; probing again', {
        attempt,
        probe: err.command,
        waitedMs: Date.now() - started,
      });
      await new Promise((r) => setTimeout(r, Math.min(5_000 * attempt, 30_000)));
    }
  }
}

/**
 * The task's starting point. Refused where the sandbox cannot confine the repository's commands (unless the
 * operator accepted that). Idempotent by task id: a commit already on `agt/<task>` is handed to the publish
 * step, not redone. Otherwise: clone at the base commit, retrieve context for the goal, plan the checks.
 */
export async function setUpTask(
  task: farm.v1.ICodingTask,
  workDir: string,
  deps: AgentDeps,
  run: TaskRun,
): Promise<TaskSetup> {
  // Fail closed before spending anything: the task's checks would run without a guarantee nobody gave up
  // (here, or in the pod's sandbox runner, which must answer). Asked beside the look for an earlier run's push:
  // a task already pushed runs nothing in the sandbox and does not wait for the answer.
  const confinement = answeredConfinement(run).then(
    (status) => ({ status }),
    (err: unknown) => ({ err }),
  );
  const url = task.repo?.url ?? '';
  const pushed = await pushedCommit(url, branchFor(task.id!), run.log);
  if (pushed) return { kind: 'pushed', commit: pushed };
  const answer = await confinement;
  if ('err' in answer) {
    const { err } = answer;
    if (err instanceof SandboxRunnerUnavailable) return hardFail(F.STEP_CHECK, errorMessage(err));
    // Still no answer: the machine is busy, not unable; another dispatch (perhaps elsewhere) tries again.
    if (err instanceof ProbeTimedOut)
      return softFail(F.STEP_CHECK, `${errorMessage(err)}; waited ${PROBE_WAIT_MS / 60_000} min for it`);
    throw err;
  }
  const { status } = answer;
  const { missing, isolation } = status;
  if (missing.length) return hardFail(F.STEP_CHECK, describeStatus(status));

  const repoDir = path.join(workDir, 'repo');
  const cloned = await run.observer
    .timed('clone', 0, () =>
      cloneAtCommit({ url, ref: task.repo?.baseRef || 'main', commit: task.repo?.baseCommit ?? '', dir: repoDir }),
    )
    .then(
      ({ commit }) => ({ commit }),
      (err: unknown) => ({ err }),
    );
  if ('err' in cloned) {
    // Network or server trouble outlasting the clone's own retries: another dispatch tries again; a missing
    // ref or commit is final.
    const reason = `clone failed: ${errorMessage(cloned.err)}`;
    return cloned.err instanceof FarmError && cloned.err.retryable
      ? softFail(F.STEP_CLONE, reason)
      : hardFail(F.STEP_CLONE, reason);
  }
  const startState = await readRepoState(repoDir);
  const context = await run.observer.timed('retrieve', 0, () =>
    retrieveContext(task, repoDir, {
      rag: deps.services.rag,
      indexCacheDir: path.join(deps.settings.workRoot, 'rag-index'),
      budgetTokens: task.contextBudgetTokens || deps.settings.contextBudgetTokens,
      log: run.log,
    }),
  );
  run.observer.record('context', { shown: context.shown, omitted: context.omitted, tokens: context.usedTokens });
  const plan = checkPlanFor(repoDir, task.checkCommand);
  // A check whose program cannot start in the sandbox fails whatever the model does: say so before it works.
  const checkPath = deps.settings.checkEnv?.PATH ?? process.env.PATH ?? '';
  const unrunnable = await firstUnrunnableStep(plan.steps, checkPath, isolation.filesystem === 'checkout-only');
  if (unrunnable) return hardFail(F.STEP_CHECK, `the check "${unrunnable.name}" cannot run: ${unrunnable.reason}`);
  // A behaviour goal that no test could ever verify ends here, before the model is paid for.
  const untestable = noTestsRefusal(task.kind, plan, deps.settings.unverifiedChanges ?? 'review');
  if (untestable) return hardFail(F.STEP_VERIFY, untestable);
  return { kind: 'workspace', workspace: { repoDir, base: cloned.commit, startState, context, plan } };
}
