import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { failedStepName, farm } from '@farm/proto';
import { cloneAtCommit, commitAll } from '@farm/git';
import { applyModelEdit, PatchRejected } from '@farm/patch';
import { ModelAnswerInvalid } from '@farm/llm';
import { errorMessage, type Logger } from '@farm/runtime';
import { describeFailure, planChecks, runChecks, type CheckStep, type CheckPlan } from '@farm/sandbox';
import { buildPrompt } from './prompt';
import { revertFiles } from './work-tree';
import { retrieveContext } from './retrieve-context';
import { agentMetrics } from './metrics';
import { openTrajectory, type Trajectory } from './trajectory';
import { costOfCall, DEFAULT_MODEL_PRICES } from './model-prices';
import { DEFAULT_BUDGET, TaskBudget } from './task-budget';
import { runToolLoop, type ToolLoopState } from './tool-loop';
import { AgentToolBox } from './tools/agent-tools';
import { secretRedactor, type Redactor } from './tools/redact-secrets';
import { lessonFromTask } from './lessons-prompt';
import type { AgentDeps } from './agent-deps';
import type { RetrievedContext } from './retrieve-context';
import { claimAndPush, completePushedBranch, pushedCommit } from './task-branch';
import { taskCommitMessage } from './task-commit';
import { hardFail, softFail, type StrategyOutcome, type TaskOutcome } from './task-outcome';

const S = farm.v1.CommitStatus;
const Strategy = farm.v1.AgentStrategy;
const F = farm.v1.FailedStep;

export const branchFor = (taskId: string) => `agt/${taskId}`;

