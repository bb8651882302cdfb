/**
 * What a shared environment saves: a real repository's checks (its detected plan: install, then its tests) in
 * fresh clones, each installing its own (the reference, as before), against the same with a store (environments.ts):
 * the first clone sets the environment up (cold), the next ones reuse it (warm), and N clones at once share one
 * set-up. The install asks for the host network (FARM_CHECK_HOST_NETWORK=install), so the registry must answer.
 *
 *   node --import tsx bench/shared-environment.ts <git url or path> [--runs 3] [--concurrent 4]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EnvironmentStore, planChecks, runChecks, type ChecksResult } from '@farm/sandbox';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '3' }, concurrent: { type: 'string', default: '4' } },
});
const repo = positionals[0];
if (!repo) throw new Error('usage: shared-environment.ts <git url or path> [--runs 3] [--concurrent 4]');
const runs = Number(values.runs);
const tmp = mkdtempSync(path.join(tmpdir(), 'farm-bench-env-'));
let clones = 0;
const clone = () => {
  const dir = path.join(tmp, `clone-${++clones}`);
  execFileSync('git', ['clone', '-q', '--depth', '1', repo, dir]);
  return dir;
};

async function checks(dir: string, store: EnvironmentStore | null): Promise<{ s: number; result: ChecksResult }> {
  const steps = planChecks(dir).steps;
  const started = performance.now();
  const result = await runChecks(dir, steps, { environments: store, ceilings: { hostNetwork: 'install' } });
  return { s: (performance.now() - started) / 1000, result };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (label: string, s: number, ref: number) =>
  console.log(`${label.padEnd(44)} ${s.toFixed(1).padStart(7)} s  ${(s / ref).toFixed(2)}x`);

async function main(): Promise<void> {
  try {
    const plan = planChecks(clone());
    console.log(`${repo}: ${plan.steps.map((s) => `${s.name} (${s.run})`).join(', ')}`);
    const own: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { s, result } = await checks(clone(), null);
      if (!result.ok) console.log(`  each installing: ${result.failed?.name} failed:\n${result.failed?.output}`);
      own.push(s);
    }
    const store = new EnvironmentStore({ root: path.join(tmp, 'store') });
    const cold = await checks(clone(), store);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push((await checks(clone(), store)).s);
    const fresh = new EnvironmentStore({ root: path.join(tmp, 'store-concurrent') });
    const dirs = Array.from({ length: Number(values.concurrent) }, clone);
    const started = performance.now();
    const together = await Promise.all(dirs.map((d) => checks(d, fresh)));
    const wall = (performance.now() - started) / 1000;
    const ref = median(own);
    console.log(`\nchecks of one clone, median of ${runs} (reference: each clone installs its own)`);
    line('each installing its own (reference)', ref, ref);
    line(`shared, cold (${cold.result.steps[0]?.environment?.how ?? 'no install'})`, cold.s, ref);
    line('shared, warm (reused)', median(warm), ref);
    line(`${dirs.length} clones at once, shared (wall)`, wall, ref);
    const how = together.map((t) => t.result.steps[0]?.environment?.how).join(', ');
    console.log(`  at once: ${how}; all passed: ${together.every((t) => t.result.ok)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
