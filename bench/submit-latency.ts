/**
 * How soon a submission is answered on a warm `farm up` (from its bundle, with the task pool launcher so no
 * agent runs and takes the machine): `farm submit --repo <local repo>` one after another, a commit between
 * each (so each fetches into the kept mirror), against `farm submit --help` (the CLI's own start) measured in
 * the same run; then POST /v1/change-requests of that repository, one, and `--concurrent` at once.
 * Build first: `pnpm build`.
 *
 *   node --import tsx bench/submit-latency.ts [--runs 10] [--concurrent 100]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, median, timeProcess, type Timed } from './process-timing';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, concurrent: { type: 'string', default: '100' } },
});
const runs = Number(values.runs);
const concurrent = Number(values.concurrent);
const farm = path.join(ROOT, 'farm');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-submit-bench-'));
  const repo = path.join(tmp, 'repo');
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  git('-c', 'user.name=b', '-c', 'user.email=b@x', 'commit', '-q', '--allow-empty', '-m', 'first');
  const commit = (m: string) =>
    git('-c', 'user.name=b', '-c', 'user.email=b@x', 'commit', '-q', '--allow-empty', '-m', m);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const stateDir = path.join(tmp, 'state');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FARM_STATE_DIR: stateDir,
    FARM_WORK_DIR: path.join(tmp, 'work'),
    FARM_METRICS_PORT: String(port),
    FARM_LAUNCHER: 'pool', // tasks wait on the task topic: the bench measures intake, not agents
    LOG_LEVEL: 'warn',
  };
  for (const v of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_URL', 'FARM_TOKEN']) delete env[v];
  const log = openSync(path.join(tmp, 'farm-up.log'), 'a');
  const up = spawn(farm, ['up'], { env, stdio: ['ignore', log, log] });
  try {
    let token = '';
    for (let i = 0; !token; i++) {
      if (up.exitCode !== null) throw new Error(`farm up exited; see ${tmp}/farm-up.log`);
      try {
        if ((await fetch(`${url}/healthz`)).ok) token = readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
      } catch {
        // not listening yet
      }
      if (i > 600) throw new Error('farm up did not answer within 60 s');
      if (!token) await new Promise((r) => setTimeout(r, 100));
    }
    const cliEnv = { ...process.env, FARM_URL: url, FARM_TOKEN: token, KAFKA_BROKERS: '' };
    const submitArgs = (i: number) => [farm, 'submit', '--repo', repo, '--title', `bench ${i}`];
    spawnSync(submitArgs(0)[0], submitArgs(0).slice(1), { env: cliEnv }); // the mirror's first (full) fetch

    const reference = timeProcess('farm submit --help', [farm, 'submit', '--help'], runs, cliEnv);
    const cli: number[] = [];
    for (let i = 1; i <= runs; i++) {
      commit(`change ${i}`);
      const started = process.hrtime.bigint();
      const r = spawnSync(submitArgs(i)[0], submitArgs(i).slice(1), { env: cliEnv, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`farm submit failed: ${r.stderr}`);
      cli.push(Number(process.hrtime.bigint() - started) / 1e6);
    }

    const post = async (title: string, repoUrl = repo): Promise<number> => {
      const started = process.hrtime.bigint();
      const res = await fetch(`${url}/v1/change-requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ repo: { url: repoUrl, baseRef: 'main' }, title }),
      });
      if (res.status !== 202) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const single: number[] = [];
    for (let i = 0; i < runs; i++) {
      commit(`api ${i}`);
      single.push(await post(`api ${i}`));
    }
    commit('before the burst');
    const burstStarted = process.hrtime.bigint();
    const burst = await Promise.all(Array.from({ length: concurrent }, (_, i) => post(`burst ${i}`)));
    const burstMs = Number(process.hrtime.bigint() - burstStarted) / 1e6;
    // The same burst naming a remote repository: the intake without any mirror, for comparison.
    const remoteStarted = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: concurrent }, (_, i) => post(`remote ${i}`, 'https://git.example.com/app.git')),
    );
    const remoteMs = Number(process.hrtime.bigint() - remoteStarted) / 1e6;

    const row = (label: string, ms: number, ref: number) =>
      `${label.padEnd(44)}${ms.toFixed(0).padStart(10)} ms${(ms / ref).toFixed(1).padStart(8)}x`;
    const ref: Timed = reference;
    process.stdout.write(
      [
        `submit latency on a warm farm up (Node ${process.version}; medians)`,
        row('farm submit --help (reference)', ref.medianMs, ref.medianMs),
        row(`farm submit --repo <local>, ${runs} one by one`, median(cli), ref.medianMs),
        row(`POST, ${runs} one by one`, median(single), ref.medianMs),
        row(`POST, ${concurrent} at once: all accepted after`, burstMs, median(single)),
        row(`POST, ${concurrent} at once: each answered after`, median(burst), median(single)),
        row(`POST of a remote URL, ${concurrent} at once: all after`, remoteMs, median(single)),
        `(the POST rows' ratios are against one POST alone)`,
      ].join('\n') + '\n',
    );
  } finally {
    up.kill('SIGTERM');
    await new Promise((r) => up.once('exit', r));
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
