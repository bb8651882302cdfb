// `farm eval` end to end on one machine: the shipped instances (cachetools with unittest, shortuuid with pytest) through the embedded farm with the
// scripted model, judged by their own tests; a run interrupted and resumed; two runs compared; instances that
// cannot be set up reported as errors; a 50 MB problem statement that is its instance's error only; and a canary
// proving no byte of a test patch or gold patch reaches the model.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@farm/runtime';
import { loadModelScript, startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import { embeddedFarm, embeddedFarmEnv } from './eval-farm';
import type { InstanceResult } from './instance-result';
import { parseInstances } from './instances';
import { parsePredictions } from './predictions';
import { runEval, type EvalRunOptions } from './run-eval';
import { readResults } from './run-results';

const exec = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..', '..');
const SET = path.join(ROOT, 'eval', 'datasets', 'swe-mini');
const FARM_BIN = path.join(ROOT, 'apps', 'cli', 'bin', 'farm');
const CANARY = 'CANARY-farm-eval-7f3c1e9a-never-shown-to-a-model';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Every byte any model call sent, whatever the scripted server answers (it does not record refused calls). */
async function recordingProxy(target: string): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(`${req.method} ${req.url}\n${body.toString('utf8')}`);
      const upstream = httpRequest(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}${to.pathname}`, bodies, server };
}

/**
 * The shipped set with a canary in every test patch and gold patch (a file of its own, so the patches still
 * apply), plus two instances that cannot judge an agent: a base commit that is not in the repository, and
 * tests that already pass at the base.
 */
async function datasetWithCanaryAndBrokenInstances(dir: string): Promise<string> {
  const shipped = parseInstances(await readFile(path.join(SET, 'instances.jsonl'), 'utf8'));
  const canaryFile = (name: string) =>
    `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+${CANARY}\n`;
  const lines = shipped.map((i) => ({
    ...i,
    repo_path: path.join(SET, i.repo_path!),
    test_patch: i.test_patch + canaryFile('tests/canary.txt'),
    patch: (i.patch ?? '') + canaryFile('canary-gold.txt'),
    FAIL_TO_PASS: JSON.stringify(i.FAIL_TO_PASS),
    PASS_TO_PASS: JSON.stringify(i.PASS_TO_PASS),
  }));
  const first = lines[0];
  lines.push({
    ...first,
    instance_id: 'broken__missing-base-1',
    base_commit: '0123456789abcdef0123456789abcdef01234567',
    problem_statement: 'MISSING-BASE instance',
  });
  lines.push({
    ...first,
    instance_id: 'broken__passes-at-base-2',
    problem_statement: 'PASSES-AT-BASE instance',
    FAIL_TO_PASS: JSON.stringify([shipped[0].PASS_TO_PASS[0]]),
  });
  const file = path.join(dir, 'instances.jsonl');
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('farm eval on the shipped instances, embedded farm, scripted model', () => {
  let tmp: string;
  let dataset: string;
  let shippedIds: string[];
  const log = createLogger('farm-eval-test', { level: 'warn' });
  const servers: { close(): unknown }[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-eval-'));
    dataset = await datasetWithCanaryAndBrokenInstances(tmp);
    shippedIds = parseInstances(await readFile(path.join(SET, 'instances.jsonl'), 'utf8')).map((i) => i.instance_id);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await rm(tmp, { recursive: true, force: true });
  });

  async function model(script: string): Promise<{ model: ScriptedModelServer; bodies: string[]; url: string }> {
    const model = await startScriptedModelServer({ script: await loadModelScript(path.join(SET, 'scripts', script)) });
    const proxy = await recordingProxy(model.baseURL);
    servers.push(model, { close: () => new Promise((r) => proxy.server.close(r)) });
    return { model, bodies: proxy.bodies, url: proxy.url };
  }

  const options = (runId: string, modelUrl: string, over: Partial<EvalRunOptions> = {}): EvalRunOptions => ({
    dataset,
    runId,
    evalDir: path.join(tmp, 'runs'),
    modelName: `scripted-${runId}`,
    concurrency: 2,
    instanceTimeoutS: 300,
    testTimeoutS: 120,
    log,
    startFarm: (layout) =>
      embeddedFarm(
        embeddedFarmEnv(
          {
            ...process.env,
            OPENAI_BASE_URL: modelUrl,
            OPENAI_API_KEY: 'eval-test',
            FARM_PLANNER_MODEL: 'scripted-planner',
            FARM_MODEL: 'scripted-agent',
            FARM_LLM_MAX_RETRIES: '0',
            KAFKA_BROKERS: '',
            DATABASE_URL: '',
            FARM_LAUNCHER: 'process',
          },
          layout,
        ),
        log,
      ),
    ...over,
  });

  test('a run interrupted after its first result resumes without re-running it; the resolved counts are the known answers; no canary reaches the model', async () => {
    const a = await model('agent-a.json');
    const abort = new AbortController();
    const firstRun = await runEval(options('agent-a', a.url, { signal: abort.signal, onResult: () => abort.abort() }));
    expect(firstRun.ran.length).toBeGreaterThanOrEqual(1);
    expect(firstRun.report.counts.incomplete).toBeGreaterThanOrEqual(1);
    const finishedFirst = [...(await readResults(path.join(firstRun.layout.dir, 'results.jsonl'))).keys()];
    const callsOf = (id: string) => a.bodies.filter((b) => b.includes(`TASK GOAL:\\n${id}:`)).length;
    const callsBefore = Object.fromEntries(finishedFirst.map((id) => [id, callsOf(id)]));
    expect(Object.values(callsBefore).some((n) => n > 0)).toBe(true);

    const resumed = await runEval(options('agent-a', a.url));
    expect(resumed.ran.filter((id) => finishedFirst.includes(id))).toEqual([]);
    expect(resumed.ran.length + finishedFirst.length).toBe(8);
    for (const id of finishedFirst) expect(callsOf(id)).toBe(callsBefore[id]); // not run again

    const byId = new Map(resumed.report.results.map((r) => [r.instance_id, r]));
    const status = (id: string) => byId.get(id)?.status;
    expect(status('tkem__cachetools-387')).toBe('resolved');
    expect(status('tkem__cachetools-292')).toBe('resolved');
    expect(status('tkem__cachetools-218')).toBe('unresolved'); // a plausible change the hidden tests refuse
    expect(byId.get('tkem__cachetools-218')!.reason).toContain('FAIL_TO_PASS tests.test_cachedmethod.CacheMethodTest');
    expect(status('tkem__cachetools-221')).toBe('unresolved'); // the agent never produced a change that applies
    expect(byId.get('tkem__cachetools-221')!.reason).toMatch(/^the farm delivered no change: FAILED/);
    expect(status('skorokithakis__shortuuid-49')).toBe('resolved'); // graded from pytest's -rA lines
    expect(status('skorokithakis__shortuuid-107')).toBe('unresolved');
    // Instances that cannot judge an agent are errors, counted apart, and never cost a model call.
    expect(status('broken__missing-base-1')).toBe('error');
    expect(byId.get('broken__missing-base-1')!.reason).toMatch(/^base commit missing: 0123456789abcdef/);
    expect(status('broken__passes-at-base-2')).toBe('error');
    expect(byId.get('broken__passes-at-base-2')!.reason).toMatch(/^tests broken at base .*FAIL_TO_PASS already passes/);
    expect(a.bodies.some((b) => /MISSING-BASE|PASSES-AT-BASE/.test(b))).toBe(false);
    expect(resumed.report.counts).toEqual({ resolved: 3, unresolved: 3, error: 2, infra_error: 0, incomplete: 0 });
    expect(resumed.report.resolvedRate).toBe(0.5);
    expect(byId.get('tkem__cachetools-387')!.modelCalls).toBeGreaterThan(0);
    expect(byId.get('tkem__cachetools-387')!.verification).toHaveProperty('differential');

    // The canary of the test patches and gold patches was in the dataset, and in nothing any model call carried.
    expect(await readFile(dataset, 'utf8')).toContain(CANARY);
    // (what the agents must see does get through: the problem statement, with its title)
    expect(a.bodies.some((b) => b.includes('TTLCache.expire() should tell which items expired'))).toBe(true);
    expect(a.bodies.filter((b) => b.includes(CANARY))).toEqual([]);

    // The predictions are SWE-bench's: one line per finished instance, its three fields, the farm's patch.
    const predictions = parsePredictions(await readFile(path.join(resumed.layout.dir, 'predictions.jsonl'), 'utf8'));
    expect(predictions.map((p) => p.instance_id).sort()).toEqual([...byId.keys()].sort());
    const patch387 = predictions.find((p) => p.instance_id === 'tkem__cachetools-387')!.model_patch;
    expect(patch387).toContain('+        if obj is None:');
    expect(patch387).not.toContain(CANARY);
    expect(predictions.find((p) => p.instance_id === 'tkem__cachetools-221')!.model_patch).toBe('');
    const html = await readFile(path.join(resumed.layout.dir, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('tkem__cachetools-292');
    // Its rows link to each instance's section, which links to files that are there (the agents' trajectories).
    const files = [...html.matchAll(/<a href="(trajectories\/[^"]+)">/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await expect(readFile(path.join(resumed.layout.dir, f), 'utf8')).resolves.toBeTruthy();
    expect(html).toContain('+        if obj is None:');
    expect(html).not.toContain(CANARY);

    // The run's trajectories as a dataset: JSON Lines and Parquet, the same rows, prompts included.
    const jsonl = path.join(tmp, 'trajectories.jsonl');
    const parquet = path.join(tmp, 'trajectories.parquet');
    for (const out of [jsonl, parquet]) {
      await exec(FARM_BIN, ['trajectories', 'export', '--run', resumed.layout.dir, '--out', out]);
    }
    const rows = (await readFile(jsonl, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { schema: string; task_id: string; event: string; prompt: string; payload: string });
    expect(new Set(rows.map((r) => r.schema))).toEqual(new Set(['farm.trajectory-row.v1']));
    expect(rows.some((r) => r.event === 'prompt' && r.prompt.includes('TASK GOAL'))).toBe(true);
    expect(rows.some((r) => r.event === 'result')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(CANARY);
    const read = await exec(
      'node',
      [
        '--input-type=module',
        '-e',
        "import { parquetReadObjects } from 'hyparquet'; import { readFileSync } from 'node:fs';" +
          'const b = readFileSync(process.argv[1]);' +
          'const rows = await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) });' +
          'console.log(JSON.stringify(rows.map((r) => [r.task_id, r.event])));',
        parquet,
      ],
      { cwd: path.join(ROOT, 'apps', 'cli'), maxBuffer: 64 << 20 },
    );
    expect(JSON.parse(read.stdout)).toEqual(rows.map((r) => [r.task_id, r.event]));
  });

  test('a second run with another agent, compared instance by instance with the exact McNemar test', async () => {
    const b = await model('agent-b.json');
    const run = await runEval(options('agent-b', b.url, { instanceIds: shippedIds, concurrency: 3 }));
    const results = (await readResults(path.join(run.layout.dir, 'results.jsonl'))) as Map<string, InstanceResult>;
    const status = (id: string) => results.get(id)!.status;
    // agent-b's changes for 387 and 107 carry no test: delivered, marked unverified, judged by the instances' tests
    expect(status('tkem__cachetools-387')).toBe('resolved');
    expect(results.get('tkem__cachetools-387')!.verification).toHaveProperty('unverifiedReason');
    expect(status('skorokithakis__shortuuid-107')).toBe('resolved');
    // half of what 49 asks: delivered, and refused by the instance's tests
    expect(status('skorokithakis__shortuuid-49')).toBe('unresolved');
    expect(results.get('skorokithakis__shortuuid-49')!.reason).toBe(
      'not passing: FAIL_TO_PASS shortuuid/tests.py::DecodingEdgeCasesTest::test_decode_dict',
    );
    expect(status('tkem__cachetools-292')).toBe('unresolved');
    expect(run.report.counts).toEqual({ resolved: 2, unresolved: 4, error: 0, infra_error: 0, incomplete: 0 });
    expect(run.report.verification).toEqual({ unverified: 3, 'verified by its own tests': 1, none: 2 });

    const { stdout } = await exec(FARM_BIN, [
      'eval',
      'compare',
      'agent-a',
      'agent-b',
      '--out-dir',
      path.join(tmp, 'runs'),
      '--json',
    ]);
    const comparison = JSON.parse(stdout) as {
      pairs: {
        paired: number;
        onlyBaseline: string[];
        onlyOther: string[];
        bothResolved: number;
        neither: number;
        pValue: number;
      }[];
    };
    expect(comparison.pairs[0]).toMatchObject({
      paired: 6,
      bothResolved: 1,
      onlyBaseline: ['skorokithakis__shortuuid-49', 'tkem__cachetools-292'],
      onlyOther: ['skorokithakis__shortuuid-107'],
      neither: 2,
      pValue: 1,
    });
    const text = (await exec(FARM_BIN, ['eval', 'compare', 'agent-a', 'agent-b', '--out-dir', path.join(tmp, 'runs')]))
      .stdout;
    expect(text).toMatch(/agent-b vs agent-a: 6 paired instance\(s\), resolved 33\.3 % vs 50\.0 %/);
    expect(text).toContain('left out: broken__missing-base-1 (no result in agent-b)');
    expect(text).toContain('exact McNemar p = 1.00');
  });

  test("a 50 MB problem statement is that instance's error; the embedded farm's database takes the next instance and the run ends with its report", async () => {
    const a = await model('agent-a.json');
    const shipped = parseInstances(await readFile(path.join(SET, 'instances.jsonl'), 'utf8'));
    const first = shipped.find((i) => i.instance_id === 'tkem__cachetools-387')!;
    const line = (over: Record<string, unknown>) =>
      JSON.stringify({
        ...first,
        repo_path: path.join(SET, first.repo_path!),
        FAIL_TO_PASS: JSON.stringify(first.FAIL_TO_PASS),
        PASS_TO_PASS: JSON.stringify(first.PASS_TO_PASS),
        ...over,
      });
    const huge = path.join(tmp, 'huge.jsonl');
    await writeFile(
      huge,
      [
        line({ instance_id: 'huge__statement-1', problem_statement: 'It breaks.\n' + 'x'.repeat(50 << 20) }),
        line({}),
      ].join('\n') + '\n',
    );
    const base = options('huge', a.url, { dataset: huge, concurrency: 1 });
    const run = await runEval({
      ...base,
      // The embedded farm's own intake refuses it too, as its API would: nothing reaches its bus or database.
      startFarm: async (layout) => {
        const farm = await base.startFarm(layout);
        await expect(
          farm.submit({
            id: 'huge-direct',
            repoUrl: '/nowhere',
            title: 'It breaks',
            description: 'x'.repeat(50 << 20),
          }),
        ).rejects.toMatchObject({ status: 400, message: 'description is longer than 100000 characters' });
        return farm;
      },
    });
    const results = await readResults(path.join(run.layout.dir, 'results.jsonl'));
    expect(results.get('huge__statement-1')).toMatchObject({
      status: 'error',
      reason: "problem_statement: the farm's API refuses it: description is longer than 100000 characters",
    });
    expect(results.get('tkem__cachetools-387')!.status).toBe('resolved');
    expect(run.report.counts).toEqual({ resolved: 1, unresolved: 0, error: 1, infra_error: 0, incomplete: 0 });
    expect(a.bodies.some((b) => b.includes('x'.repeat(1000)))).toBe(false);
  });

  test('farm eval run from the command line against a running farm up (FARM_URL), and its trajectories over the API', async () => {
    const port = await freePort();
    const stateDir = path.join(tmp, 'farm-up-state');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FARM_STATE_DIR: stateDir,
      FARM_WORK_DIR: path.join(tmp, 'farm-up-work'),
      FARM_METRICS_PORT: String(port),
      FARM_UNVERIFIED_CHANGES: 'deliver',
      LOG_LEVEL: 'warn',
    };
    for (const name of ['KAFKA_BROKERS', 'DATABASE_URL', 'FARM_URL', 'FARM_TOKEN']) delete env[name];
    const up = spawn(FARM_BIN, ['up', '--model-script', path.join(SET, 'scripts', 'agent-a.json')], {
      env,
      stdio: 'ignore',
    });
    try {
      const url = `http://127.0.0.1:${port}`;
      for (
        let i = 0;
        !(await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ));
        i++
      ) {
        if (up.exitCode !== null || i > 600) throw new Error(`farm up did not start (exit ${up.exitCode})`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const client = { ...env, FARM_URL: url };
      const ids = 'tkem__cachetools-387,skorokithakis__shortuuid-107';
      const args = ['eval', 'run', '--dataset', path.join(SET, 'instances.jsonl'), '--instances', ids];
      const { stdout } = await exec(
        FARM_BIN,
        [...args, '--run-id', 'remote', '--out-dir', path.join(tmp, 'runs'), '--model-name', 'agent-a'],
        { env: client, maxBuffer: 16 << 20 },
      );
      expect(stdout).toMatch(/^tkem__cachetools-387\s+resolved\s/m);
      expect(stdout).toMatch(/^skorokithakis__shortuuid-107\s+unresolved\s+the farm delivered no change/m);
      expect(stdout).toMatch(
        /run remote: 1 resolved, 1 unresolved, 0 error\(s\), 0 infrastructure failure\(s\), 0 incomplete/,
      );
      const results = await readResults(path.join(tmp, 'runs', 'remote', 'results.jsonl'));
      expect(results.get('tkem__cachetools-387')!.modelCalls).toBeGreaterThan(0); // the reports, over the API

      const out = path.join(tmp, 'from-api.jsonl');
      await exec(FARM_BIN, ['trajectories', 'export', '--out', out], { env: client });
      const rows = (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { goal: string });
      expect(rows.some((r) => r.goal.startsWith('tkem__cachetools-387:'))).toBe(true);
    } finally {
      const exited = new Promise((r) => up.once('exit', r));
      up.kill('SIGTERM');
      await exited;
    }
  });
});
