import { readlinkSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { farm } from '@farm/proto';
import {
  ContextOverflow,
  ModelAnswerCut,
  ModelAnswerInvalid,
  ModelUnavailable,
  type ConversationMessage,
  type JsonModel,
  type ToolCall,
  type ToolModel,
} from '@farm/llm';
import { errorMessage, type Logger, type Redactor } from '@farm/runtime';
import { refusedCheckNote } from '@farm/sandbox';
import {
  conversationTokens,
  elideStaleOutputs,
  fitConversation,
  smallestConversation,
  windowAfterOverflow,
  type ElisionOptions,
} from './conversation-window';
import { renderLessons } from './lessons-prompt';
import { agentMetrics } from './metrics';
import { costOfCall, type ModelPrices } from '@farm/llm';
import { reviewDiff, type ReviewVerdict } from './review-diff';
import { hardFail, softFail, type TaskFailed } from './task-outcome';
import type { AgentToolBox, ToolOutcome } from './tools/agent-tools';
import type { TreeChange } from './tools/tree-diff';
import { describeVerification, unverifiedMayPass, verificationRecord, type UnverifiedPolicy } from './verify-change';
import type { TaskObserver } from './task-observer';
import { cutMiddle, REPORT_LIMITS } from './trajectory-report';

export const TOOL_SYSTEM_PROMPT = `You are a coding agent working in a git checkout, with tools to explore and change it.
Work in small steps: find the relevant code (list_files, search, find_symbol, read_file), change it with
edit_file (replaces old_text, copied from the file, by new_text) or create_file/delete_file, run the repository's
checks with run_checks, fix what fails, and call finish with a short summary once the checks pass. finish is
refused while a check fails, and when the goal asks for behaviour, the change needs more than tests and its new
tests must fail without it; a reviewer reads the final diff before it is committed: address its objections.
Keep the change to what the goal asks. Paths are relative to the repository root; .git/ is off limits;
run_command runs in a sandbox without network.`;

export interface ToolLoopDeps {
  model: ToolModel;
  /** Reads the final diff before the commit; none: no review. */
  reviewer?: JsonModel;
  /** Review rounds before an unapproved change ends the task. */
  reviewRounds: number;
  /** An approval below this confidence (0..1) goes back to the agent like an objection; default 0.5. */
  reviewMinConfidence?: number;
  /** What a change no test shows to work may do (see UnverifiedPolicy); default 'review'. */
  unverifiedChanges?: UnverifiedPolicy;
  prices: ModelPrices;
  contextWindowTokens: number;
  /** Tokens the reviewer's prompt may take; its diff is cut to fit, saying so (default: no bound). */
  reviewPromptTokens?: number;
  /** Old re-readable tool outputs become stubs (default DEFAULT_ELISION); false keeps them whole. */
  elision?: ElisionOptions | false;
  redact: Redactor;
  log: Logger;
  /** Counts model calls against the task's budget, attempts, reviews; times steps; writes the trajectory. */
  observer: TaskObserver;
}

export type ToolLoopOutcome =
  | {
      kind: 'finished';
      summary: string;
      changes: TreeChange[];
      /** What verified the change (see verifyChange). */
      verification: farm.v1.IVerification;
      /** What failed first on the way (a check, a refused finish), for the lesson. */
      firstFailure?: string;
    }
  /**
   * SOFT_FAIL: out of budget or review rounds. HARD_FAIL: nothing the model can fix (the sandbox refuses the
   * repository's own check) or the model endpoint failed.
   */
  | TaskFailed
  /** The endpoint refused the first request that offered tools: it has no tool calling (try the diff strategy). */
  | { kind: 'tools-refused'; reason: string };

const F = farm.v1.FailedStep;

/** The first messages: the rules, then the goal, the lessons and what retrieval found. */
export function toolLoopPrompt(task: farm.v1.ICodingTask, context: { text: string; omitted: string[] }): string {
  const parts = [`TASK GOAL:\n${task.goal}`];
  if (task.path) parts.push(`MAIN FILE: ${task.path}`);
  const lessons = renderLessons(task.lessons);
  if (lessons) parts.push(lessons);
  if (task.priorNotes?.length) parts.push(`NOTES FROM AN EARLIER RUN OF THIS TASK:\n${task.priorNotes.join('\n')}`);
  if (context.text)
    parts.push(`POSSIBLY RELEVANT CODE (snippets found for the goal; read the files for more):\n${context.text}`);
  if (context.omitted.length) parts.push(`Also possibly relevant: ${context.omitted.join(', ')}`);
  return parts.join('\n\n');
}

/** Short JSON of a call's arguments for the trajectory: long strings cut, secrets redacted. */
function argumentsForRecord(call: ToolCall, redact: Redactor): unknown {
  try {
    const args = JSON.parse(call.arguments || '{}') as Record<string, unknown>;
    const cut = Object.fromEntries(
      Object.entries(args).map(([k, v]) => [
        k,
        typeof v === 'string' && v.length > 400 ? `${v.slice(0, 400)}… (${v.length} chars)` : v,
      ]),
    );
    return JSON.parse(redact(JSON.stringify(cut)));
  } catch {
    return redact(call.arguments.slice(0, 400));
  }
}

/**
 * The tool-using loop of one task: the model calls tools over the checkout until it finishes with the checks
 * passing on the final tree and the reviewer approving, or a budget (steps, tokens, cost) runs out. A model
 * outage ends the loop as an outcome; everything the model gets wrong goes back to it as a result.
 */
export async function runToolLoop(
  task: farm.v1.ICodingTask,
  input: { toolbox: AgentToolBox; repoDir: string; context: { text: string; omitted: string[] } },
  deps: ToolLoopDeps,
): Promise<ToolLoopOutcome> {
  const { toolbox, repoDir } = input;
  const { observer, redact } = deps;
  const { budget } = observer;
  const messages: ConversationMessage[] = [
    { role: 'system', content: TOOL_SYSTEM_PROMPT },
    { role: 'user', content: redact(toolLoopPrompt(task, input.context)) },
  ];
  observer.record('prompt', { strategy: 'tools', messages });
  observer.toolsOffered(toolbox.specs.map((t) => t.name));
  let firstFailure: string | undefined;
  const noteFailure = (what: string) => (firstFailure ??= what);
  const gateState = { verifyRefusals: 0 };

  // The window the conversation is kept within: the setting, lowered to what the server says its context holds.
  let windowTokens = deps.contextWindowTokens;
  let overflows = 0;
  /** After the server refused (or silently cut) the request as too long: a smaller window, or the task's end. */
  const overflowed = (err: ContextOverflow, step: number): ToolLoopOutcome | undefined => {
    const sentTokens = conversationTokens(messages);
    const { contextTokens, promptTokens } = err;
    const outputLimit = deps.model.outputLimit;
    const smaller = windowAfterOverflow({ contextTokens, promptTokens, sentTokens, outputLimit }, windowTokens);
    const floor = smallestConversation(messages);
    observer.record('context', { step, overflow: err.message, windowTokens, smallerWindowTokens: smaller, floor });
    if (++overflows > 3 || smaller < floor) return hardFail(F.STEP_LLM, overflowReason(err, floor));
    deps.log.warn('the model server context cannot hold the conversation; shortening it', {
      step,
      contextTokens,
      promptTokens,
      windowTokens,
      smallerWindowTokens: smaller,
    });
    windowTokens = smaller;
    return undefined;
  };

  for (;;) {
    const stop = budget.exhausted();
    if (stop) {
      const stopped = observer.budgetStopped(stop);
      return softFail(stopped.failedStep, stopped.reason);
    }
    const elided = deps.elision === false ? 0 : elideStaleOutputs(messages, deps.elision);
    const shortened = elided + fitConversation(messages, windowTokens);
    const step = budget.steps + 1;
    const started = performance.now();
    let turn;
    try {
      turn = await observer.timed('llm', step, () => deps.model.nextTurn(messages, toolbox.specs));
    } catch (err) {
      if (err instanceof ContextOverflow) {
        const ended = overflowed(err, step);
        if (ended) return ended;
        continue;
      }
      if (err instanceof ModelUnavailable) return modelUnavailable(err, step === 1);
      if (!(err instanceof ModelAnswerInvalid)) throw err;
      observer.unreadableAnswer();
      observer.record('step', { step, error: err.message });
      const ask =
        err instanceof ModelAnswerCut
          ? `Your last answer was cut at the output limit before it was complete (${err.message}). Make smaller steps: one tool call at a time, shorter edits (a few lines of old_text each).`
          : `Your last answer could not be read (${err.message}). Use the tools.`;
      messages.push({ role: 'user', content: ask });
      continue;
    }
    const cost = costOfCall(deps.prices, turn.model, turn.usage);
    observer.modelCalled(turn, cost.usd);
    // A server that read far fewer tokens than were sent dropped part of the prompt without saying so (Ollama
    // cuts a prompt longer than its num_ctx from the start: the system prompt and the task go first). The answer
    // read a different conversation: not taken; the conversation is shortened to what the server reads.
    const dropped = droppedPrompt(turn.usage, conversationTokens(messages));
    if (dropped) {
      observer.record('step', {
        step,
        model: turn.model,
        tokens: turn.usage,
        costUsd: cost.usd,
        error: dropped.message,
      });
      const ended = overflowed(dropped, step);
      if (ended) return ended;
      continue;
    }
    observer.record('step', {
      step,
      model: turn.model,
      tokens: turn.usage,
      costUsd: cost.usd,
      priced: cost.priced,
      durationMs: Math.round(performance.now() - started),
      toolCalls: turn.toolCalls.map((c) => c.name),
      // What the model wrote besides its calls (its reasoning), for reading the trajectory; redacted with the line.
      ...(turn.content?.trim() ? { text: turn.content } : {}),
      ...(shortened ? { shortenedMessages: shortened } : {}),
    });
    messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.toolCalls });
    if (!turn.toolCalls.length) {
      messages.push({
        role: 'user',
        content: 'Continue with the tools. Call finish when the goal is done and the checks pass.',
      });
      continue;
    }

    let finished: ToolLoopOutcome | undefined;
    for (const call of turn.toolCalls) {
      if (finished) {
        // Every call of a turn needs its result in the conversation; after an accepted finish none runs.
        messages.push({ role: 'tool', toolCallId: call.id, content: 'not run: the task was finished' });
        continue;
      }
      const toolStarted = performance.now();
      let outcome: ToolOutcome = await toolbox.call(call.name, call.arguments);
      if (outcome.checks && !outcome.checks.ok) noteFailure(toolbox.describeChecks(outcome.checks));
      if (outcome.checks) observer.checksRan(outcome.checks.steps);
      if (outcome.finish) {
        const gate = await finishGate(
          outcome.finish.summary,
          { task, toolbox, repoDir, state: gateState },
          deps,
          noteFailure,
        );
        if (gate.done) finished = gate.done;
        outcome = { ...outcome, ok: !!gate.done && gate.done.kind === 'finished', output: gate.output };
      }
      observer.toolCalled(call.name, outcome.ok);
      if (outcome.match) agentMetrics.editMatches.inc({ tier: outcome.match });
      deps.log.debug('tool call', {
        step,
        tool: call.name,
        ok: outcome.ok,
        outputChars: outcome.output.length,
        durationMs: Math.round(performance.now() - toolStarted),
      });
      observer.record('tool', {
        step,
        tool: call.name,
        arguments: argumentsForRecord(call, redact),
        ok: outcome.ok,
        outputChars: outcome.output.length,
        result: cutMiddle(outcome.output, REPORT_LIMITS.stringChars),
        durationMs: Math.round(performance.now() - toolStarted),
        ...(outcome.changed ? { changed: outcome.changed } : {}),
        ...(outcome.match ? { match: outcome.match } : {}),
      });
      messages.push({ role: 'tool', toolCallId: call.id, content: outcome.output });
    }
    if (finished) {
      if (finished.kind === 'finished') finished.firstFailure = firstFailure;
      return finished;
    }
  }
}

