import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { farm } from '@farm/proto';
import { cloneAtCommit, commitAll, pushBranch, remoteBranchSha, PushRejected } from '@farm/git';
import { applyModelEdit, PatchRejected } from '@farm/patch';
import { ModelAnswerInvalid, type PatchModel } from '@farm/llm';
import { FarmError, errorMessage, type Logger } from '@farm/runtime';
import { LeaseLost, type SymbolLeases } from '@farm/srm-client';
import { describeFailure, planChecks, runChecks, type CheckStep } from '@farm/sandbox';
import { buildPrompt } from './prompt';
import { revertFiles } from './work-tree';
import { retrieveContext } from './retrieve-context';
import type { RagApi } from '@farm/rag';
import { agentMetrics } from './metrics';
import { openTrajectory } from './trajectory';

const S = farm.v1.CommitStatus;

export interface AgentDeps {
  model: PatchModel;
  log: Logger;
  /** Where task checkouts are made; each task gets its own temporary directory. */
  workRoot: string;
  /** Attempts after the first (default 2). */
  maxRetries: number;
  checkTimeoutMs: number;
  /** Extra environment for the repo's checks (e.g. npm_config_cache); secrets are still dropped. */
  checkEnv?: Record<string, string>;
  /** Tokens of retrieved context in a prompt, unless the task sets its own budget. */
  contextBudgetTokens: number;
  /** The rag-service; without it the agent indexes its checkout into an embedded index. */
  rag?: RagApi;
  /** Directory for one JSONL trajectory file per task; none written when unset. */
  trajectoryDir?: string;
  author: { name: string; email: string };
  /** The srm, to claim the task's reserved leases after the push (and release them on a HARD_FAIL). */
  leases?: Pick<SymbolLeases, 'claim' | 'release'>;
}

/** Reserved lease ids travel as `<lease id>@<fencing token>`. */
export function parseLeaseRef(ref: string): { id: string; token: string } {
  const at = ref.lastIndexOf('@');
  return at > 0 ? { id: ref.slice(0, at), token: ref.slice(at + 1) } : { id: ref, token: '' };
}

export const branchFor = (taskId: string) => `agt/${taskId}`;

/** A failure that ends the task at once; `step` names where (clone, llm, push, ...). */
class TaskAborted extends FarmError {
  constructor(
    readonly step: string,
    message: string,
    readonly status: farm.v1.CommitStatus = S.HARD_FAIL,
  ) {
    super(message);
  }
}

/**
 * The agent's loop for one task: clone at the base commit, ask the model for a diff, apply it, run the repo's
 * checks, feed failures back (up to maxRetries more attempts), then commit, push agt/<task_id> and report.
 * Never throws for task failures: they become SOFT_FAIL / HARD_FAIL results with notes.
 */
export async function runCodingTask(task: farm.v1.ICodingTask, deps: AgentDeps): Promise<farm.v1.ICommitResult> {
  agentMetrics.inFlight.inc();
  try {
    return await runTaskSteps(task, deps);
  } finally {
    agentMetrics.inFlight.dec();
  }
}

