/**
 * The farm's throughput: N one-task requests (a one-line change to a repository without checks; the scripted
 * model answers at once, so what remains is the farm's own cost) submitted at once to `farm up` (from its
 * bundle, a separate process, as a user runs it): the embedded farm (in-process bus, PGlite), or with
 * --kafka the same farm on Kafka and PostgreSQL (KAFKA_BROKERS / DATABASE_URL, or local ones started here;
 * a fresh database and topic prefix either way). Reports p50/p95 time to DONE, requests per minute, CPU
 * seconds per request of farm up and every process it started, and peak resident memory of farm up alone and
 * of its whole process tree, against one request alone on the same warm farm, measured first in the same run.
 * The model server runs in this process, so its CPU is not counted. Build first: `pnpm build`.
 *
 *   node --import tsx bench/farm-throughput.ts [N=100] [--kafka] [--launcher process|pool] [--timeout-s 1800] [--keep]
 *     [--cpu-prof <dir>]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { bundlePath } from '@farm/runtime';
import { startKafka, startPostgres } from '../scripts/local-services';
import { ROOT, percentile, timeProcess } from './process-timing';
import { oneTaskFixture } from './one-task-fixture';
import { ownCpuS, peakRssMiB, treeCpuS, watchTreeMemory } from './process-tree';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    kafka: { type: 'boolean', default: false },
    'timeout-s': { type: 'string', default: '1800' },
    keep: { type: 'boolean', default: false },
    /** How farm up runs the agents: a process per task (the default) or its local pool of warm workers. */
    launcher: { type: 'string', default: 'process' },
    /** Runs farm up under `node --cpu-prof` and leaves its profile in this directory (open it in Chrome DevTools). */
    'cpu-prof': { type: 'string' },
  },
});
const N = Number(positionals[0] ?? 100);
const timeoutMs = Number(values['timeout-s']) * 1000;
const farmBin = path.join(ROOT, 'farm');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Services {
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** Kafka and a fresh PostgreSQL database for --kafka: the given ones (KAFKA_BROKERS, DATABASE_URL) or local ones. */
async function kafkaServices(run: string): Promise<Services> {
  const stops: (() => Promise<void>)[] = [];
  let brokers = process.env.KAFKA_BROKERS ?? '';
  if (!brokers) {
    const kafka = await startKafka();
    stops.push(() => kafka.stop());
    brokers = kafka.brokers;
  }
  let server = process.env.DATABASE_URL ?? '';
  if (!server) {
    const pg = await startPostgres();
    stops.push(() => pg.stop());
    server = pg.url;
  }
  const database = `farm_bench_${run}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: server });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${database}`);
  stops.unshift(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  const url = new URL(server);
  url.pathname = `/${database}`;
  return {
    env: { KAFKA_BROKERS: brokers, DATABASE_URL: url.toString(), FARM_TOPIC_PREFIX: `bench-${run}.` },
    async stop() {
      for (const stop of stops) await stop().catch((err: unknown) => process.stderr.write(`${String(err)}\n`));
    },
  };
}

interface Farm {
  process: ChildProcess;
  url: string;
  token: string;
}

async function startFarm(env: NodeJS.ProcessEnv, stateDir: string, logFile: string, url: string): Promise<Farm> {
  const log = openSync(logFile, 'a');
  const profile = values['cpu-prof'];
  const [command, args] = profile
    ? [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`, bundlePath('cli'), 'up']]
    : [farmBin, ['up']];
  const up = spawn(command, args, { env, stdio: ['ignore', log, log] });
  const giveUp = (why: string) => {
    up.kill('SIGKILL'); // the caller never gets it to stop
    return new Error(why);
  };
  for (let i = 0; ; i++) {
    if (up.exitCode !== null) throw new Error(`farm up exited; see ${logFile}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) {
        return { process: up, url, token: readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim() };
      }
    } catch {
      // not listening yet
    }
    if (i > 1200) throw giveUp(`farm up did not answer within 120 s; see ${logFile}`);
    await sleep(100);
  }
}