/**
 * One task: clone at the base commit, then either the tool loop (explore and edit with tools, finish only with
 * passing checks and the reviewer's approval) or the diff strategy (one diff per attempt, checks, failures fed
 * back), within the task's step/token/cost budget; then commit the net change, push agt/<task_id> and report.
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
  const { services, settings } = deps;
  const log = services.log.child({ changeRequestId: task.changeRequestId, taskId: task.id });
  const branch = branchFor(task.id!);
  const url = task.repo?.url ?? '';
  const durations: farm.v1.IStepDuration[] = [];
  let attempts = 0;
  const budget = new TaskBudget({ ...DEFAULT_BUDGET, ...settings.budget });
  const state: ToolLoopState = { attempts: 0, reviews: [], model: '', malformedRetries: 0 };
  let strategy = chooseStrategy(task, deps);
  const redact = secretRedactor(settings.secrets ?? []);
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
  const trajectory = openTrajectory(settings.trajectoryDir, task.id!, task.dispatch ?? 1, redact);
  const result = (outcome: TaskOutcome): farm.v1.ICommitResult => {
    if (strategy === 'tools') attempts = state.attempts;
    const status = outcome.kind === 'delivered' ? S.SUCCESS : outcome.status;
    const fields: Partial<farm.v1.ICommitResult> =
      outcome.kind === 'delivered'
        ? {
            commitSha: outcome.commitSha,
            branchName: branch,
            notes: outcome.notes,
            ...(outcome.lesson ? { lesson: outcome.lesson } : {}),
          }
        : { failedStep: outcome.failedStep, notes: [outcome.reason, ...(outcome.notes ?? [])] };
    agentMetrics.tasks.inc({ status: S[status] });
    agentMetrics.attempts.observe(attempts);
    const full: farm.v1.ICommitResult = {
      taskId: task.id,
      changeRequestId: task.changeRequestId,
      dispatch: task.dispatch,
      status,
      attempts,
      tokenUsage: { ...budget.usage },
      stepDurations: durations,
      costUsd: budget.costUsd,
      model: state.model,
      steps: budget.steps,
      strategy: strategy === 'tools' ? Strategy.TOOLS : Strategy.DIFF,
      reviews: state.reviews,
      ...fields,
      notes: [
        ...(fields.notes ?? []),
        ...(state.malformedRetries ? [`model answer malformed, retried ${state.malformedRetries}x`] : []),
      ].map(redact),
    };
    trajectory.record('result', {
      status: S[status],
      ...fields,
      ...(fields.failedStep ? { failedStep: failedStepName(fields.failedStep) } : {}),
      costUsd: full.costUsd,
      steps: full.steps,
      tokens: full.tokenUsage,
      attempts,
    });
    return full;
  };

  await mkdir(settings.workRoot, { recursive: true });
  const workDir = await mkdtemp(path.join(settings.workRoot, `${task.id}-`));
  const repoDir = path.join(workDir, 'repo');
  const branchDeps = { leases: services.leases, log };

  const steps = async (): Promise<TaskOutcome> => {
    // Idempotent by task id: the task's own commit already on its branch is completed, not redone.
    const pushed = await pushedCommit(url, branch, log);
    if (pushed) return completePushedBranch(task, url, branch, pushed, branchDeps);

    const cloneError = await timed('clone', 0, () =>
      cloneAtCommit({ url, ref: task.repo?.baseRef || 'main', commit: task.repo?.baseCommit ?? '', dir: repoDir }),
    ).then(
      () => undefined,
      (err: unknown) => err,
    );
    if (cloneError) return hardFail(F.STEP_CLONE, `clone failed: ${errorMessage(cloneError)}`);
    const context = await timed('retrieve', 0, () =>
      retrieveContext(task, repoDir, {
        rag: services.rag,
        budgetTokens: task.contextBudgetTokens || settings.contextBudgetTokens,
        log,
      }),
    );
    trajectory.record('context', { shown: context.shown, omitted: context.omitted, tokens: context.usedTokens });
    // The task's command wins; else the repo's .farm/checks.json; else what its toolchain implies.
    const plan: CheckPlan = task.checkCommand
      ? { steps: [{ name: 'check', run: task.checkCommand }] as CheckStep[], source: 'config', skipped: [] }
      : planChecks(repoDir);
    trajectory.record('checks', { steps: plan.steps, skipped: plan.skipped, strategy });
    const taskForModel = settings.lessons === false ? { ...task, lessons: [] } : task;

    // What both strategies work with.
    const shared = { deps, budget, state, trajectory, redact, log, timed };
    const runDiff = () =>
      runDiffStrategy(taskForModel, repoDir, context, plan, { ...shared, setAttempts: (n) => (attempts = n) });
    let outcome: StrategyOutcome;
    if (strategy === 'tools') {
      const tools = await runToolStrategy(taskForModel, repoDir, context, plan, shared);
      // `auto` on an endpoint without tool calling: its first request is refused; the task runs as a diff.
      if (tools.kind === 'tools-refused' && settings.strategy !== 'tools' && !task.strategy) {
        log.warn('the endpoint refused tool calls; running the task with the diff strategy', { reason: tools.reason });
        trajectory.record('fallback', { from: 'tools', to: 'diff', reason: tools.reason });
        strategy = 'diff';
        outcome = await runDiff();
      } else {
        outcome = tools.kind === 'tools-refused' ? hardFail(F.STEP_LLM, `model unavailable: ${tools.reason}`) : tools;
      }
    } else {
      outcome = await runDiff();
    }
    if (outcome.kind !== 'ready') return outcome;
    const ready = outcome;
    if (strategy === 'tools') attempts = state.attempts;

    const commit = await timed('commit', attempts, () =>
      commitAll({
        dir: repoDir,
        paths: ready.paths,
        branch,
        author: settings.author,
        message: taskCommitMessage(task),
      }),
    ).then(
      (sha) => ({ sha }),
      (err: unknown) => ({ err }),
    );
    if ('err' in commit) return hardFail(F.STEP_COMMIT, `commit failed: ${errorMessage(commit.err)}`);
    const delivery = await claimAndPush(
      task,
      { dir: repoDir, url, branch, commitSha: commit.sha },
      branchDeps,
      (step, fn) => timed(step, attempts, fn),
    );
    if (delivery.kind === 'failed') return delivery;
    log.info('task succeeded', { attempts, branch, commitSha: delivery.commitSha, strategy, costUsd: budget.costUsd });
    return {
      ...delivery,
      notes: [...delivery.notes, ...ready.notes],
      ...(ready.lesson && settings.lessons !== false ? { lesson: ready.lesson } : {}),
    };
  };

  try {
    const outcome = await steps().catch((err: unknown) => {
      log.error('task crashed', { err });
      return hardFail(F.STEP_AGENT, `agent error: ${errorMessage(err)}`);
    });
    if (outcome.kind === 'failed') {
      log[outcome.status === S.HARD_FAIL ? 'error' : 'warn']('task failed', {
        status: S[outcome.status],
        step: failedStepName(outcome.failedStep),
        reason: outcome.reason,
      });
      // A SOFT_FAIL is dispatched again, and the next agent claims with the same fencing tokens.
      if (outcome.status === S.HARD_FAIL) await releaseLeases(task, deps, log);
    }
    return result(outcome);
  } finally {
    await trajectory.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

function chooseStrategy(task: farm.v1.ICodingTask, deps: AgentDeps): 'tools' | 'diff' {
  if (task.strategy === Strategy.DIFF) return 'diff';
  if (task.strategy === Strategy.TOOLS) return deps.services.toolModel ? 'tools' : 'diff';
  if (deps.settings.strategy === 'diff') return 'diff';
  return deps.services.toolModel ? 'tools' : 'diff';
}

interface StrategyRun {
  deps: AgentDeps;
  budget: TaskBudget;
  state: ToolLoopState;
  trajectory: Trajectory;
  redact: Redactor;
  log: Logger;
  timed: <T>(step: string, attempt: number, fn: () => Promise<T>) => Promise<T>;
}

const budgetName = (reason: string) => (/^token/.test(reason) ? 'tokens' : /^cost/.test(reason) ? 'cost' : 'steps');

/** The tool loop: explore and edit with tools, verified finish, review; the tree's net change is committed. */
async function runToolStrategy(
  task: farm.v1.ICodingTask,
  repoDir: string,
  context: RetrievedContext,
  plan: CheckPlan,
  run: StrategyRun,
): Promise<StrategyOutcome | { kind: 'tools-refused'; reason: string }> {
  const { services, settings } = run.deps;
  const toolbox = new AgentToolBox({
    root: repoDir,
    redact: run.redact,
    checks: plan.steps,
    checkTimeoutSeconds: Math.round(settings.checkTimeoutMs / 1000),
    checkCeilings: settings.checkCeilings,
    env: settings.checkEnv,
    writableDirs: settings.checkWritableDirs,
    limits: settings.toolLimits,
    log: run.log,
  });
  const outcome = await runToolLoop(
    task,
    { toolbox, repoDir, context },
    {
      model: services.toolModel!,
      reviewer: services.reviewModel,
      reviewRounds: settings.reviewRounds ?? 2,
      prices: settings.prices ?? DEFAULT_MODEL_PRICES,
      contextWindowTokens: settings.contextWindowTokens ?? 100_000,
      budget: run.budget,
      redact: run.redact,
      trajectory: run.trajectory,
      log: run.log,
      timed: run.timed,
    },
    run.state,
  );
  if (outcome.kind !== 'finished') {
    if (outcome.kind === 'failed' && outcome.failedStep === F.STEP_BUDGET)
      agentMetrics.budgetStops.inc({ budget: budgetName(outcome.reason) });
    return outcome;
  }
  const files = outcome.changes.map((c) => c.path);
  const verdicts = run.state.reviews;
  const notes = [
    run.redact(`summary: ${outcome.summary}`),
    ...(verdicts.length
      ? [`review: approved in round ${verdicts.length}${verdicts.length > 1 ? ' after objections' : ''}`]
      : ['review: none']),
    ...verdicts
      .filter((v) => !v.approved)
      .map((v) => run.redact(`review round ${v.round} objections: ${(v.objections ?? []).join('; ')}`)),
  ];
  return {
    kind: 'ready',
    paths: files,
    notes,
    lesson: lessonFromTask(task, {
      files,
      firstFailure: outcome.firstFailure && run.redact(outcome.firstFailure),
      fix: run.redact(outcome.summary),
    }),
  };
}

