/**
 * Edits with the drift real models produce: replays real commits (leven, markupsafe: the test data of the
 * coding agent) through the agent's real loop, tools and sandboxed check, with a model that makes the
 * commit's change reading around each hunk and writing old_text exactly, with whitespace drift (dedented,
 * tabs as spaces, a trailing space), minimal (the fewest unique lines), or minimal and drifted. Like a good
 * model, it sends enough exact text again when an edit is refused. Prints per drift the first-try edit
 * success, model turns, prompt tokens (and those an endpoint's prefix cache would serve) per task, and the
 * ratios against the exact-text run measured in the same run. Tokens: ~4 characters a token over the wire
 * JSON (tool specs, messages, tool calls), as the scripted model server counts them.
 *
 *   node --import tsx bench/edit-drift.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentToolBox, TaskBudget, TaskObserver, TrajectoryReport, runToolLoop } from '@farm/coding-agent';
import type { ConversationMessage, ToolModel, ToolSpec, ToolTurn } from '@farm/llm';
import { replaceInTiers } from '@farm/patch';
import { silentLogger } from '@farm/runtime';
import { PromptCache } from '@farm/scripted-llm';
import {
  DRIFTS,
  checkoutParent,
  editsFor,
  checksOf,
  fileAfter,
  fileBefore,
  plannedCalls,
  realCommits,
  type Drift,
  type PlannedCall,
  type RealCommit,
} from '../apps/coding-agent/testing/replay-commits';

interface TaskStats {
  edits: number;
  firstTryOk: number;
  turns: number;
  promptTokens: number;
  cachedTokens: number;
  landed: boolean;
}

/** A good model replaying the commit: the planned calls, and the careful retry after a refused edit. */
function replayModel(calls: PlannedCall[], stats: TaskStats): ToolModel {
  const cache = new PromptCache();
  let next = 0;
  let retry: Record<string, unknown> | undefined;
  return {
    model: 'replay',
    async nextTurn(messages: ConversationMessage[], tools: ToolSpec[]): Promise<ToolTurn> {
      const last = messages[messages.length - 1];
      const refused = last.role === 'tool' && last.content.startsWith('ERROR: edit_file');
      let call: { name: string; args: Record<string, unknown> };
      if (retry && refused) call = { name: 'edit_file', args: retry };
      else {
        if (retry) stats.firstTryOk++; // the planned edit before this turn landed
        call = calls[Math.min(next++, calls.length - 1)];
      }
      if (retry && refused) retry = undefined;
      else if (call.name === 'edit_file') {
        stats.edits++;
        retry = (call as PlannedCall).retry;
      } else retry = undefined;
      const wire = JSON.stringify([tools, messages]);
      const promptTokens = Math.ceil(wire.length / 4);
      const cachedInputTokens = cache.cachedTokens(wire, promptTokens);
      const completionTokens = Math.ceil(JSON.stringify(call.args).length / 4) + 10;
      stats.turns++;
      stats.promptTokens += promptTokens;
      stats.cachedTokens += cachedInputTokens;
      return {
        content: null,
        toolCalls: [{ id: `call_${stats.turns}`, name: call.name, arguments: JSON.stringify(call.args) }],
        usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, cachedInputTokens },
        model: 'replay',
        finishReason: 'tool_calls',
      };
    },
  };
}

async function replay(c: RealCommit, drift: Drift, work: string, elide = true): Promise<TaskStats> {
  const root = mkdtempSync(path.join(work, `${c.id}-${drift}-`));
  await checkoutParent(c, root);
  const stats: TaskStats = { edits: 0, firstTryOk: 0, turns: 0, promptTokens: 0, cachedTokens: 0, landed: false };
  const toolbox = new AgentToolBox({ root, redact: (t) => t, checks: checksOf(c), checkTimeoutSeconds: 60 });
  const outcome = await runToolLoop(
    { id: c.id, goal: c.message, repo: { url: 'bench' } },
    {
      toolbox,
      repoDir: root,
      context: { text: c.changed.map((f) => `${f}:\n${fileBefore(c, f)}`).join('\n\n'), omitted: [] },
    },
    {
      model: replayModel(plannedCalls(c, drift), stats),
      reviewRounds: 0,
      prices: {},
      contextWindowTokens: 100_000,
      ...(elide ? {} : { elision: false as const }),
      redact: (t) => t,
      log: silentLogger,
      observer: new TaskObserver(
        { record: () => {}, close: async () => {}, report: new TrajectoryReport((t) => t) },
        new TaskBudget({ maxSteps: 60, maxTokens: 1e9, maxCostUsd: 1e9 }),
      ),
    },
  );
  const same = await Promise.all(
    c.changed.map(async (f) => (await readFile(path.join(root, f), 'utf8')) === fileAfter(c, f)),
  );
  stats.landed = outcome.kind === 'finished' && same.every(Boolean);
  return stats;
}

