// A machine with both cores saturated is slow, not unable: under many busy processes the sandbox's probe still
// answers what the machine can confine (the same as a fresh process finds without the load), and a sandboxed
// command still runs confined. Each busy process dies at the end (its process group, timeout and the loop under it)
// and with coreutils timeout if this one is killed: killing `timeout` alone left the loops spinning for the rest of
// the test run (16 at load 18 for an hour).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { confinementStatus, runSandboxed } from './sandbox';

const exec = promisify(execFile);
/** Eight busy loops a core: the run-queue of the measured load 40 (a sandboxed echo then took 5.5 s median). */
const BUSY = 8 * Math.max(1, cpus().length);
const busy: ChildProcess[] = [];
// Both probes run theirs: a verdict shared by another process would answer without probing under the load.
process.env.FARM_SANDBOX_VERDICT_DIR = 'off';

/** What a fresh process finds without the load: the answer the loaded probe must give too. */
async function statusWithoutLoad(): Promise<unknown> {
  const { stdout } = await exec(process.execPath, [
    '--import',
    'tsx',
    '-e',
    "const m = require('./clients/sandbox/src/sandbox.ts'); m.confinementStatus().then((s) => console.log(JSON.stringify({ isolation: s.isolation, missing: s.missing })));",
  ]);
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/** Whether any process of the group `pgid` is left. */
const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(async () => {
  for (const p of busy) if (p.pid) process.kill(-p.pid, 'SIGKILL');
  for (let i = 0; i < 100 && busy.some((p) => p.pid && groupAlive(p.pid)); i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(busy.filter((p) => p.pid && groupAlive(p.pid))).toEqual([]);
});

test('under eight busy loops a core the probe answers as without them, and a command runs confined', async () => {
  const unloaded = await statusWithoutLoad();
  for (let i = 0; i < BUSY; i++)
    busy.push(
      spawn('timeout', ['-s', 'KILL', '600', process.execPath, '-e', 'for (;;) {}'], {
        stdio: 'ignore',
        detached: true,
      }),
    );
  const status = await confinementStatus();
  expect({ isolation: status.isolation, missing: status.missing }).toEqual(unloaded);
  const checkout = mkdtempSync(join(tmpdir(), 'loaded-'));
  try {
    const result = await runSandboxed({ command: 'echo confined', cwd: checkout, timeoutMs: 120_000 });
    expect(result.output).toContain('confined');
    expect(result.exitCode).toBe(0);
    expect(result.isolation).toEqual(status.isolation);
  } finally {
    rmSync(checkout, { recursive: true, force: true });
  }
});