interface RequestTimes {
  id: string;
  submittedMs: number;
  /** When it reached its final phase (the request's updated_at), or undefined while running. */
  endedMs?: number;
  phase?: string;
}

const FINAL = new Set(['DONE', 'FAILED', 'CANCELLED']);

/** Submits `count` requests at once (at most `inFlight` POSTs open) and waits until each has ended. */
async function runRequests(farm: Farm, repo: string, count: number, label: string): Promise<RequestTimes[]> {
  const api = (p: string, init?: RequestInit) =>
    fetch(`${farm.url}${p}`, {
      ...init,
      headers: { authorization: `Bearer ${farm.token}`, 'content-type': 'application/json' },
    });
  const requests: RequestTimes[] = [];
  const inFlight = 20;
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < count; i = next++) {
        const submittedMs = Date.now();
        const res = await api('/v1/change-requests', {
          method: 'POST',
          body: JSON.stringify({ repo: { url: repo, baseRef: 'main' }, title: `${label} ${i}`, description: 'bench' }),
        });
        if (res.status !== 202) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
        const { changeRequestId } = (await res.json()) as { changeRequestId: string };
        requests.push({ id: changeRequestId, submittedMs });
      }
    }),
  );
  const byId = new Map(requests.map((r) => [r.id, r]));
  const record = (s: { id: string; phase: string; updatedAt: string }) => {
    const r = byId.get(s.id);
    if (r && r.endedMs === undefined && FINAL.has(s.phase)) {
      r.endedMs = Date.parse(s.updatedAt);
      r.phase = s.phase;
    }
  };
  const deadline = Date.now() + timeoutMs;
  // The list answers the newest 500; older requests still running are asked for one by one, a few a round.
  let older = 0;
  for (;;) {
    const list = (await (await api('/v1/change-requests?limit=500')).json()) as {
      changeRequests: { id: string; phase: string; updatedAt: string }[];
    };
    list.changeRequests.forEach(record);
    const listed = new Set(list.changeRequests.map((s) => s.id));
    const unlisted = requests.filter((r) => r.endedMs === undefined && !listed.has(r.id));
    for (const r of unlisted.slice(older % Math.max(1, unlisted.length)).slice(0, 20)) {
      const res = await api(`/v1/change-requests/${r.id}`);
      if (res.ok)
        record({ id: r.id, ...((await res.json()) as { request: { phase: string; updatedAt: string } }).request });
    }
    older += 20;
    const running = requests.filter((r) => r.endedMs === undefined).length;
    if (!running) return requests;
    if (Date.now() > deadline) throw new Error(`${running} of ${count} requests still running after the timeout`);
    // Each request's end is its updated_at, not when it was seen: polling seldom costs the farm less CPU.
    await sleep(3000);
  }
}

