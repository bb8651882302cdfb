/**
 * Real repositories as they are, submitted to `farm up` as a user would (a local clone, its own default branch, no
 * check command, no checks.json, nothing installed by hand): each gets a one-task docs request twice in a row, so
 * the first sets its environment up and the second reuses it. The scripted model plans the task and answers with a
 * new NOTES.md, so what is measured is the farm's own work: clone, environment, the repository's own checks (its
 * install, build and tests, detected), commit, build. Installs may reach the registries
 * (FARM_CHECK_HOST_NETWORK=install). Prints each request's phase and time, against the repository's checks run
 * alone in a clone (the reference, measured in the same run). Build first: `pnpm build`.
 *
 *   node --import tsx bench/real-repositories.ts <repo path or URL>... [--keep]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { planChecks, runChecks } from '@farm/sandbox';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'boolean' } } });
if (!positionals.length) throw new Error('usage: real-repositories.ts <repo path or URL>... [--keep]');
const ROOT = path.resolve(__dirname, '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-real-repos-'));
const NOTES = '--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1,2 @@\n+# Notes\n+Written by the farm.\n';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const script = path.join(tmp, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      chat: [
        {
          match: 'You are the architect',
          repeat: true,
          content: JSON.stringify({
            notes: 'one task',
            items: [
              { id: 'notes', kind: 'docs', goal: 'add NOTES.md', paths: ['NOTES.md'], symbols: [], depends_on: [] },
            ],
          }),
        },
        { repeat: true, answer: { diff: NOTES, reasoning: 'notes' } },
      ],
    }),
  );
  const port = await freePort();
  const state = path.join(tmp, 'state');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FARM_STATE_DIR: state,
    FARM_WORK_DIR: path.join(tmp, 'work'),
    FARM_METRICS_PORT: String(port),
    FARM_CHECK_HOST_NETWORK: 'install',
    FARM_AGENT_STRATEGY: 'diff',
    LOG_LEVEL: 'warn',
  };
  for (const v of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_URL', 'FARM_TOKEN', 'FARM_LAUNCHER', 'FARM_ENVIRONMENTS_DIR'])
    delete env[v];
  const log = openSync(path.join(tmp, 'farm-up.log'), 'a');
  const up = spawn(path.join(ROOT, 'farm'), ['up', '--model-script', script], { env, stdio: ['ignore', log, log] });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (
      let i = 0;
      !(await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (up.exitCode !== null || i > 1200) throw new Error(`farm up did not start; see ${tmp}/farm-up.log`);
      await sleep(100);
    }
    const token = readFileSync(path.join(state, 'admin-token'), 'utf8').trim();
    const call = async (p: string, body?: unknown) => {
      const res = await fetch(`${url}${p}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const rows: string[] = [];
    for (const [n, source] of positionals.entries()) {
      const repo = path.join(tmp, `repo-${n}`);
      execFileSync('git', ['clone', '-q', source, repo]);
      const branch = execFileSync('git', ['-C', repo, 'rev-parse', '--abbrev-ref', 'HEAD'], {
        encoding: 'utf8',
      }).trim();
      // The reference: the repository's own checks in a clone of their own, as the farm plans them.
      const alone = path.join(tmp, `alone-${n}`);
      execFileSync('git', ['clone', '-q', repo, alone]);
      const steps = planChecks(alone, { sharedPythonInstall: true }).steps;
      const started = performance.now();
      const checks = await runChecks(alone, steps, { environments: null, ceilings: { hostNetwork: 'install' } });
      const checksS = (performance.now() - started) / 1000;
      const times: string[] = [];
      for (const round of ['first', 'second']) {
        const t0 = performance.now();
        const { changeRequestId: id } = (await call('/v1/change-requests', {
          title: `Add NOTES.md (${round})`,
          repo: { url: repo, baseRef: branch },
        })) as { changeRequestId: string };
        let request: { phase: string; reason: string } = { phase: 'RECEIVED', reason: '' };
        while (!['DONE', 'FAILED', 'CANCELLED'].includes(request.phase)) {
          await sleep(500);
          request = (await call(`/v1/change-requests/${id}`)).request as typeof request;
        }
        const s = (performance.now() - t0) / 1000;
        times.push(`${request.phase} ${s.toFixed(1)} s (${(s / checksS).toFixed(1)}x)`);
        if (request.phase !== 'DONE') times.push(`  ${request.reason.slice(0, 300)}`);
      }
      rows.push(
        `${source}\n  branch ${branch}; checks: ${steps.map((s) => s.name).join(', ') || 'none'}; alone ${checks.ok ? 'passed' : `failed at ${checks.failed?.name}`} in ${checksS.toFixed(1)} s`,
        ...times.map((t, i) => (t.startsWith('  ') ? `  ${t}` : `  request ${i === 0 ? 1 : 2}: ${t}`)),
      );
    }
    console.log(
      `real repositories on farm up (${os.cpus().length} CPUs, Node ${process.version}); x: against the checks alone\n`,
    );
    console.log(rows.join('\n'));
  } finally {
    up.kill('SIGTERM');
    await new Promise((r) => up.once('exit', r));
    if (values.keep) console.error(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
