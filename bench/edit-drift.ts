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
 * Then the hunks of more real commits (agent-farm's own, itsdangerous, requests, ky: clients/patch/testing),
 * each as one edit_file call through the agent's tool with the search text drifted line by line (per-line:
 * what models send; harsh: half the lines, by up to 8 columns), several seeds each: how many edits wrote the
 * commit byte for byte (landed), wrote nothing (refused, with what to resend) or wrote something else
 * (damaged), and the landed ones against the exact-text edits of the same run.
 *
 *   node --import tsx bench/edit-drift.ts [--seeds 10] [--hunks-only]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AgentToolBox, TaskBudget, TaskObserver, TrajectoryReport, runToolLoop } from '@farm/coding-agent';
import type { ConversationMessage, ToolModel, ToolSpec, ToolTurn } from '@farm/llm';
import { replaceInTiers } from '@farm/patch';
import {
  EVERYDAY_DRIFT,
  HARSH_DRIFT,
  NO_DRIFT,
  driftedEdits,
  realHunks,
  tally,
  verdictOf,
  type DriftProfile,
  type EditVerdict,
  type RealHunks,
} from '@farm/patch/testing';
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
  const base = await checkoutParent(c, root);
  const stats: TaskStats = { edits: 0, firstTryOk: 0, turns: 0, promptTokens: 0, cachedTokens: 0, landed: false };
  const toolbox = new AgentToolBox({ root, base, redact: (t) => t, checks: checksOf(c), checkTimeoutSeconds: 60 });
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

/** The base commit of a tree that is no git checkout (never read: nothing there compares with a base). */
const NO_BASE = '0'.repeat(40);

const sum = (xs: TaskStats[], k: keyof TaskStats) => xs.reduce((n, s) => n + Number(s[k]), 0);

/** Each commit's hunks drifted by `profile`, seed by seed, as edit_file calls on the file as it was. */
async function hunkReplays(
  commits: RealHunks[],
  profile: DriftProfile,
  seeds: number,
  work: string,
): Promise<{ edits: { verdict: EditVerdict }[] }[]> {
  const root = mkdtempSync(path.join(work, `hunks-${profile.name}-`));
  // Not a git checkout: edits only, nothing is compared with a base.
  const toolbox = new AgentToolBox({ root, base: NO_BASE, redact: (t) => t, checks: [], checkTimeoutSeconds: 60 });
  const replays: { edits: { verdict: EditVerdict }[] }[] = [];
  for (const c of commits)
    for (let seed = 1; seed <= seeds; seed++) {
      const edits: { verdict: EditVerdict }[] = [];
      for (const { edit, before, after } of driftedEdits(c, profile, seed)) {
        const file = path.join(root, c.path);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, before);
        const { ok } = await toolbox.call('edit_file', JSON.stringify({ path: c.path, ...edit }));
        edits.push({ verdict: verdictOf(ok ? await readFile(file, 'utf8') : null, after) });
      }
      replays.push({ edits });
    }
  return replays;
}

async function printHunks(work: string, seeds: number) {
  const commits = realHunks();
  const profiles = [NO_DRIFT, EVERYDAY_DRIFT, HARSH_DRIFT];
  const counts: ReturnType<typeof tally>[] = [];
  for (const p of profiles) counts.push(tally(await hunkReplays(commits, p, seeds, work)));
  const reference = counts[0];
  const header = ['drift', 'edits', 'landed', 'refused', 'damaged', 'commits all landed', 'landed vs exact'];
  const rows = profiles.map((p, i) => {
    const c = counts[i];
    const edits = c.landed + c.refused + c.damaged;
    return [
      p.name,
      String(edits),
      String(c.landed),
      String(c.refused),
      String(c.damaged),
      `${c.commitsLanded}/${commits.length * seeds}`,
      `${(c.landed / reference.landed).toFixed(2)}x`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ');
  const sources = [...new Set(commits.map((c) => c.source))].join(', ');
  process.stdout.write(
    `\n${commits.length} real commits' hunks (${sources}), ${seeds} seeds each, one edit_file call per hunk:\n` +
      [line(header), ...rows.map(line)].join('\n') +
      `\nlanded: the file byte for byte as the commit made it; refused: nothing written, the model told what to ` +
      `resend; damaged: anything else. The reference is the exact-text edits of this run.\n`,
  );
}

/** The real commits through the agent's loop, per drift of replay-commits. */
async function printLoop(work: string) {
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
}

async function main() {
  const { values } = parseArgs({
    options: { seeds: { type: 'string', default: '10' }, 'hunks-only': { type: 'boolean', default: false } },
  });
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-edit-drift-'));
  try {
    if (!values['hunks-only']) await printLoop(work);
    await printHunks(work, Number(values.seeds));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