/** Today's one-shot strategy: one diff per attempt, applied, checked, failures fed back. */
async function runDiffStrategy(
  task: farm.v1.ICodingTask,
  repoDir: string,
  context: RetrievedContext,
  plan: CheckPlan,
  run: StrategyRun & { setAttempts: (n: number) => void },
): Promise<StrategyOutcome> {
  const { budget, trajectory, log, timed } = run;
  const { services, settings } = run.deps;
  /** What went wrong on the last attempt, for the next prompt. */
  let lastFailure: string | undefined;
  let firstFailure: string | undefined;
  const maxAttempts = 1 + (task.maxRetries || plan.maxRetries || settings.maxRetries);
  let attempts = 0;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const exhausted = budget.exhausted();
    if (exhausted) {
      agentMetrics.budgetStops.inc({ budget: budgetName(exhausted) });
      return softFail(F.STEP_BUDGET, exhausted);
    }
    attempts = attempt;
    run.setAttempts(attempt);
    const messages = buildPrompt(task, context, lastFailure).map((m) => ({ ...m, content: run.redact(m.content) }));
    trajectory.record('prompt', { attempt, messages });
    let diff: string;
    try {
      const answer = await timed('llm', attempt, () => services.model.proposePatch(messages));
      const cost = costOfCall(settings.prices ?? DEFAULT_MODEL_PRICES, answer.model, answer.usage);
      budget.record(answer.usage, cost.usd);
      run.state.model = answer.model;
      run.state.malformedRetries += answer.malformedRetries ?? 0;
      agentMetrics.tokens.inc({ kind: 'prompt', model: answer.model }, answer.usage.promptTokens);
      agentMetrics.tokens.inc({ kind: 'completion', model: answer.model }, answer.usage.completionTokens);
      if (cost.usd > 0) agentMetrics.costUsd.inc({ model: answer.model }, cost.usd);
      trajectory.record('step', {
        attempt,
        step: budget.steps,
        model: answer.model,
        tokens: answer.usage,
        costUsd: cost.usd,
      });
      diff = answer.diff;
    } catch (err) {
      if (!(err instanceof ModelAnswerInvalid)) return hardFail(F.STEP_LLM, `model unavailable: ${errorMessage(err)}`);
      lastFailure = `Your answer was not the JSON object asked for: ${err.message}`;
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
      lastFailure = `The diff was rejected and nothing was applied: ${err.message}`;
      firstFailure ??= `the diff was rejected: ${err.reason}`;
      trajectory.record('rejected', { attempt, reason: err.message });
      trajectory.record('reward', { attempt, reward: 0, checksOk: false, reason: 'rejected' });
      log.warn('patch rejected', { attempt, reason: err.message });
      continue;
    }

    if (plan.steps.length) {
      const checks = await timed('check', attempt, () =>
        runChecks(repoDir, plan.steps, {
          ceilings: { ...settings.checkCeilings, timeoutSeconds: Math.round(settings.checkTimeoutMs / 1000) },
          env: settings.checkEnv,
          writableDirs: settings.checkWritableDirs,
          log,
        }),
      );
      trajectory.record('check', { attempt, ok: checks.ok, steps: checks.steps, isolation: checks.isolation });
      trajectory.record('reward', { attempt, reward: checks.ok ? 1 : 0, checksOk: checks.ok });
      if (!checks.ok) {
        agentMetrics.patches.inc({ result: 'check_failed' });
        const denied = checks.failed?.denied;
        if (denied) return hardFail(F.STEP_CHECK, `sandbox refused \`${checks.failed!.run}\`: ${denied.reason}`);
        const why = describeFailure(checks) ?? 'a check failed';
        firstFailure ??= why;
        lastFailure = `The diff applied, but a check failed. ${why}`;
        log.warn('self-check failed', { attempt, step: checks.failed?.name, exitCode: checks.failed?.exitCode });
        await revertFiles(repoDir, applied.files);
        continue;
      }
    } else {
      trajectory.record('reward', { attempt, reward: 1, checksOk: true, reason: 'no checks configured' });
    }
    agentMetrics.patches.inc({ result: 'applied' });
    const files = applied.files.map((f) => f.path);
    return {
      kind: 'ready',
      paths: files,
      notes: applied.fuzzy ? ['patch applied by context (line numbers were off)'] : [],
      lesson: lessonFromTask(task, {
        files,
        firstFailure: firstFailure && run.redact(firstFailure),
        fix: `a diff to ${files.join(', ')}${attempt > 1 ? ` on attempt ${attempt}` : ''}`,
      }),
    };
  }
  return softFail(F.STEP_ATTEMPTS, `no passing patch after ${attempts} attempt(s)`, [
    (lastFailure ?? '').slice(0, 2000),
  ]);
}

/** Giving up: free the task's symbols for others (best effort; the orchestrator releases them too). */
async function releaseLeases(task: farm.v1.ICodingTask, deps: AgentDeps, log: Logger): Promise<void> {
  for (const lease of task.reservedLeases ?? []) {
    await deps.services.leases
      ?.release(lease.id!, lease.fencingToken || undefined)
      .catch((err) => log.warn('lease release failed', { leaseId: lease.id, err }));
  }
}