async function main(): Promise<void> {
  const run = `${Date.now()}`;
  const services = values.kafka ? await kafkaServices(run) : undefined;
  const port = await freePort();
  const { tmp, repo, model, env } = await oneTaskFixture('farm-throughput', port);
  const stateDir = env.FARM_STATE_DIR!;
  // The embedded farm unless --kafka.
  Object.assign(env, services?.env);
  if (!['process', 'pool'].includes(values.launcher!)) throw new Error('--launcher is process or pool');
  env.FARM_LAUNCHER = values.launcher;
  let farm: Farm | undefined;
  try {
    // A second reference: what starting one agent process costs (its bundle, without a task), as agent-start.
    const agentStart = timeProcess('agent start', [process.execPath, bundlePath('agent-job')], 5, {
      ...process.env,
      FARM_TASK: '',
      LOG_LEVEL: 'error',
    });
    const startedAt = Date.now();
    farm = await startFarm(env, stateDir, path.join(tmp, 'farm-up.log'), `http://127.0.0.1:${port}`);
    const pid = farm.process.pid!;
    const upMs = Date.now() - startedAt;

    // The reference: one request alone on the warm farm (after one to warm it: mirror, caches).
    await runRequests(farm, repo, 1, 'warm-up');
    const cpu0 = treeCpuS(pid);
    const [alone] = await runRequests(farm, repo, 1, 'alone');
    // A bench of requests that fail measures failing; the reference must be a request that succeeds.
    if (alone.phase !== 'DONE')
      throw new Error(
        `the reference request ${alone.id} ended ${alone.phase}, not DONE; see ${path.join(tmp, 'farm-up.log')}`,
      );
    const aloneCpu = treeCpuS(pid) - cpu0;
    const aloneMs = alone.endedMs! - alone.submittedMs;

    const memory = watchTreeMemory(pid);
    const cpu1 = treeCpuS(pid);
    const own1 = ownCpuS(pid);
    const burstStarted = Date.now();
    const requests = await runRequests(farm, repo, N, 'burst');
    const cpu = treeCpuS(pid) - cpu1;
    const own = ownCpuS(pid) - own1;
    const peak = memory.stop();
    const wallMs = Math.max(...requests.map((r) => r.endedMs!)) - burstStarted;
    const latencies = requests.map((r) => r.endedMs! - r.submittedMs);
    const failed = requests.filter((r) => r.phase !== 'DONE').length;
    const farmPeak = peakRssMiB(pid);

    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const perMin = (N / wallMs) * 60_000;
    const line = (label: string, value: string, ratio = '') =>
      `${label.padEnd(44)}${value.padStart(14)}${ratio.padStart(12)}`;
    const x = (v: number, ref: number) => `${(v / ref).toFixed(1)}x`;
    process.stdout.write(
      [
        `farm throughput: ${N} one-task requests at once, ${values.kafka ? 'on Kafka + PostgreSQL' : 'embedded (in-process bus, PGlite)'}, agents: ${values.launcher === 'pool' ? "farm up's local pool" : 'a process per task'}`,
        `(${os.cpus().length} CPUs, Node ${process.version}; farm up ready in ${(upMs / 1000).toFixed(1)} s)`,
        line('', 'value', 'x ref'),
        line('reference: one request alone, to DONE', `${(aloneMs / 1000).toFixed(2)} s`, '1.0x'),
        line('reference: its CPU (farm tree)', `${aloneCpu.toFixed(2)} s`),
        line('reference: one agent process start', `${(agentStart.medianMs / 1000).toFixed(2)} s`),
        line(`all ${N} ended after`, `${(wallMs / 1000).toFixed(1)} s`, x(wallMs, aloneMs)),
        line('requests per minute', perMin.toFixed(1), x(perMin, 60_000 / aloneMs)),
        line('time to DONE, p50', `${(p50 / 1000).toFixed(1)} s`, x(p50, aloneMs)),
        line('time to DONE, p95', `${(p95 / 1000).toFixed(1)} s`, x(p95, aloneMs)),
        line('CPU per request (farm up + children)', `${(cpu / N).toFixed(2)} s`, x(cpu / N, aloneCpu)),
        line('  of which farm up itself', `${(own / N).toFixed(2)} s`),
        line('  in agent process starts', (cpu / N / (agentStart.medianMs / 1000)).toFixed(1)),
        line('peak RSS, farm up', `${farmPeak.toFixed(0)} MiB`),
        line('peak RSS, farm up + children (sampled)', `${peak.tree.toFixed(0)} MiB`),
        line('most processes at once (sampled)', String(peak.processes)),
        ...(failed ? [line('requests not DONE', String(failed))] : []),
        `(requests/min's reference: one alone, back to back; CPU's: the lone request's)`,
      ].join('\n') + '\n',
    );
    if (failed) {
      process.stderr.write(
        `${failed} of ${N} requests did not end DONE: the figures above are not of working requests\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    if (farm && farm.process.exitCode === null) {
      farm.process.kill('SIGTERM');
      await new Promise((r) => farm!.process.once('exit', r));
    }
    await model.close();
    await services?.stop();
    if (values.keep) process.stderr.write(`kept ${tmp}\n`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
