/**
 * The tool loop's own cost per step, without the model: replays a scripted trajectory (list, search, find a
 * symbol, read files, edit, read again) through the agent's real loop and tools on real-sized repositories,
 * with a model that answers instantly, and compares it with doing the same reads and writes with plain `fs`
 * in the same process. Prints milliseconds per step and the ratio (tool loop / plain fs), medians of rounds.
 *
 *   node --import tsx bench/tool-loop-overhead.ts [--rounds 5]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AgentToolBox, TaskBudget, TaskObserver, openTrajectory, runToolLoop } from '@farm/coding-agent';
import type { ConversationMessage, ToolModel, ToolTurn } from '@farm/llm';
import { extractSymbols, languageOf } from '@farm/rag';
import { secretRedactor, silentLogger } from '@farm/runtime';

const ROOT = path.resolve(__dirname, '..');

/** The base commit of a tree that is no git checkout (never read: nothing there compares with a base). */
const NO_BASE = '0'.repeat(40);

interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** Source trees of the size agents meet: this repository, eslint's sources, Python's standard library. */
function repositories(work: string): { name: string; dir: string }[] {
  const repos: { name: string; dir: string }[] = [];
  const own = path.join(work, 'agent-farm');
  for (const file of execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n')) {
    if (!statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile()) continue;
    cpSync(path.join(ROOT, file), path.join(own, file));
  }
  repos.push({ name: 'agent-farm (TypeScript)', dir: own });
  const pnpm = path.join(ROOT, 'node_modules/.pnpm');
  const eslint = readdirSync(pnpm).find((d) => /^eslint@9/.test(d));
  if (eslint) {
    const dir = path.join(work, 'eslint');
    cpSync(path.join(pnpm, eslint, 'node_modules/eslint/lib'), path.join(dir, 'lib'), { recursive: true });
    repos.push({ name: 'eslint lib (JavaScript)', dir });
  }
  const python = readdirSync('/usr/lib').find((d) => /^python3\.\d+$/.test(d));
  if (python) {
    const dir = path.join(work, 'python');
    cpSync(path.join('/usr/lib', python), path.join(dir, 'Lib'), {
      recursive: true,
      filter: (src) => !/site-packages|dist-packages|__pycache__|config-3/.test(src),
    });
    repos.push({ name: `${python} stdlib (Python)`, dir });
  }
  return repos;
}

async function sourceFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && e.name !== 'node_modules' && e.name !== '.git') out.push(...(await sourceFiles(dir, p)));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

/** A trajectory an agent could take on the repository: explore, read eight files, edit one, read it again. */
async function scriptFor(
  dir: string,
): Promise<{ calls: ScriptedCall[]; reads: string[]; edit: { path: string; line: string } }> {
  const files = (await sourceFiles(dir)).filter((f) => languageOf(f) !== 'other');
  const sized = await Promise.all(files.map(async (f) => ({ f, size: statSync(path.join(dir, f)).size })));
  const candidates = sized.filter((s) => s.size > 2_000 && s.size < 60_000).map((s) => s.f);
  const step = Math.max(1, Math.floor(candidates.length / 8));
  const reads = candidates.filter((_, i) => i % step === 0).slice(0, 8);
  const text = await readFile(path.join(dir, reads[0]), 'utf8');
  const symbol =
    extractSymbols(reads[0], text).find((s) => s.kind === 'function' || s.kind === 'class')?.name ?? 'main';
  const lines = text.split('\n');
  const line = lines.find((l) => l.trim().length > 20 && lines.filter((x) => x.includes(l)).length === 1)!;
  const calls: ScriptedCall[] = [
    { name: 'list_files', args: {} },
    { name: 'search', args: { pattern: symbol } },
    { name: 'find_symbol', args: { name: symbol } },
    ...reads.map((p) => ({ name: 'read_file', args: { path: p } })),
    { name: 'edit_file', args: { path: reads[0], old_text: line, new_text: `${line} ` } },
    { name: 'read_file', args: { path: reads[0] } },
  ];
  return { calls, reads, edit: { path: reads[0], line } };
}

