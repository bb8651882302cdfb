import { farm } from '@farm/proto';
import { applyModelEdit, PatchRejected, type FuzzKind } from '@farm/patch';
import { ModelAnswerInvalid } from '@farm/llm';
import { errorMessage } from '@farm/runtime';
import { describeFailure, runChecks } from '@farm/sandbox';
import { lessonFromTask } from '../lessons-prompt';
import { costOfCall, DEFAULT_MODEL_PRICES } from '../model-prices';
import { buildPrompt } from '../prompt';
import { hardFail, softFail, type StrategyOutcome } from '../task-outcome';
import { revertFiles } from '../work-tree';
import type { StrategyInput, TaskStrategy } from './strategy';

const F = farm.v1.FailedStep;

/** One diff per attempt, applied, checked; what failed goes into the next attempt's prompt. */
async function runDiffStrategy({ task, workspace, deps, run }: StrategyInput): Promise<StrategyOutcome> {
  const { observer, log } = run;
  const { services, settings } = deps;
  const { repoDir, context, plan } = workspace;
  /** What went wrong on the last attempt, for the next prompt. */
  let lastFailure: string | undefined;
  let firstFailure: string | undefined;
  const maxAttempts = 1 + (task.maxRetries || plan.maxRetries || settings.maxRetries);
  for (let tried = 0; tried < maxAttempts; tried++) {
    const stop = observer.budget.exhausted();
    if (stop) {
      observer.budgetStopped(stop);
      return softFail(F.STEP_BUDGET, stop.reason);
    }
    const attempt = observer.attemptStarted();
    const messages = buildPrompt(task, context, lastFailure).map((m) => ({ ...m, content: run.redact(m.content) }));
    observer.record('prompt', { attempt, messages });
    let diff: string;
    try {
      const answer = await observer.timed('llm', attempt, () => services.model.proposePatch(messages));
      const cost = costOfCall(settings.prices ?? DEFAULT_MODEL_PRICES, answer.model, answer.usage);
      observer.modelCalled(answer, cost.usd);
      observer.record('step', {
        attempt,
        step: observer.budget.steps,
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

    observer.record('answer', { attempt, diff });
    let applied: Awaited<ReturnType<typeof applyModelEdit>>;
    try {
      applied = await observer.timed('apply', attempt, () => applyModelEdit(repoDir, diff));
    } catch (err) {
      if (!(err instanceof PatchRejected)) throw err;
      observer.patchResult('rejected');
      lastFailure = `The diff was rejected and nothing was applied: ${err.message}`;
      firstFailure ??= `the diff was rejected: ${err.reason}`;
      observer.record('rejected', { attempt, reason: err.message });
      observer.record('reward', { attempt, reward: 0, checksOk: false, reason: 'rejected' });
      log.warn('patch rejected', { attempt, reason: err.message });
      continue;
    }

    if (plan.steps.length) {
      const checks = await observer.timed('check', attempt, () =>
        runChecks(repoDir, plan.steps, {
          ceilings: { ...settings.checkCeilings, timeoutSeconds: Math.round(settings.checkTimeoutMs / 1000) },
          env: settings.checkEnv,
          writableDirs: settings.checkWritableDirs,
          log,
        }),
      );
      observer.record('check', { attempt, ok: checks.ok, steps: checks.steps, isolation: checks.isolation });
      observer.record('reward', { attempt, reward: checks.ok ? 1 : 0, checksOk: checks.ok });
      if (!checks.ok) {
        observer.patchResult('check_failed');
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
      observer.record('reward', { attempt, reward: 1, checksOk: true, reason: 'no checks configured' });
    }
    observer.patchResult('applied');
    const files = applied.files.map((f) => f.path);
    return {
      kind: 'ready',
      paths: files,
      notes: fuzzNotes(applied.fuzz),
      lesson: lessonFromTask(task, {
        files,
        firstFailure: firstFailure && run.redact(firstFailure),
        fix: `a diff to ${files.join(', ')}${attempt > 1 ? ` on attempt ${attempt}` : ''}`,
      }),
    };
  }
  return softFail(F.STEP_ATTEMPTS, `no passing patch after ${maxAttempts} attempt(s)`, [
    (lastFailure ?? '').slice(0, 2000),
  ]);
}

/** What was fuzzy about the applied patch, said as it was: a whitespace-only match is not "line numbers off". */
function fuzzNotes(fuzz: FuzzKind[] = []): string[] {
  const said: Record<FuzzKind, string> = {
    'line-offset': 'patch applied by context (line numbers were off)',
    whitespace: 'patch applied with context or removed lines matched ignoring whitespace',
  };
  return fuzz.map((kind) => said[kind]);
}

export const diffStrategy = { name: 'diff', run: runDiffStrategy } as const satisfies TaskStrategy;
