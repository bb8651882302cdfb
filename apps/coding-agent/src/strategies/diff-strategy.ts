import { farm } from '@farm/proto';
import { applyModelEdit, PatchRejected } from '@farm/patch';
import { ModelAnswerInvalid } from '@farm/llm';
import { errorMessage } from '@farm/runtime';
import { describeFailure, runChecks } from '@farm/sandbox';
import { lessonFromTask } from '../lessons-prompt';
import { agentMetrics } from '../metrics';
import { costOfCall, DEFAULT_MODEL_PRICES } from '../model-prices';
import { buildPrompt } from '../prompt';
import { hardFail, softFail, type StrategyOutcome } from '../task-outcome';
import { revertFiles } from '../work-tree';
import type { StrategyInput, TaskStrategy } from './strategy';

const F = farm.v1.FailedStep;

const budgetName = (reason: string) => (/^token/.test(reason) ? 'tokens' : /^cost/.test(reason) ? 'cost' : 'steps');

/** One diff per attempt, applied, checked; what failed goes into the next attempt's prompt. */
async function runDiffStrategy({ task, workspace, deps, run }: StrategyInput): Promise<StrategyOutcome> {
  const { budget, trajectory, log, timed } = run;
  const { services, settings } = deps;
  const { repoDir, context, plan } = workspace;
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
    run.state.attempts = attempt;
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

export const diffStrategy = { name: 'diff', run: runDiffStrategy } as const satisfies TaskStrategy;
