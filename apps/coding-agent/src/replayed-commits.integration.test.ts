// Real commits of a Node (leven) and a Python (markupsafe) project replayed through the tool loop with the
// drifts real models produce: the real openai client against the scripted model server, the real tools over a
// git checkout, the commit's own check in the sandbox. Also the diff strategy's patch application on them.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatPatch, structuredPatch } from 'diff';
import { createToolModel } from '@farm/llm';
import { applyModelEdit, PatchRejected } from '@farm/patch';
import { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import {
  checkoutParent,
  checksOf,
  fileAfter,
  fileBefore,
  plannedCalls,
  realCommits,
  type Drift,
  type RealCommit,
} from '../testing/replay-commits';
import { DEFAULT_BUDGET, TaskBudget } from './task-budget';
import { TaskObserver } from './task-observer';
import { TrajectoryReport } from './trajectory-report';
import { runToolLoop } from './tool-loop';
import { AgentToolBox } from './tools/agent-tools';

let server: ScriptedModelServer;
let tmp: string;
beforeAll(async () => {
  server = await startScriptedModelServer({ script: { chat: [] } });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'replayed-commits-'));
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

const COMMITS = realCommits();
const commit = (id: string) => COMMITS.find((c) => c.id === id)!;
let n = 0;

/** What retrieval would put in the task block: the files the commit changes, as they were. */
const retrieved = (c: RealCommit) => c.changed.map((f) => `${f}:\n${fileBefore(c, f)}`).join('\n\n');

/** The commit replayed through the tool loop with the scripted model sending `drift`ed edits. */
async function replay(c: RealCommit, drift: Drift, kind?: farm.v1.TaskKind) {
  const root = path.join(tmp, `${c.id}-${drift}-${n++}`);
  const base = await checkoutParent(c, root);
  server.setScript({
    chat: plannedCalls(c, drift).map((p) => ({ toolCalls: [{ name: p.name, arguments: p.args }] })),
  });
  const events: (Record<string, unknown> & { event: string })[] = [];
  const observer = new TaskObserver(
    {
      record: (event, data) => void events.push({ event, ...data }),
      close: async () => {},
      report: new TrajectoryReport((t) => t),
    },
    new TaskBudget(DEFAULT_BUDGET),
  );
  const toolbox = new AgentToolBox({ root, base, redact: (t) => t, checks: checksOf(c), checkTimeoutSeconds: 60 });
  const outcome = await runToolLoop(
    { id: `${c.id}-${drift}`, goal: c.message, repo: { url: 'unused' }, ...(kind ? { kind } : {}) },
    { toolbox, repoDir: root, context: { text: retrieved(c), omitted: [] } },
    {
      model: createToolModel({ baseURL: server.baseURL, apiKey: 'test', model: 'coder', maxRetries: 0 }),
      reviewRounds: 0,
      prices: {},
      contextWindowTokens: 100_000,
      redact: (t) => t,
      log: silentLogger,
      observer,
    },
  );
  const edits = events.filter((e) => e.event === 'tool' && e.tool === 'edit_file');
  const files = Object.fromEntries(
    await Promise.all(c.changed.map(async (f) => [f, await readFile(path.join(root, f), 'utf8')] as const)),
  );
  return { outcome, edits, files, events, usage: observer.budget.usage, steps: observer.budget.steps };
}

describe.each(COMMITS.map((c) => [c.id, c] as const))('replaying %s', (_id, c) => {
  test.each(['whitespace', 'minimal'] as const)(
    '%s search text lands at the first edit, as the commit did',
    async (drift) => {
      const run = await replay(c, drift);
      expect(run.outcome).toMatchObject({ kind: 'finished', summary: c.message });
      expect(run.edits.length).toBeGreaterThan(0);
      expect(run.edits.map((e) => e.ok)).toEqual(run.edits.map(() => true)); // every edit on its first try
      if (drift === 'whitespace') expect(run.edits.every((e) => e.match !== 'exact')).toBe(true);
      for (const f of c.changed) expect(run.files[f]).toBe(fileAfter(c, f));
    },
  );
});

test.each(['leven-prefix-trimming', 'markupsafe-collapse-spaces'])(
  '%s: a multi-hunk change with drifted whitespace takes as many model turns and under 1.5x the tokens',
  async (id) => {
    const c = commit(id);
    const exact = await replay(c, 'exact');
    const from = server.requests.length;
    const drifted = await replay(c, 'whitespace');
    const requests = server.requests.slice(from);
    // the rules and the task come first and never change, so an endpoint's prompt cache reuses them
    for (const r of requests) expect(r.messages.slice(0, 2)).toEqual(requests[0].messages.slice(0, 2));
    // by the 9th call (the 4-hunk change), reads four turns old are a stub naming the file and range to read again
    const elided = (r: (typeof requests)[number]) => JSON.stringify(r.messages).includes('[elided: read_file ');
    expect(requests.findIndex(elided)).toBe(requests.length > 8 ? 8 : -1);
    if (requests.length > 8)
      expect(JSON.stringify(requests[8].messages)).toMatch(
        /\[elided: read_file index\.js lines 2\d-8\d gave \d+ characters 7 turns ago/,
      );
    expect(exact.edits.length).toBeGreaterThanOrEqual(3);
    expect(drifted.edits.every((e) => e.ok)).toBe(true);
    expect(drifted.steps).toBe(exact.steps);
    expect(drifted.usage.totalTokens).toBeLessThanOrEqual(1.5 * exact.usage.totalTokens);
    // the conversation's start was served from the (simulated) prompt cache and counted as such
    expect(drifted.usage.cachedInputTokens).toBeGreaterThan(0);
  },
);

describe('the diff strategy on a real commit', () => {
  const c = commit('leven-prefix-trimming');
  const before = fileBefore(c, 'index.js');
  const after = fileAfter(c, 'index.js');
  /** The commit as a unified diff with `context` lines, its line numbers `off` by some lines. */
  const diffOf = (context: number, off: number) => {
    const patch = structuredPatch('a/index.js', 'b/index.js', before, after, '', '', { context });
    for (const h of patch.hunks) {
      h.oldStart += off;
      h.newStart += off;
    }
    return formatPatch(patch);
  };

  test('a context-free hunk with a wrong line number is rejected, not applied silently', async () => {
    const root = path.join(tmp, `diff-${n++}`);
    await checkoutParent(c, root);
    const err = await applyModelEdit(root, diffOf(0, 3)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PatchRejected);
    expect((err as PatchRejected).message).toMatch(
      /no context lines and removes none, so its place .* cannot be verified/,
    );
    expect(await readFile(path.join(root, 'index.js'), 'utf8')).toBe(before);
  });

  test('the same change with context lands where the commit put it, and says the line numbers were off', async () => {
    const root = path.join(tmp, `diff-${n++}`);
    await checkoutParent(c, root);
    const applied = await applyModelEdit(root, diffOf(3, 3));
    expect(applied.fuzz).toEqual(['line-offset']);
    expect(await readFile(path.join(root, 'index.js'), 'utf8')).toBe(after);
  });
});

test('a real commit that adds tests (markupsafe) has them run on the base and on the branch, and the result recorded', async () => {
  const c = commit('markupsafe-collapse-spaces');
  const R = farm.v1.TestRunOutcome;
  // The commit's check command (not narrowed to the test file) already passes on the base: recorded as such.
  const run = await replay(c, 'exact');
  expect(run.outcome).toMatchObject({ kind: 'finished' });
  const verification = run.outcome.kind === 'finished' ? run.outcome.verification : undefined;
  expect(verification?.differential).toMatchObject({
    testFiles: ['tests/test_markupsafe.py'],
    base: R.TEST_RUN_PASSED,
    branch: R.TEST_RUN_PASSED,
  });
  // As a behaviour goal (FEATURE) the same change is not done: its tests do not fail without it.
  const feature = await replay(c, 'exact', farm.v1.TaskKind.FEATURE);
  expect(feature.outcome.kind).not.toBe('finished');
  const finish = feature.events.find((e) => e.event === 'tool' && e.tool === 'finish');
  expect(finish).toMatchObject({ ok: false, result: expect.stringMatching(/not verified: .*pass on the base commit/) });
});
