import { farm } from '@farm/proto';
import { applyModelEdit, PatchRejected, type FuzzKind } from '@farm/patch';
import { ModelAnswerInvalid } from '@farm/llm';
import { errorMessage } from '@farm/runtime';
import { describeFailure, refusedCheckNote, type ChecksResult } from '@farm/sandbox';
import { lessonFromTask } from '../lessons-prompt';
import { costOfCall, DEFAULT_MODEL_PRICES } from '@farm/llm';
import { buildPrompt } from '../prompt';
import { hardFail, softFail, type StrategyOutcome } from '../task-outcome';
import { Workspace } from '../tools/workspace';
import { describeVerification, unverifiedMayPass, verificationRecord } from '../verify-change';
import { revertFiles } from '../work-tree';
import type { StrategyInput, TaskStrategy } from './task-strategy';

const F = farm.v1.FailedStep;

/** One diff per attempt, applied, checked; what failed goes into the next attempt's prompt. */
async function runDiffStrategy({ task, workspace, deps, run }: StrategyInput): Promise<StrategyOutcome> {
  const { observer, log } = run;
  const { services, settings } = deps;
  const { repoDir, base, context, plan } = workspace;
  /** What went wrong on the last attempt, for the next prompt. */
  let lastFailure: string | undefined;
  let firstFailure: string | undefined;
  /** The last attempt's change passed the checks but was not verified (see verifyChange). */
  let unverified: farm.v1.IVerification | undefined;
  // Owns the check runs, so a tree the checks passed on is not checked again (e.g. by the verification).
  const checkRuns = new Workspace({
    root: repoDir,
    base,
    checks: plan.steps,
    checkTimeoutSeconds: Math.round(settings.checkTimeoutMs / 1000),
    checkCeilings: settings.checkCeilings,
    skippedChecks: plan.skipped,
    env: settings.checkEnv,
    writableDirs: settings.checkWritableDirs,
    log,
    progress: (event, data) => observer.progress(event, data),
  });
  const maxAttempts = 1 + (task.maxRetries || plan.maxRetries || settings.maxRetries);
  for (let tried = 0; tried < maxAttempts; tried++) {
    const stop = observer.budget.exhausted();
    if (stop) {
      const stopped = observer.budgetStopped(stop);
      return softFail(stopped.failedStep, stopped.reason);
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

    unverified = undefined;
    let passed: ChecksResult = { ok: true, steps: [], durationMs: 0 };
    if (plan.steps.length) {
      const checks = await observer.timed('check', attempt, () => checkRuns.runRepositoryChecks());
      const reused = checks.reused ? { reused: true } : {};
      observer.record('check', { attempt, ok: checks.ok, steps: checks.steps, isolation: checks.isolation, ...reused });
      observer.checksRan(checks.steps);
      observer.record('reward', { attempt, reward: checks.ok ? 1 : 0, checksOk: checks.ok });
      if (!checks.ok) {
        observer.patchResult('check_failed');
        const refused = refusedCheckNote(checks);
        if (refused) return hardFail(F.STEP_CHECK, refused);
        const why = describeFailure(checks) ?? 'a check failed';
        firstFailure ??= why;
        lastFailure = `The diff applied, but a check failed. ${why}`;
        log.warn('self-check failed', { attempt, step: checks.failed?.name, exitCode: checks.failed?.exitCode });
        await revertFiles(repoDir, base, applied.files);
        continue;
      }
      passed = checks;
    } else {
      observer.record('reward', { attempt, reward: 1, checksOk: true, reason: 'no checks configured' });
    }
    const verification = await observer.timed('verify', attempt, () => checkRuns.verify(task.kind, passed));
    observer.record('verification', { attempt, ...verificationRecord(verification) });
    // No reviewer reads a diff answer: an unverified change passes only where the operator lets it (`deliver`).
    if (verification.unverifiedReason && !unverifiedMayPass(settings.unverifiedChanges ?? 'review', false)) {
      unverified = verification;
      firstFailure ??= `not verified: ${verification.unverifiedReason}`;
      lastFailure = `The diff applied and the checks pass, but the change is not verified: ${verification.unverifiedReason}. Make the change the goal asks for, with tests that fail without it.`;
      log.warn('change not verified', { attempt, reason: verification.unverifiedReason });
      await revertFiles(repoDir, base, applied.files);
      continue;
    }
    observer.patchResult('applied');
    const files = applied.files.map((f) => f.path);
    return {
      kind: 'ready',
      paths: files,
      verification,
      notes: [...fuzzNotes(applied.fuzz), run.redact(describeVerification(verification))],
      lesson: lessonFromTask(task, {
        files,
        firstFailure: firstFailure && run.redact(firstFailure),
        fix: `a diff to ${files.join(', ')}${attempt > 1 ? ` on attempt ${attempt}` : ''}`,
      }),
    };
  }
  if (unverified)
    return {
      ...softFail(F.STEP_VERIFY, `not verified after ${maxAttempts} attempt(s): ${unverified.unverifiedReason}`, [
        run.redact(describeVerification(unverified)),
      ]),
      verification: unverified,
    };
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