/** How many of the commit's edits an exact-only edit_file (before tiers) takes at the first try. */
function exactOnlyFirstTries(c: RealCommit, drift: Drift): number {
  const files = new Map(c.changed.map((f) => [f, fileBefore(c, f)]));
  let ok = 0;
  for (const e of editsFor(c, drift)) {
    const first = replaceInTiers(files.get(e.path)!, e.old_text, e.new_text, { exactOnly: true });
    if (first.kind === 'replaced') ok++;
    const landed =
      first.kind === 'replaced' ? first : replaceInTiers(files.get(e.path)!, e.retry.old_text, e.retry.new_text);
    if (landed.kind === 'replaced') files.set(e.path, landed.text);
  }
  return ok;
}

const sum = (xs: TaskStats[], k: keyof TaskStats) => xs.reduce((n, s) => n + Number(s[k]), 0);

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-edit-drift-'));
  try {
    const commits = realCommits();
    const byDrift = new Map<Drift, TaskStats[]>();
    for (const drift of DRIFTS) {
      const runs: TaskStats[] = [];
      for (const c of commits) runs.push(await replay(c, drift, work));
      byDrift.set(drift, runs);
    }
    const exact = byDrift.get('exact')!;
    const kept: TaskStats[] = [];
    for (const c of commits) kept.push(await replay(c, 'exact', work, false));
    const perTask = (runs: TaskStats[], k: keyof TaskStats) => sum(runs, k) / runs.length;
    const header = [
      'drift',
      'tasks landed',
      'first-try edits',
      'exact-only matcher',
      'turns/task',
      'tokens/task',
      'cached/task',
      'turns vs exact',
      'tokens vs exact',
      'worst task tokens vs exact',
    ];
    const rows = DRIFTS.map((drift) => {
      const runs = byDrift.get(drift)!;
      const worst = Math.max(...runs.map((r, i) => r.promptTokens / exact[i].promptTokens));
      return [
        drift,
        `${sum(runs, 'landed')}/${runs.length}`,
        `${sum(runs, 'firstTryOk')}/${sum(runs, 'edits')}`,
        `${commits.reduce((n, c) => n + exactOnlyFirstTries(c, drift), 0)}/${sum(runs, 'edits')}`,
        perTask(runs, 'turns').toFixed(1),
        Math.round(perTask(runs, 'promptTokens')).toString(),
        Math.round(perTask(runs, 'cachedTokens')).toString(),
        `${(sum(runs, 'turns') / sum(exact, 'turns')).toFixed(2)}x`,
        `${(sum(runs, 'promptTokens') / sum(exact, 'promptTokens')).toFixed(2)}x`,
        `${worst.toFixed(2)}x`,
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ');
    process.stdout.write([line(header), ...rows.map(line)].join('\n') + '\n');
    const keptTokens = sum(kept, 'promptTokens') / kept.length;
    process.stdout.write(
      `\nexact, old tool outputs kept whole (no elision): ${Math.round(keptTokens)} tokens/task, ` +
        `${Math.round(sum(kept, 'cachedTokens') / kept.length)} cached; with elision ` +
        `${(sum(exact, 'promptTokens') / sum(kept, 'promptTokens')).toFixed(2)}x the tokens.\n`,
    );
    process.stdout.write(
      `\n${commits.length} real commits (${commits.map((c) => c.id).join(', ')}); the reference is the ` +
        `exact-text run of the same commits in this run; "exact-only matcher": the first tries an edit_file ` +
        `matching old_text exactly (as before the tiers) would have taken.\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