/** Why the task ended on a context that cannot hold it, and what to change. */
function overflowReason(err: ContextOverflow, floorTokens: number): string {
  return (
    `the model server's context is too small for this task: ${err.message}; the conversation cannot be made ` +
    `smaller than about ${floorTokens} tokens (the instructions, the task and its latest steps). Raise the ` +
    `server's context (llama.cpp: -c / --ctx-size; Ollama: num_ctx or OLLAMA_CONTEXT_LENGTH; vLLM: ` +
    `--max-model-len), or use a model with a larger one; FARM_CONTEXT_WINDOW_TOKENS keeps the conversation within it`
  );
}

/** Far fewer prompt tokens counted than sent (at least 2,000 sent): the server dropped the rest. */
export function droppedPrompt(
  usage: { promptTokens: number; cachedInputTokens?: number },
  sentTokens: number,
): ContextOverflow | undefined {
  const read =
    usage.promptTokens +
    (usage.cachedInputTokens && usage.cachedInputTokens > usage.promptTokens ? usage.cachedInputTokens : 0);
  if (!usage.promptTokens || sentTokens < 2000 || read * 2.5 >= sentTokens) return undefined;
  return new ContextOverflow(
    `the model server read ${read} prompt tokens of about ${sentTokens} sent: it dropped the rest without an error`,
    { contextTokens: read },
  );
}