/** Answers each turn with the next scripted call at once: the loop's time is then all the loop's own. */
function replayModel(calls: ScriptedCall[]): ToolModel {
  let next = 0;
  return {
    model: 'replay',
    async nextTurn(messages: ConversationMessage[]): Promise<ToolTurn> {
      const call = calls[next++ % calls.length];
      const promptTokens = Math.ceil(messages.reduce((n, m) => n + (m.content?.length ?? 0), 0) / 4);
      return {
        content: null,
        toolCalls: [{ id: `call_${next}`, name: call.name, arguments: JSON.stringify(call.args) }],
        usage: { promptTokens, completionTokens: 20, totalTokens: promptTokens + 20 },
        model: 'replay',
        finishReason: 'tool_calls',
      };
    },
  };
}

async function toolLoopRound(dir: string, calls: ScriptedCall[], trajectoryDir: string): Promise<number> {
  const toolbox = new AgentToolBox({
    root: dir,
    base: NO_BASE, // a copy of the sources, not a checkout: the scripted calls compare nothing with a base
    redact: secretRedactor(['sk-bench-secret-value']),
    checks: [],
    checkTimeoutSeconds: 60,
  });
  const trajectory = openTrajectory(trajectoryDir, 'bench', 1);
  const started = performance.now();
  await runToolLoop(
    { id: 'bench', goal: 'bench', repo: { url: 'bench' } },
    { toolbox, repoDir: dir, context: { text: '', omitted: [] } },
    {
      model: replayModel(calls),
      reviewRounds: 0,
      prices: {},
      contextWindowTokens: 100_000,
      redact: (t) => t,
      log: silentLogger,
      observer: new TaskObserver(
        trajectory,
        new TaskBudget({ maxSteps: calls.length, maxTokens: 1e12, maxCostUsd: 1e9 }),
      ),
    },
  );
  const ms = performance.now() - started;
  await trajectory.close();
  return ms;
}

/** The same work with plain fs: walk the tree, grep it twice, read the files, edit one, read it again. */
async function plainFsRound(dir: string, calls: ScriptedCall[], edit: { path: string; line: string }): Promise<number> {
  const started = performance.now();
  const files = await sourceFiles(dir);
  for (const c of calls) {
    if (c.name === 'search' || c.name === 'find_symbol') {
      const re = new RegExp(String(c.args.pattern ?? c.args.name));
      for (const f of files) (await readFile(path.join(dir, f), 'utf8')).split('\n').filter((l) => re.test(l));
    } else if (c.name === 'read_file') await readFile(path.join(dir, String(c.args.path)), 'utf8');
    else if (c.name === 'edit_file') {
      const file = path.join(dir, edit.path);
      await writeFile(file, (await readFile(file, 'utf8')).replace(edit.line, `${edit.line} `));
    }
  }
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
  const rounds = Number(values.rounds);
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-tool-loop-'));
  try {
    await mkdir(path.join(work, 'trajectories'));
    const rows: string[][] = [];
    for (const repo of repositories(work)) {
      const { calls, edit } = await scriptFor(repo.dir);
      const loop: number[] = [];
      const fs: number[] = [];
      await toolLoopRound(repo.dir, calls, path.join(work, 'trajectories')); // warm-up (module and disk caches)
      await plainFsRound(repo.dir, calls, edit);
      for (let r = 0; r < rounds; r++) {
        loop.push(await toolLoopRound(repo.dir, calls, path.join(work, 'trajectories')));
        fs.push(await plainFsRound(repo.dir, calls, edit));
      }
      const files = (await sourceFiles(repo.dir)).length;
      const perStepLoop = median(loop) / calls.length;
      const perStepFs = median(fs) / calls.length;
      rows.push([
        repo.name,
        String(files),
        String(calls.length),
        perStepLoop.toFixed(2),
        perStepFs.toFixed(2),
        `${(perStepLoop / perStepFs).toFixed(2)}x`,
      ]);
    }
    const header = ['repository', 'files', 'steps', 'tool loop ms/step', 'plain fs ms/step', 'ratio'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
    process.stdout.write([line(header), ...rows.map(line)].join('\n') + '\n');
    process.stdout.write(
      `\nmedian of ${rounds} rounds; the model answers instantly, so the tool loop's time is its own (tools, ` +
        `safety checks, redaction, bounding, conversation upkeep, trajectory).\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
