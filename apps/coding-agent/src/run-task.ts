import { failedStepName, farm } from '@farm/proto';
import { errorMessage, redactMessage, secretRedactor, secretsOfCredentialsFiles } from '@farm/runtime';
import type { AgentDeps, StrategyName } from './agent-deps';
import { publishChange, republishPushed } from './publish-change';
import { chooseStrategy, runStrategy } from './strategies/strategy';
import { DEFAULT_BUDGET, TaskBudget } from './task-budget';
import { branchFor, releaseLeases } from './task-branch';
import { TaskObserver } from './task-observer';
import { hardFail, type TaskOutcome } from './task-outcome';
import { assembleResult } from './task-result';
import type { TaskRun } from './task-run';
import { setUpTask, withWorkDir } from './task-setup';
import { openTrajectory } from './trajectory';
import { LiveSteps } from './live-steps';

const S = farm.v1.CommitStatus;
const F = farm.v1.FailedStep;

/**
 * One task, as steps: set up (idempotency, clone, retrieval, check plan), a strategy (the tool loop, or one
 * diff per attempt) within the task's step/token/cost budget, publish (commit, claim, push agt/<task_id>),
 * then the result. Never throws for task failures: they become SOFT_FAIL / HARD_FAIL results with notes.
 */
export async function runCodingTask(task: farm.v1.ICodingTask, deps: AgentDeps): Promise<farm.v1.ICommitResult> {
  // Everything the task writes (trajectory, live steps, tool results, notes, diff) goes through this redactor;
  // the credentials files are read now, so a URL's credentials taken in since the worker started count too.
  const redact = secretRedactor([
    ...(deps.settings.secrets ?? []),
    ...secretsOfCredentialsFiles(deps.settings.credentialsFiles ?? []),
  ]);
  const log = deps.services.log.child({ changeRequestId: task.changeRequestId, taskId: task.id });
  const ids = { changeRequestId: task.changeRequestId ?? '', taskId: task.id!, dispatch: task.dispatch ?? 0 };
  const live = deps.services.steps && new LiveSteps(deps.services.steps, ids, redact, log);
  const run: TaskRun = {
    log,
    redact,
    observer: new TaskObserver(
      openTrajectory(deps.settings.trajectoryDir, task.id!, task.dispatch ?? 1, redact, live),
      new TaskBudget({ ...DEFAULT_BUDGET, ...deps.settings.budget }),
    ),
  };
  run.observer.started();
  // The strategy the task would run, until one has run (a task completed from an earlier push reports it too).
  let strategy: StrategyName = chooseStrategy(task, deps).name;
  try {
    const checkouts = deps.settings.checkoutRoot ?? deps.settings.workRoot;
    const outcome = await withWorkDir(checkouts, task.id!, async (workDir) => {
      const setup = await setUpTask(task, workDir, deps, run);
      if (setup.kind === 'pushed') return republishPushed(task, setup.commit, deps, run);
      if (setup.kind === 'failed') return setup;
      const taskForModel = deps.settings.lessons === false ? { ...task, lessons: [] } : task;
      const chosen = await runStrategy({ task: taskForModel, workspace: setup.workspace, deps, run });
      strategy = chosen.strategy;
      if (chosen.outcome.kind !== 'ready') return chosen.outcome;
      return publishChange(task, setup.workspace, chosen.outcome, deps, run);
    }).catch((err: unknown): TaskOutcome => {
      run.log.error('task crashed', { err });
      return hardFail(F.STEP_AGENT, `agent error: ${errorMessage(err)}`);
    });
    await reportEnd(task, outcome, deps, run, strategy);
    const assembled = assembleResult(task, outcome, run.observer.usage(strategy), redact);
    assembled.report = run.observer.trajectory.report.build(outcome.kind === 'delivered' ? outcome.diff : '');
    // Every text of the result (its lesson, the reviewer's objections, the checks' output too), not only the notes.
    const result = redactMessage(farm.v1.CommitResult, assembled, redact);
    run.observer.ended(result, outcome);
    return result;
  } finally {
    await run.observer.close();
  }
}

/** Logs how the task ended; a HARD_FAIL gives its leases back (a SOFT_FAIL's next dispatch claims with them). */
async function reportEnd(
  task: farm.v1.ICodingTask,
  outcome: TaskOutcome,
  deps: AgentDeps,
  run: TaskRun,
  strategy: StrategyName,
): Promise<void> {
  if (outcome.kind === 'delivered') {
    run.log.info('task succeeded', {
      attempts: run.observer.attempts,
      branch: branchFor(task.id!),
      commitSha: outcome.commitSha,
      strategy,
      costUsd: run.observer.budget.costUsd,
    });
    return;
  }
  const fields = { status: S[outcome.status], step: failedStepName(outcome.failedStep), reason: outcome.reason };
  if (outcome.status === S.SOFT_FAIL) return run.log.warn('task failed', fields);
  run.log.error('task failed', fields);
  await releaseLeases(task, { leases: deps.services.leases, log: run.log });
}