/**
 * A failed model call ends the loop; a 400/404/422 to the first request means the endpoint has no tools (a
 * context overflow is told apart before: it is no refusal of tools).
 */
function modelUnavailable(err: ModelUnavailable, firstCall: boolean): ToolLoopOutcome {
  if (firstCall && [400, 404, 422].includes(err.status ?? 0))
    return { kind: 'tools-refused', reason: errorMessage(err) };
  return hardFail(F.STEP_LLM, `model unavailable: ${errorMessage(err)}`);
}

/** Finishes refused as unverified before the task ends as SOFT_FAIL at STEP_VERIFY. */
export const VERIFY_ROUNDS = 2;

/**
 * finish is accepted only when the checks pass on the final tree, the tree has a change, the change is verified
 * (or the reviewer explicitly accepts it unverified), and the reviewer approves; otherwise the reason goes back
 * to the model as the tool's result.
 */
async function finishGate(
  summary: string,
  ctx: { task: farm.v1.ICodingTask; toolbox: AgentToolBox; repoDir: string; state: { verifyRefusals: number } },
  deps: ToolLoopDeps,
  noteFailure: (what: string) => void,
): Promise<{ output: string; done?: ToolLoopOutcome }> {
  const { observer } = deps;
  const attempt = observer.attemptStarted();
  const changes = await ctx.toolbox.agentChanges();
  if (!changes.length) {
    observer.record('reward', { attempt, reward: 0, checksOk: false, reason: 'no change' });
    return { output: 'finish refused: the tree has no change against the base commit; make the change first.' };
  }
  const escaping = await symlinksLeavingTree(ctx.repoDir, changes);
  if (escaping.length) {
    observer.record('reward', { attempt, reward: 0, checksOk: false, reason: 'symlink out of the tree' });
    return {
      output: `finish refused: ${escaping.join(', ')} would be committed as symlink(s) leading outside the repository; remove them.`,
    };
  }
  const checks = await observer.timed('check', attempt, () => ctx.toolbox.runRepositoryChecks());
  const checkText = ctx.toolbox.describeChecks(checks);
  const reused = checks.reused ? { reused: true } : {};
  observer.record('check', { attempt, ok: checks.ok, steps: checks.steps, isolation: checks.isolation, ...reused });
  observer.checksRan(checks.steps);
  observer.record('reward', { attempt, reward: checks.ok ? 1 : 0, checksOk: checks.ok });
  observer.patchResult(checks.ok ? 'applied' : 'check_failed');
  if (!checks.ok) {
    noteFailure(checkText);
    if (checks.failed?.denied) {
      // The repository's own check is refused by the sandbox, or destroyed its checkout: nothing the model can change.
      return {
        output: `finish refused: ${checkText}`,
        done: hardFail(F.STEP_CHECK, refusedCheckNote(checks)!),
      };
    }
    return {
      output: `finish refused: the checks fail on the final tree. Fix this, then call finish again.\n${checkText}`,
    };
  }
  const verification = await observer.timed('verify', attempt, () => ctx.toolbox.verifyChange(ctx.task.kind, checks));
  observer.record('verification', verificationRecord(verification));
  const unverified = () => {
    const reason = verification.unverifiedReason!;
    noteFailure(`not verified: ${reason}`);
    if (++ctx.state.verifyRefusals >= VERIFY_ROUNDS)
      return {
        output: `finish refused: the change is not verified: ${reason}`,
        done: {
          ...softFail(F.STEP_VERIFY, `not verified after ${VERIFY_ROUNDS} finish(es): ${reason}`, [
            describeVerification(verification),
          ]),
          verification,
        },
      };
    return {
      output: `finish refused: the change is not verified: ${reason}. Make the change the goal asks for, with tests that fail without it and pass with it, then call finish again.`,
    };
  };
  const policy = deps.unverifiedChanges ?? 'review';
  const reviewing = deps.reviewer && deps.reviewRounds > 0;
  if (verification.unverifiedReason && !reviewing && !unverifiedMayPass(policy, false)) return unverified();
  if (reviewing) {
    const round = observer.verdicts.length + 1;
    const diff = deps.redact(await ctx.toolbox.unifiedDiff(changes));
    let verdict: farm.v1.IReviewVerdict;
    let acceptUnverified = false;
    try {
      const answer = await observer.timed('review', round, () =>
        // The reviewer is a model endpoint like the coder's: nothing goes to it unredacted.
        reviewDiff(deps.reviewer!, {
          goal: deps.redact(ctx.task.goal ?? ''),
          summary: deps.redact(summary),
          diff,
          checks: deps.redact(checkText),
          verification: deps.redact(describeVerification(verification)),
          unverified: verification.unverifiedReason ? deps.redact(verification.unverifiedReason) : undefined,
          maxPromptTokens: deps.reviewPromptTokens,
        }),
      );
      const cost = costOfCall(deps.prices, answer.model, answer.usage);
      observer.reviewerCalled(answer, cost.usd);
      acceptUnverified = answer.acceptUnverified;
      verdict = reviewVerdict(answer, round, deps.reviewMinConfidence ?? 0.5);
    } catch (err) {
      if (err instanceof ModelUnavailable) return { output: 'not reviewed', done: modelUnavailable(err, false) };
      if (!(err instanceof ModelAnswerInvalid)) throw err;
      const text = `the reviewer's answer could not be read (${errorMessage(err)}); check the change once more`;
      verdict = { round, approved: false, objections: [text], confidence: 0 };
    }
    observer.reviewed(verdict);
    const objections = verdict.objections ?? [];
    const approved = verdict.approved && !verdict.belowConfidence;
    if (!approved) {
      noteFailure(`reviewer: ${objections.join('; ')}`);
      const list = objections.map((o) => `- ${o}`).join('\n');
      if (round >= deps.reviewRounds) {
        return {
          output: `finish refused by the reviewer:\n${list}`,
          done: softFail(
            F.STEP_REVIEW,
            `the reviewer did not approve after ${round} round(s): ${objections.join('; ')}`,
          ),
        };
      }
      return { output: `finish refused: the reviewer objected. Address this, then call finish again.\n${list}` };
    }
    if (verification.unverifiedReason) {
      if (!unverifiedMayPass(policy, acceptUnverified)) return unverified();
      if (acceptUnverified) verification.acceptedByReviewer = true;
    }
    deps.log.info('reviewer approved', { round, confidence: verdict.confidence });
  }
  deps.log.info('finish accepted', { attempt, files: changes.length, reviews: observer.verdicts.length });
  return { output: 'finished', done: { kind: 'finished', summary, changes, verification } };
}

