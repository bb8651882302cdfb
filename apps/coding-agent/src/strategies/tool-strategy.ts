import { lessonFromTask } from '../lessons-prompt';
import { DEFAULT_MODEL_PRICES } from '@farm/llm';
import type { StrategyOutcome } from '../task-outcome';
import { runToolLoop } from '../tool-loop';
import { AgentToolBox } from '../tools/agent-tools';
import { describeVerification } from '../verify-change';
import type { StrategyInput, StrategyUnsupported, TaskStrategy } from './task-strategy';

/** The tool loop: explore and edit with tools, verified finish, review; the tree's net change is committed. */
async function runToolStrategy({
  task,
  workspace,
  deps,
  run,
}: StrategyInput): Promise<StrategyOutcome | StrategyUnsupported> {
  const { services, settings } = deps;
  const { repoDir, base, context, plan } = workspace;
  const toolbox = new AgentToolBox({
    root: repoDir,
    base,
    redact: run.redact,
    checks: plan.steps,
    skippedChecks: plan.skipped,
    checkTimeoutSeconds: Math.round(settings.checkTimeoutMs / 1000),
    checkCeilings: settings.checkCeilings,
    env: settings.checkEnv,
    writableDirs: settings.checkWritableDirs,
    limits: settings.toolLimits,
    log: run.log,
    progress: (event, data) => run.observer.progress(event, data),
  });
  const outcome = await runToolLoop(
    task,
    { toolbox, repoDir, context },
    {
      model: services.toolModel!,
      reviewer: services.reviewModel,
      reviewRounds: settings.reviewRounds ?? 2,
      reviewMinConfidence: settings.reviewMinConfidence,
      unverifiedChanges: settings.unverifiedChanges ?? 'review',
      prices: settings.prices ?? DEFAULT_MODEL_PRICES,
      contextWindowTokens: settings.contextWindowTokens ?? 100_000,
      reviewPromptTokens: settings.reviewPromptTokens,
      redact: run.redact,
      log: run.log,
      observer: run.observer,
    },
  );
  if (outcome.kind === 'tools-refused') return { kind: 'unsupported', reason: outcome.reason };
  if (outcome.kind === 'failed') return outcome;
  const files = outcome.changes.map((c) => c.path);
  const verdicts = run.observer.verdicts;
  const notes = [
    run.redact(`summary: ${outcome.summary}`),
    ...(verdicts.length
      ? [`review: approved in round ${verdicts.length}${verdicts.length > 1 ? ' after objections' : ''}`]
      : ['review: none']),
    ...verdicts
      .filter((v) => !v.approved || v.belowConfidence)
      .map((v) => run.redact(`review round ${v.round} objections: ${(v.objections ?? []).join('; ')}`)),
    run.redact(describeVerification(outcome.verification)),
  ];
  return {
    kind: 'ready',
    paths: files,
    notes,
    verification: outcome.verification,
    lesson: lessonFromTask(task, {
      files,
      firstFailure: outcome.firstFailure && run.redact(outcome.firstFailure),
      fix: run.redact(outcome.summary),
    }),
  };
}

export const toolStrategy: TaskStrategy = { name: 'tools', run: runToolStrategy };
