// schemathesis (installed by scripts/test.sh) fuzzes the real HTTP API against openapi.yaml: every answer must
// match the document, every input it allows must be accepted and every other refused, and nothing may be a
// 500 (NUL bytes, huge numbers, odd encodings), also over sequences of calls (the stateful phase). The API
// runs on PostgreSQL (a schema of its own) and the in-process bus with the orchestrator alone: no planner or
// agent listens, so a fuzzed request is received, waits in PLANNING (or is cancelled) and nothing fetches its
// repository. schemathesis talks to 127.0.0.1 only, without proxies or redirects.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InProcessBus } from '@farm/bus';
import { createLogger, serveMetrics, silentLogger } from '@farm/runtime';
import { OPENAPI_FILE, storeInOwnSchema, testApiAccess } from '../testing';
import { GiteaWebhooks } from '@farm/forge';
import { changeRequestApi } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';

const ROOT = path.join(__dirname, '..', '..', '..');
const SCHEMATHESIS = process.env.SCHEMATHESIS_BIN ?? path.join(ROOT, '.cache', 'schemathesis', 'bin', 'schemathesis');
const REPORT = path.join(ROOT, '.cache', 'schemathesis-report.txt');

// A fixed seed and a bounded number of examples per operation: the same ~3,500 cases each run, about a minute
// on two cores (the fixed seed makes more examples add little from one run to the next). The stateful phase chains submit, status, events and cancel through the links it infers.
const ARGS = [
  ...['--checks', 'all', '--phases', 'examples,coverage,fuzzing,stateful'],
  ...['--seed', '20240611', '--max-examples', '150', '--workers', '1'],
  ...['--request-timeout', '10', '--max-redirects', '0', '--generation-database', 'none', '--no-color'],
];

test('schemathesis finds no failure in the HTTP API against openapi.yaml', async () => {
  if (!existsSync(SCHEMATHESIS)) {
    throw new Error(`schemathesis is not installed at ${SCHEMATHESIS}: scripts/test.sh installs it`);
  }
  const { store, drop } = await storeInOwnSchema('http_fuzz');
  const bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const errors: string[] = [];
  const log = createLogger('http-api-fuzz', { level: 'error', write: (line) => void errors.push(line) });
  // Streams of requests that never end (nothing plans them) are cut after 0.3 s: schemathesis reads
  // each answer to its end.
  // Fuzzed as FARM_ADMIN_TOKEN, which no fuzzed revoke can take away (schemathesis also checks that each
  // operation refuses a call without a token).
  const adminToken = `farm_${randomBytes(32).toString('base64url')}`;
  const { access } = await testApiAccess(store, { FARM_ADMIN_TOKEN: adminToken });
  // The forge's webhook route too: schemathesis cannot sign a delivery, so it sees it refuse every one (401).
  const forgeWebhooks = { webhooks: new GiteaWebhooks(), secret: randomBytes(16).toString('hex'), ratePerMinute: 1000 };
  const api = changeRequestApi({
    store,
    orchestrator,
    log,
    access,
    events: { pollMs: 100, maxStreamMs: 300 },
    forgeWebhooks,
  });
  const server = await serveMetrics(0, silentLogger, api);
  const cwd = mkdtempSync(path.join(tmpdir(), 'schemathesis-'));
  try {
    await orchestrator.start();
    const run = await runSchemathesis(`http://127.0.0.1:${server.port}`, cwd, adminToken);
    writeFileSync(REPORT, run.output);
    if (run.code !== 0) throw new Error(`schemathesis failed (exit ${run.code}):\n${run.output}`);
    const cases = /(\d+) generated, (\d+) passed/.exec(run.output);
    expect(Number(cases?.[2])).toBeGreaterThan(1000);
    expect(run.output).toMatch(/✅ Stateful/);
    console.log(`schemathesis: ${cases?.[0]} in ${(run.ms / 1000).toFixed(0)} s (report in ${REPORT})`);
    expect(errors).toEqual([]);
    // Only the orchestrator ran: nothing went past planning.
    // Every submission the API accepted, the orchestrator admitted too (one validator): none was refused.
    const phases = await store.query<{ phase: string; reason: string }>(
      `SELECT phase, reason FROM change_requests WHERE phase NOT IN ('RECEIVED', 'PLANNING', 'CANCELLED') LIMIT 5`,
    );
    expect(phases.rows).toEqual([]);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    await orchestrator.stop();
    await server.close();
    await bus.close();
    await store.close();
    await drop();
  }
}, 600_000);

async function runSchemathesis(
  url: string,
  cwd: string,
  token: string,
): Promise<{ code: number | null; output: string; ms: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_PROXY: '*', no_proxy: '*' };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) {
    delete env[name];
  }
  const started = Date.now();
  const auth = ['--header', `Authorization: Bearer ${token}`];
  const child = spawn(SCHEMATHESIS, ['run', OPENAPI_FILE, '--url', url, ...auth, ...ARGS], { cwd, env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, output, ms: Date.now() - started };
}