/**
 * The reviewer's answer as the result keeps it: objections as lines the agent reads and tied to files and lines;
 * an approval below `minConfidence` is marked, and the agent is told to look again.
 */
export function reviewVerdict(answer: ReviewVerdict, round: number, minConfidence: number): farm.v1.IReviewVerdict {
  const belowConfidence = answer.approved && answer.confidence < minConfidence;
  const objections = [...answer.objections];
  if (belowConfidence)
    objections.push(
      `the reviewer approved with confidence ${answer.confidence} (below ${minConfidence}): check the change once more against the goal and make its tests show the behaviour`,
    );
  return {
    round,
    approved: answer.approved,
    objections,
    findings: answer.findings,
    confidence: answer.confidence,
    ...(belowConfidence ? { belowConfidence } : {}),
    ...(answer.acceptUnverified ? { acceptedUnverified: true } : {}),
  };
}

/** Changed paths that are symlinks resolving outside the checkout (a commit must not carry them). */
async function symlinksLeavingTree(root: string, changes: TreeChange[]): Promise<string[]> {
  const realRoot = await realpath(root);
  const out: string[] = [];
  for (const c of changes) {
    if (c.change === 'deleted') continue;
    const abs = path.join(root, c.path);
    if (!(await lstat(abs)).isSymbolicLink()) continue;
    const target = await realpath(abs).catch(() => path.resolve(path.dirname(abs), readlinkSync(abs)));
    const rel = path.relative(realRoot, target);
    if (rel.startsWith('..') || path.isAbsolute(rel)) out.push(c.path);
  }
  return out;
}