async function runTaskSteps(task: farm.v1.ICodingTask, deps: AgentDeps): Promise<farm.v1.ICommitResult> {
  const log = deps.log.child({ changeRequestId: task.changeRequestId, taskId: task.id });
  const branch = branchFor(task.id!);
  const url = task.repo?.url ?? '';
  const durations: farm.v1.IStepDuration[] = [];
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let attempts = 0;
  const timed = async <T>(step: string, attempt: number, fn: () => Promise<T>): Promise<T> => {
    const start = process.hrtime.bigint();
    try {
      return await fn();
    } finally {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      durations.push({ step, attempt, seconds });
      agentMetrics.stepSeconds.observe({ step }, seconds);
    }
  };
  const trajectory = openTrajectory(deps.trajectoryDir, task.id!, task.dispatch ?? 1);
  const result = (status: farm.v1.CommitStatus, fields: Partial<farm.v1.ICommitResult>): farm.v1.ICommitResult => {
    agentMetrics.tasks.inc({ status: S[status] });
    agentMetrics.attempts.observe(attempts);
    trajectory.record('result', { status: S[status], ...fields });
    return {
      taskId: task.id,
      changeRequestId: task.changeRequestId,
      dispatch: task.dispatch,
      status,
      attempts,
      tokenUsage: usage,
      stepDurations: durations,
      ...fields,
    };
  };

  // Idempotent by task id: a task redelivered after its push reports the pushed commit again.
  const existing = await remoteBranchSha(url, branch).catch(() => undefined);
  if (existing) {
    log.info('branch already pushed; re-emitting result', { branch, sha: existing });
    return result(S.SUCCESS, {
      commitSha: existing,
      branchName: branch,
      notes: ['branch already pushed; result re-emitted'],
    });
  }

  await mkdir(deps.workRoot, { recursive: true });
  const workDir = await mkdtemp(path.join(deps.workRoot, `${task.id}-`));
  const repoDir = path.join(workDir, 'repo');
  try {
    await timed('clone', 0, () =>
      cloneAtCommit({ url, ref: task.repo?.baseRef || 'main', commit: task.repo?.baseCommit ?? '', dir: repoDir }),
    ).catch((err) => {
      throw new TaskAborted('clone', `clone failed: ${errorMessage(err)}`);
    });
    const context = await timed('retrieve', 0, () =>
      retrieveContext(task, repoDir, {
        rag: deps.rag,
        budgetTokens: task.contextBudgetTokens || deps.contextBudgetTokens,
        log,
      }),
    );
    trajectory.record('context', { shown: context.shown, omitted: context.omitted, tokens: context.usedTokens });
    // The task's command wins; else the repo's .farm/checks.json; else what its toolchain implies.
    const plan = task.checkCommand
      ? { steps: [{ name: 'check', run: task.checkCommand }] as CheckStep[], maxRetries: undefined, skipped: [] }
      : planChecks(repoDir);
    trajectory.record('checks', { steps: plan.steps, skipped: plan.skipped });
    const feedback: string[] = [];
    const maxAttempts = 1 + (task.maxRetries || plan.maxRetries || deps.maxRetries);

    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      attempts = attempt;
      const messages = buildPrompt(task, context, feedback);
      trajectory.record('prompt', { attempt, messages });
      let diff: string;
      try {
        const answer = await timed('llm', attempt, () => deps.model.proposePatch(messages));
        usage.promptTokens += answer.usage.promptTokens;
        usage.completionTokens += answer.usage.completionTokens;
        usage.totalTokens += answer.usage.totalTokens;
        agentMetrics.tokens.inc({ kind: 'prompt', model: answer.model }, answer.usage.promptTokens);
        agentMetrics.tokens.inc({ kind: 'completion', model: answer.model }, answer.usage.completionTokens);
        diff = answer.diff;
      } catch (err) {
        if (!(err instanceof ModelAnswerInvalid))
          throw new TaskAborted('llm', `model unavailable: ${errorMessage(err)}`);
        feedback.splice(0, feedback.length, `Your answer was not the JSON object asked for: ${err.message}`);
        log.warn('invalid model answer', { attempt, err });
        continue;
      }

      trajectory.record('answer', { attempt, diff });
      let applied: Awaited<ReturnType<typeof applyModelEdit>>;
      try {
        applied = await timed('apply', attempt, () => applyModelEdit(repoDir, diff));
      } catch (err) {
        if (!(err instanceof PatchRejected)) throw err;
        agentMetrics.patches.inc({ result: 'rejected' });
        feedback.splice(0, feedback.length, `The diff was rejected and nothing was applied: ${err.message}`);
        trajectory.record('rejected', { attempt, reason: err.message });
        log.warn('patch rejected', { attempt, reason: err.message });
        continue;
      }

      if (plan.steps.length) {
        const checks = await timed('check', attempt, () =>
          runChecks(repoDir, plan.steps, {
            defaultTimeoutSeconds: Math.round(deps.checkTimeoutMs / 1000),
            env: deps.checkEnv,
            log,
          }),
        );
        trajectory.record('check', { attempt, ok: checks.ok, steps: checks.steps, isolation: checks.isolation });
        if (!checks.ok) {
          agentMetrics.patches.inc({ result: 'check_failed' });
          const denied = checks.failed?.denied;
          if (denied) throw new TaskAborted('check', `sandbox refused \`${checks.failed!.run}\`: ${denied.reason}`);
          feedback.splice(0, feedback.length, `The diff applied, but a check failed. ${describeFailure(checks)}`);
          log.warn('self-check failed', { attempt, step: checks.failed?.name, exitCode: checks.failed?.exitCode });
          await revertFiles(repoDir, applied.files);
          continue;
        }
      }
      agentMetrics.patches.inc({ result: 'applied' });

      const commitSha = await timed('commit', attempt, () =>
        commitAll({
          dir: repoDir,
          paths: applied.files.map((f) => f.path),
          branch,
          author: deps.author,
          message: `${kindWord(task.kind)}(${task.id}): ${firstLine(task.goal)}\n\n[agent:${task.id}]`,
        }),
      ).catch((err) => {
        throw new TaskAborted('commit', `commit failed: ${errorMessage(err)}`);
      });
      try {
        await timed('push', attempt, () => pushBranch({ dir: repoDir, url, branch }));
      } catch (err) {
        // Another agent with the same task pushed first: its branch is the result.
        const theirs =
          err instanceof PushRejected ? await remoteBranchSha(url, branch).catch(() => undefined) : undefined;
        if (theirs)
          return result(S.SUCCESS, {
            commitSha: theirs,
            branchName: branch,
            notes: ['branch pushed by another agent'],
          });
        throw new TaskAborted('push', `push failed: ${errorMessage(err)}`);
      }
      await timed('claim', attempt, () => claimLeases(task, commitSha, deps)).catch((err) => {
        throw new TaskAborted(
          'claim',
          err instanceof LeaseLost ? `lease lost: ${err.message}` : `claiming leases failed: ${errorMessage(err)}`,
        );
      });
      log.info('task succeeded', { attempt, branch, commitSha });
      return result(S.SUCCESS, {
        commitSha,
        branchName: branch,
        notes: applied.fuzzy ? ['patch applied by context (line numbers were off)'] : [],
      });
    }
    return result(S.SOFT_FAIL, {
      failedStep: 'attempts',
      notes: [`no passing patch after ${attempts} attempt(s)`, feedback.join('\n').slice(0, 2000)],
    });
  } catch (err) {
    if (err instanceof TaskAborted) {
      log.error('task aborted', { step: err.step, err });
      await releaseLeases(task, deps, log);
      return result(err.status, { failedStep: err.step, notes: [err.message] });
    }
    log.error('task crashed', { err });
    return result(S.HARD_FAIL, { failedStep: 'agent', notes: [`agent error: ${errorMessage(err)}`] });
  } finally {
    await trajectory.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function claimLeases(task: farm.v1.ICodingTask, commitSha: string, deps: AgentDeps): Promise<void> {
  if (!deps.leases) return;
  for (const ref of task.reservedLeaseIds ?? []) {
    const { id, token } = parseLeaseRef(ref);
    await deps.leases.claim(id, token, commitSha);
  }
}

/** Giving up: free the task's symbols for others (best effort; the orchestrator releases them too). */
async function releaseLeases(task: farm.v1.ICodingTask, deps: AgentDeps, log: Logger): Promise<void> {
  for (const ref of task.reservedLeaseIds ?? []) {
    const { id, token } = parseLeaseRef(ref);
    await deps.leases
      ?.release(id, token || undefined)
      .catch((err) => log.warn('lease release failed', { leaseId: id, err }));
  }
}

const firstLine = (s?: string | null) => (s ?? '').split('\n')[0].slice(0, 72);
const KIND_WORDS: Record<number, string> = {
  [farm.v1.TaskKind.FIX]: 'fix',
  [farm.v1.TaskKind.REFACTOR]: 'refactor',
  [farm.v1.TaskKind.TEST]: 'test',
  [farm.v1.TaskKind.DOCS]: 'docs',
};
const kindWord = (k?: farm.v1.TaskKind | null) => KIND_WORDS[k ?? 0] ?? 'feat';
