import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { failedStepName, farm } from '@farm/proto';
import { cloneAtCommit, commitAll } from '@farm/git';
import { applyModelEdit, PatchRejected } from '@farm/patch';
import { ModelAnswerInvalid, ModelUnavailable } from '@farm/llm';
import { FarmError, errorMessage, type Logger } from '@farm/runtime';
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
import { claimAndPush, completePushedBranch, pushedCommit, type Delivery } from './task-branch';
import { taskCommitMessage } from './task-commit';

const S = farm.v1.CommitStatus;
const Strategy = farm.v1.AgentStrategy;
const F = farm.v1.FailedStep;

/** What a strategy hands over when the tree holds a change that passed the checks. */
interface ReadyToCommit {
  paths: string[];
  notes: string[];
  lesson?: farm.v1.ILesson;
}

export const branchFor = (taskId: string) => `agt/${taskId}`;

/** A failure that ends the task at once; `step` names where (clone, llm, push, ...). */
class TaskAborted extends FarmError {
  constructor(
    readonly step: farm.v1.FailedStep,
    message: string,
    readonly status: farm.v1.CommitStatus = S.HARD_FAIL,
  ) {
    super(message, { retryable: false }); // the task ends; the orchestrator decides about another dispatch
  }
}

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
  const log = deps.services.log.child({ changeRequestId: task.changeRequestId, taskId: task.id });
  const branch = branchFor(task.id!);
  const url = task.repo?.url ?? '';
  const durations: farm.v1.IStepDuration[] = [];
  let attempts = 0;
  const budget = new TaskBudget({ ...DEFAULT_BUDGET, ...deps.settings.budget });
  const state: ToolLoopState = { attempts: 0, reviews: [], model: '', malformedRetries: 0 };
  let strategy = chooseStrategy(task, deps);
  const redact = secretRedactor(deps.settings.secrets ?? []);
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
  const trajectory = openTrajectory(deps.settings.trajectoryDir, task.id!, task.dispatch ?? 1, redact);
  const result = (status: farm.v1.CommitStatus, fields: Partial<farm.v1.ICommitResult>): farm.v1.ICommitResult => {
    if (strategy === 'tools') attempts = state.attempts;
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

  await mkdir(deps.settings.workRoot, { recursive: true });
  const workDir = await mkdtemp(path.join(deps.settings.workRoot, `${task.id}-`));
  const repoDir = path.join(workDir, 'repo');
  const delivered = (delivery: Delivery, more: Partial<farm.v1.ICommitResult> = {}) => {
    if (delivery.kind === 'refused') throw new TaskAborted(delivery.step, delivery.reason, delivery.status);
    return result(S.SUCCESS, {
      commitSha: delivery.commitSha,
      branchName: branch,
      ...more,
      notes: [...delivery.notes, ...(more.notes ?? [])],
    });
  };
  try {
    // Idempotent by task id: the task's own commit already on its branch is completed, not redone.
    const pushed = await pushedCommit(url, branch, log);
    if (pushed)
      return delivered(await completePushedBranch(task, url, branch, pushed, { leases: deps.services.leases, log }));

    await timed('clone', 0, () =>
      cloneAtCommit({ url, ref: task.repo?.baseRef || 'main', commit: task.repo?.baseCommit ?? '', dir: repoDir }),
    ).catch((err) => {
      throw new TaskAborted(F.STEP_CLONE, `clone failed: ${errorMessage(err)}`);
    });
    const context = await timed('retrieve', 0, () =>
      retrieveContext(task, repoDir, {
        rag: deps.services.rag,
        budgetTokens: task.contextBudgetTokens || deps.settings.contextBudgetTokens,
        log,
      }),
    );
    trajectory.record('context', { shown: context.shown, omitted: context.omitted, tokens: context.usedTokens });
    // The task's command wins; else the repo's .farm/checks.json; else what its toolchain implies.
    const plan: CheckPlan = task.checkCommand
      ? { steps: [{ name: 'check', run: task.checkCommand }] as CheckStep[], source: 'config', skipped: [] }
      : planChecks(repoDir);
    trajectory.record('checks', { steps: plan.steps, skipped: plan.skipped, strategy });
    const taskForModel = deps.settings.lessons === false ? { ...task, lessons: [] } : task;

    let outcome: ReadyToCommit | farm.v1.ICommitResult;
    // What both strategies work with.
    const shared = { deps, budget, state, trajectory, redact, log, timed, result };
    const runDiff = () =>
      runDiffStrategy(taskForModel, repoDir, context, plan, { ...shared, setAttempts: (n) => (attempts = n) });
    if (strategy === 'tools') {
      try {
        outcome = await runToolStrategy(taskForModel, repoDir, context, plan, shared);
      } catch (err) {
        // `auto` on an endpoint without tool calling: its first request is refused; the task runs as a diff.
        const refusesTools =
          err instanceof ModelUnavailable && [400, 404, 422].includes(err.status ?? 0) && budget.steps === 0;
        if (!(refusesTools && deps.settings.strategy !== 'tools' && !task.strategy)) {
          throw err instanceof ModelUnavailable
            ? new TaskAborted(F.STEP_LLM, `model unavailable: ${errorMessage(err)}`)
            : err;
        }
        log.warn('the endpoint refused tool calls; running the task with the diff strategy', { err });
        trajectory.record('fallback', { from: 'tools', to: 'diff', reason: errorMessage(err) });
        strategy = 'diff';
        outcome = await runDiff();
      }
    } else {
      outcome = await runDiff();
    }
    if (!('paths' in outcome)) return outcome;
    const ready = outcome as ReadyToCommit;
    if (strategy === 'tools') attempts = state.attempts;

    const commitSha = await timed('commit', attempts, () =>
      commitAll({
        dir: repoDir,
        paths: ready.paths,
        branch,
        author: deps.settings.author,
        message: taskCommitMessage(task),
      }),
    ).catch((err) => {
      throw new TaskAborted(F.STEP_COMMIT, `commit failed: ${errorMessage(err)}`);
    });
    const delivery = await claimAndPush(
      task,
      { dir: repoDir, url, branch, commitSha },
      { leases: deps.services.leases, log },
      (step, fn) => timed(step, attempts, fn),
    );
    if (delivery.kind === 'delivered') {
      log.info('task succeeded', {
        attempts,
        branch,
        commitSha: delivery.commitSha,
        strategy,
        costUsd: budget.costUsd,
      });
    }
    return delivered(delivery, {
      notes: ready.notes,
      ...(ready.lesson && deps.settings.lessons !== false ? { lesson: ready.lesson } : {}),
    });
  } catch (err) {
    if (err instanceof TaskAborted) {
      log.error('task aborted', { step: failedStepName(err.step), err });
      // A SOFT_FAIL is dispatched again, and the next agent claims with the same fencing tokens.
      if (err.status === S.HARD_FAIL) await releaseLeases(task, deps, log);
      return result(err.status, { failedStep: err.step, notes: [err.message] });
    }
    log.error('task crashed', { err });
    return result(S.HARD_FAIL, { failedStep: F.STEP_AGENT, notes: [`agent error: ${errorMessage(err)}`] });
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
  result: (status: farm.v1.CommitStatus, fields: Partial<farm.v1.ICommitResult>) => farm.v1.ICommitResult;
}

const budgetName = (reason: string) => (/^token/.test(reason) ? 'tokens' : /^cost/.test(reason) ? 'cost' : 'steps');

/** The tool loop: explore and edit with tools, verified finish, review; the tree's net change is committed. */
async function runToolStrategy(
  task: farm.v1.ICodingTask,
  repoDir: string,
  context: RetrievedContext,
  plan: CheckPlan,
  run: StrategyRun,
): Promise<ReadyToCommit | farm.v1.ICommitResult> {
  const { deps } = run;
  const toolbox = new AgentToolBox({
    root: repoDir,
    redact: run.redact,
    checks: plan.steps,
    checkTimeoutSeconds: Math.round(deps.settings.checkTimeoutMs / 1000),
    checkCeilings: deps.settings.checkCeilings,
    env: deps.settings.checkEnv,
    writableDirs: deps.settings.checkWritableDirs,
    limits: deps.settings.toolLimits,
    log: run.log,
  });
  const outcome = await runToolLoop(
    task,
    { toolbox, repoDir, context },
    {
      model: deps.services.toolModel!,
      reviewer: deps.services.reviewModel,
      reviewRounds: deps.settings.reviewRounds ?? 2,
      prices: deps.settings.prices ?? DEFAULT_MODEL_PRICES,
      contextWindowTokens: deps.settings.contextWindowTokens ?? 100_000,
      budget: run.budget,
      redact: run.redact,
      trajectory: run.trajectory,
      log: run.log,
      timed: run.timed,
    },
    run.state,
  ).catch((err) => {
    if (err instanceof ModelUnavailable && run.budget.steps === 0) throw err; // maybe an endpoint without tools
    throw new TaskAborted(F.STEP_LLM, `model unavailable: ${errorMessage(err)}`);
  });
  if (outcome.kind === 'aborted') throw new TaskAborted(outcome.failedStep, outcome.reason);
  if (outcome.kind === 'stopped') {
    if (outcome.failedStep === F.STEP_BUDGET) agentMetrics.budgetStops.inc({ budget: budgetName(outcome.reason) });
    run.log.warn('task stopped', { failedStep: failedStepName(outcome.failedStep), reason: outcome.reason });
    return run.result(S.SOFT_FAIL, { failedStep: outcome.failedStep, notes: [outcome.reason] });
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
): Promise<ReadyToCommit | farm.v1.ICommitResult> {
  const { deps, budget, trajectory, log, timed } = run;
  const feedback: string[] = [];
  let firstFailure: string | undefined;
  const maxAttempts = 1 + (task.maxRetries || plan.maxRetries || deps.settings.maxRetries);
  let attempts = 0;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const exhausted = budget.exhausted();
    if (exhausted) {
      agentMetrics.budgetStops.inc({ budget: budgetName(exhausted) });
      return run.result(S.SOFT_FAIL, { failedStep: F.STEP_BUDGET, notes: [exhausted] });
    }
    attempts = attempt;
    run.setAttempts(attempt);
    const messages = buildPrompt(task, context, feedback).map((m) => ({ ...m, content: run.redact(m.content) }));
    trajectory.record('prompt', { attempt, messages });
    let diff: string;
    try {
      const answer = await timed('llm', attempt, () => deps.services.model.proposePatch(messages));
      const cost = costOfCall(deps.settings.prices ?? DEFAULT_MODEL_PRICES, answer.model, answer.usage);
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
      if (!(err instanceof ModelAnswerInvalid))
        throw new TaskAborted(F.STEP_LLM, `model unavailable: ${errorMessage(err)}`);
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
      firstFailure ??= `the diff was rejected: ${err.reason}`;
      trajectory.record('rejected', { attempt, reason: err.message });
      trajectory.record('reward', { attempt, reward: 0, checksOk: false, reason: 'rejected' });
      log.warn('patch rejected', { attempt, reason: err.message });
      continue;
    }

    if (plan.steps.length) {
      const checks = await timed('check', attempt, () =>
        runChecks(repoDir, plan.steps, {
          ceilings: { ...deps.settings.checkCeilings, timeoutSeconds: Math.round(deps.settings.checkTimeoutMs / 1000) },
          env: deps.settings.checkEnv,
          writableDirs: deps.settings.checkWritableDirs,
          log,
        }),
      );
      trajectory.record('check', { attempt, ok: checks.ok, steps: checks.steps, isolation: checks.isolation });
      trajectory.record('reward', { attempt, reward: checks.ok ? 1 : 0, checksOk: checks.ok });
      if (!checks.ok) {
        agentMetrics.patches.inc({ result: 'check_failed' });
        const denied = checks.failed?.denied;
        if (denied) throw new TaskAborted(F.STEP_CHECK, `sandbox refused \`${checks.failed!.run}\`: ${denied.reason}`);
        const why = describeFailure(checks) ?? 'a check failed';
        firstFailure ??= why;
        feedback.splice(0, feedback.length, `The diff applied, but a check failed. ${why}`);
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
      paths: files,
      notes: applied.fuzzy ? ['patch applied by context (line numbers were off)'] : [],
      lesson: lessonFromTask(task, {
        files,
        firstFailure: firstFailure && run.redact(firstFailure),
        fix: `a diff to ${files.join(', ')}${attempt > 1 ? ` on attempt ${attempt}` : ''}`,
      }),
    };
  }
  return run.result(S.SOFT_FAIL, {
    failedStep: F.STEP_ATTEMPTS,
    notes: [`no passing patch after ${attempts} attempt(s)`, feedback.join('\n').slice(0, 2000)],
  });
}

/** Giving up: free the task's symbols for others (best effort; the orchestrator releases them too). */
async function releaseLeases(task: farm.v1.ICodingTask, deps: AgentDeps, log: Logger): Promise<void> {
  for (const lease of task.reservedLeases ?? []) {
    await deps.services.leases
      ?.release(lease.id!, lease.fencingToken || undefined)
      .catch((err) => log.warn('lease release failed', { leaseId: lease.id, err }));
  }
}
