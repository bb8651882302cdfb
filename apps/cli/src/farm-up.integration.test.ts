// `farm up` as a user runs it: a process serving the HTTP API, here for a repository on this machine, with the
// scripted model. Embedded (in-process bus, PGlite, killed and restarted mid-CODING) and on Kafka + PostgreSQL.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { farm } from '@farm/proto';
import { ALL_TOPIC_NAMES, CONTENT_TYPE_HEADER, JSON_CONTENT, KafkaBus, Topics, readSpoolDir } from '@farm/bus';
import { seedBareRepo, startGitHttpServer } from '@farm/git';
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import { ChangeRequestClient } from '@farm/farm-api';
import { isProcessAlive, silentLogger } from '@farm/runtime';
import { ADD_LOWER, ADD_MULTIPLY, MULTI_REPO_FILES, agentStep, makeLocalRepo, planStep } from '../testing';
import { startKafka } from '../../../scripts/local-services/kafka';
import { startPostgres } from '../../../scripts/local-services/postgres';

const exec = promisify(execFile);
const FARM_BIN = path.join(__dirname, '..', 'bin', 'farm');
const GOAL = 'Add multiply to the calculator';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function localBranches(dir: string): Promise<string[]> {
  const { stdout } = await exec('git', ['-C', dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
  return stdout.split('\n').filter(Boolean);
}

interface FarmUp {
  process: ChildProcess;
  api: ChangeRequestClient;
  url: string;
  /** The admin token farm up created at its first start, read from its state directory. */
  token: string;
}

async function startFarmUp(env: NodeJS.ProcessEnv, logFile: string, args: string[] = []): Promise<FarmUp> {
  const child = spawn(FARM_BIN, ['up', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const url = `http://127.0.0.1:${env.FARM_METRICS_PORT}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) {
      // Its own words, here: the log file goes with the test's directory.
      const said = (await readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
      throw new Error(`farm up exited with ${child.exitCode}; the end of ${logFile}:\n${said}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) {
        const token = (await readFile(path.join(env.FARM_STATE_DIR!, 'admin-token'), 'utf8')).trim();
        return { process: child, api: new ChangeRequestClient({ baseUrl: url, token, maxReconnects: 60 }), url, token };
      }
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error(`farm up did not answer within 60 s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(up: FarmUp, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (up.process.exitCode !== null || up.process.signalCode) return;
  const exited = new Promise((r) => up.process.once('exit', r));
  up.process.kill(signal);
  await exited;
}

const codingCalls = (model: ScriptedModelServer) =>
  model.requests.filter((r) => r.messages.some((m) => String(m.content).includes(`TASK GOAL:\n${GOAL}`))).length;

describe('farm up over its HTTP API, for a repository on this machine', () => {
  let tmp: string;
  let model: ScriptedModelServer;
  const running: FarmUp[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-up-'));
    model = await startScriptedModelServer({ script: { chat: [planStep([{ id: 'mul', goal: GOAL }])] } });
  });
  afterEach(async () => {
    for (const up of running.splice(0)) await stop(up, 'SIGKILL');
  });
  afterAll(async () => {
    await model.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const baseEnv = async (name: string): Promise<NodeJS.ProcessEnv> => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FARM_STATE_DIR: path.join(tmp, name, 'state'),
      FARM_WORK_DIR: path.join(tmp, name, 'work'),
      FARM_METRICS_PORT: String(await freePort()),
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'test-key',
      FARM_PLANNER_MODEL: 'planner',
      FARM_LLM_MAX_RETRIES: '0',
      FARM_TASK_DEADLINE_S: '300',
      LOG_LEVEL: 'info',
    };
    delete env.KAFKA_BROKERS;
    delete env.DATABASE_URL;
    delete env.FARM_URL;
    return env;
  };

  async function follow(
    api: ChangeRequestClient,
    id: string,
    seen: farm.v1.PhaseTransition[],
    until?: (t: farm.v1.PhaseTransition) => boolean,
  ) {
    const after = seen.length ? Number(seen.at(-1)!.sequence) : 0;
    for await (const t of api.events(id, { after, signal: AbortSignal.timeout(150_000) })) {
      seen.push(t);
      if (until?.(t)) return;
    }
  }

  async function expectBranchesBack(repo: string, id: string, seen: farm.v1.PhaseTransition[]) {
    const taskBranch = seen.find((t) => t.taskId && t.branchName)?.branchName;
    expect(taskBranch).toMatch(/^agt\//);
    // The branches come back into the user's repository when the request ends (asynchronously).
    for (let i = 0; i < 100 && !(await localBranches(repo)).includes(`farm/${id}`); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await localBranches(repo)).toEqual(expect.arrayContaining(['main', taskBranch, `farm/${id}`]));
    const { stdout } = await exec('git', ['-C', repo, 'show', `farm/${id}:src/calculator.js`]);
    expect(stdout).toContain('function multiply');
    // The user's checkout is untouched.
    expect((await exec('git', ['-C', repo, 'status', '--porcelain'])).stdout).toBe('');
    expect((await exec('git', ['-C', repo, 'rev-parse', '--abbrev-ref', 'HEAD'])).stdout.trim()).toBe('main');
  }

  const sequences = (seen: farm.v1.PhaseTransition[]) => seen.map((t) => Number(t.sequence));

  /** Every file under `dir` (checkouts' .git included) whose bytes contain `needle`. */
  async function filesContaining(dir: string, needle: string, except: string[] = []): Promise<string[]> {
    const hits: string[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
      const file = path.join(entry.parentPath, entry.name);
      if (!entry.isFile() || except.includes(file)) continue;
      if ((await readFile(file).catch(() => Buffer.alloc(0))).includes(needle)) hits.push(file);
    }
    return hits;
  }

  test('embedded: submitted over HTTP, followed over SSE to DONE; killed mid-CODING and restarted, no task runs twice', async () => {
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY, 4000)] });
    const repo = path.join(tmp, 'embedded', 'my-app');
    await makeLocalRepo(repo);
    const env = await baseEnv('embedded');
    const logFile = path.join(tmp, 'embedded', 'farm-up.log');
    let up = await startFarmUp(env, logFile);
    running.push(up);

    const { changeRequestId: id, created } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
    expect(created).toBe(true);
    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen, (t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED);
    const callsBefore = codingCalls(model);

    // Killed without a chance to clean up, while the agent waits for the model.
    await stop(up, 'SIGKILL');
    up = await startFarmUp(env, logFile);
    running.push(up);
    await follow(up.api, id, seen);

    expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
    expect(sequences(seen)).toEqual(sequences(seen).map((_, i) => i + 1)); // every event once, in order
    expect(seen.filter((t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED)).toHaveLength(1);
    expect(codingCalls(model)).toBe(Math.max(callsBefore, 1)); // the agent was adopted, not started again
    const status = await up.api.get(id);
    expect(status.request.phase).toBe('DONE');
    expect(status.tasks.map((t) => t.status)).toEqual(['SUCCESS']);
    await expectBranchesBack(repo, id, seen);
    // One task whose checks passed on the very tree the build would check: built in place, no build process.
    expect(await readFile(logFile, 'utf8')).toContain('"msg":"built in place"');
    expect(await readdir(path.join(env.FARM_STATE_DIR!, 'builds')).catch(() => [])).toEqual([]);
    // The console is served on the API's port, and the agent's report (its diff) is readable through the API.
    expect(await (await fetch(`${up.url}/`)).text()).toContain('<title>agent-farm console</title>');
    const diff = await fetch(`${up.url}/v1/change-requests/${id}/tasks/${status.tasks[0].id}/diff`, {
      headers: { authorization: `Bearer ${up.token}` },
    });
    expect(((await diff.json()) as { diff: string }).diff).toContain('+function multiply(a, b) {');
    // The request's change, as built in place, is reviewable too.
    const requestDiff = await fetch(`${up.url}/v1/change-requests/${id}/diff`, {
      headers: { authorization: `Bearer ${up.token}` },
    });
    expect((await requestDiff.json()) as { diff: string; branch: string }).toMatchObject({
      branch: `farm/${id}`,
      diff: expect.stringContaining('+function multiply(a, b) {'),
    });

    // Submitting the same id again changes nothing.
    const again = await up.api.submit({ changeRequestId: id, title: GOAL, repo: { url: repo, baseRef: 'main' } });
    expect(again).toEqual({ changeRequestId: id, created: false });
  });

  test('Ctrl-C while the planner waits for the model ends farm up in seconds; the next start plans the request to DONE', async () => {
    // The model takes ten minutes to answer the planner: its call is in flight when the user presses Ctrl-C.
    const slowPlan = { ...planStep([{ id: 'mul', goal: GOAL }]), fault: { delayMs: 600_000 } };
    model.setScript({ chat: [slowPlan, agentStep(GOAL, ADD_MULTIPLY)] });
    const repo = path.join(tmp, 'ctrl-c', 'my-app');
    await makeLocalRepo(repo);
    const env = await baseEnv('ctrl-c');
    const logFile = path.join(tmp, 'ctrl-c', 'farm-up.log');
    let up = await startFarmUp(env, logFile);
    running.push(up);
    const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
    const planning = () =>
      model.requests.filter((r) => String(r.messages[0]?.content).includes('You are the architect'));
    for (let i = 0; i < 300 && planning().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(planning()).toHaveLength(1);

    const started = Date.now();
    await stop(up, 'SIGINT');
    const stoppedInMs = Date.now() - started;
    expect(up.process.exitCode).toBe(0);
    expect(stoppedInMs).toBeLessThan(15_000); // not the model's ten minutes, nor its retries
    expect(await readFile(logFile, 'utf8')).not.toMatch(/fell back to a single item/); // stopping is not a failure

    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
    up = await startFarmUp(env, logFile);
    running.push(up);
    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen);
    const story = `${farm.v1.Phase[seen.at(-1)!.toPhase]}: ${seen.map((t) => t.reason).join(' | ')}`;
    expect(story).toMatch(/^DONE: /);
    expect((await up.api.get(id)).request.phase).toBe('DONE');
  });

  test('farm up --model-script answers from the script, without any model configured; FARM_UNVERIFIED_CHANGES=deliver marks a change no test shows', async () => {
    const dir = path.join(tmp, 'model-script');
    const repo = path.join(dir, 'my-app');
    await makeLocalRepo(repo);
    const scriptFile = path.join(dir, 'script.json');
    const UNTESTED = 'Add lower to the strings module';
    await writeFile(
      scriptFile,
      JSON.stringify({
        chat: [
          { ...planStep([{ id: 'low', goal: UNTESTED }]), match: `CHANGE REQUEST: ${UNTESTED}` },
          planStep([{ id: 'mul', goal: GOAL }]),
          agentStep(GOAL, ADD_MULTIPLY),
          agentStep(UNTESTED, ADD_LOWER.slice(0, ADD_LOWER.indexOf('--- /dev/null'))), // the function, no test
        ],
      }),
    );
    const env: NodeJS.ProcessEnv = { ...(await baseEnv('model-script')), FARM_UNVERIFIED_CHANGES: 'deliver' };
    for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'FARM_PLANNER_MODEL', 'FARM_MODEL']) delete env[name];
    const logFile = path.join(dir, 'farm-up.log');
    model.requests.splice(0); // the suite's own scripted model: it must not be asked
    const up = await startFarmUp(env, logFile, ['--model-script', scriptFile]);
    running.push(up);
    const verification = async (title: string) => {
      const { changeRequestId: id } = await up.api.submit({ title, repo: { url: repo, baseRef: 'main' } });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen);
      expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
      const [task] = (await up.api.get(id)).tasks;
      return { ...task.verification, notes: task.notes };
    };
    // Its new test fails on the base and passes on the branch: verified.
    const verified = await verification(GOAL);
    expect(verified).toMatchObject({
      differential: { testFiles: ['test/multiply.test.js'], base: 'TEST_RUN_FAILED', branch: 'TEST_RUN_PASSED' },
    });
    expect(verified).not.toHaveProperty('unverifiedReason');
    // No test at all: delivered, as the operator chose, and said to be unverified wherever the task is shown.
    const unverified = await verification(UNTESTED);
    expect(unverified.unverifiedReason).toMatch(/^no test exercises the change/);
    expect(unverified.notes).toMatch(/NOT VERIFIED: no test exercises the change/);
    expect(await readFile(logFile, 'utf8')).toContain('the model is the scripted one');
    expect(model.requests).toEqual([]);
  });

  test('a large plan waits for approval: no agent runs; `farm plan` shows it, read and submit tokens may not approve, `farm approve --remove` runs the rest to DONE; `farm reject` ends one CANCELLED; all audited', async () => {
    const dir = path.join(tmp, 'approval');
    const repo = path.join(dir, 'my-app');
    await makeLocalRepo(repo);
    const LOWER = 'Add lower to the strings module';
    const REJECTED = 'Rewrite everything';
    model.setScript({
      chat: [
        { ...planStep([{ id: 'all', goal: GOAL }]), match: `CHANGE REQUEST: ${REJECTED}` },
        planStep([
          { id: 'mul', goal: GOAL, paths: ['src/calc.js'] },
          { id: 'low', goal: LOWER, paths: ['src/strings.js'] },
        ]),
        agentStep(GOAL, ADD_MULTIPLY),
      ],
    });
    // Plans of more than one task wait; a request can ask for approval itself.
    const env = { ...(await baseEnv('approval')), FARM_APPROVAL: 'large', FARM_APPROVAL_MAX_TASKS: '1' };
    const up = await startFarmUp(env, path.join(dir, 'farm-up.log'));
    running.push(up);
    const cli = async (args: string[], token = up.token) =>
      exec(FARM_BIN, args, { env: { ...process.env, FARM_URL: up.url, FARM_TOKEN: token, KAFKA_BROKERS: '' } });
    const waiting = async (id: string) => {
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen, (t) => t.toPhase === farm.v1.Phase.AWAITING_APPROVAL);
      return seen.at(-1)!;
    };

    const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
    expect((await waiting(id)).reason).toMatch(
      /^2 task\(s\) at [0-9a-f]{12} wait for approval: 2 tasks, more than 1 \(FARM_APPROVAL_MAX_TASKS\)$/,
    );
    const agentCalls = () => model.requests.filter((r) => JSON.stringify(r.messages).includes('TASK GOAL:')).length;
    expect(agentCalls()).toBe(0);
    const plan = (await cli(['plan', id])).stdout;
    expect(plan).toContain(`${id}-mul  FEATURE\n  goal:    ${GOAL}\n  file:    src/calc.js`);
    expect(plan).toContain(`farm approve ${id}`);

    // Approving needs its own scope: a read token and a submit token are refused, an approve token is not.
    const tokenWith = async (name: string, scopes: string) =>
      JSON.parse((await cli(['token', 'create', '--name', name, '--scopes', scopes, '--json'])).stdout).token as string;
    for (const scopes of ['read', 'read,submit,cancel'])
      await expect(cli(['approve', id], await tokenWith(`t-${scopes.length}`, scopes))).rejects.toMatchObject({
        stderr: expect.stringMatching(/403|scope/),
      });
    // An edit that does not fit the plan is refused with why.
    await expect(cli(['approve', id, '--remove', `${id}-nope`])).rejects.toMatchObject({
      stderr: expect.stringContaining(`no task ${id}-nope in this plan`),
    });
    const approver = await tokenWith('lead', 'read,approve');
    await cli(['approve', id, '--remove', `${id}-low`, '--reason', 'one at a time'], approver);
    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen);
    expect(seen.map((t) => farm.v1.Phase[t.toPhase])).toEqual(
      expect.arrayContaining(['AWAITING_APPROVAL', 'CODING', 'BUILD', 'DONE']),
    );
    expect(seen.find((t) => t.toPhase === farm.v1.Phase.CODING && !t.taskId)?.reason).toBe(
      `plan approved by token:lead (edited: without ${id}-low): one at a time`,
    );
    expect((await up.api.get(id)).tasks.map((t) => t.id)).toEqual([`${id}-mul`]);
    // Decided once: a second decision finds nothing waiting.
    await expect(cli(['approve', id], approver)).rejects.toMatchObject({
      stderr: expect.stringMatching(/not waiting for approval/),
    });

    // A request that asks for approval itself, rejected.
    const asked = JSON.parse(
      (await cli(['submit', '--repo', repo, '--title', REJECTED, '--require-approval', '--json'])).stdout,
    ).changeRequestId as string;
    expect((await waiting(asked)).reason).toMatch(
      /wait for approval: the submitter asked for approval( \(estimate: \$[\d.]+: .*\))?$/,
    );
    await cli(['reject', asked, '--reason', 'too broad'], approver);
    const rejected: farm.v1.PhaseTransition[] = [];
    await follow(up.api, asked, rejected);
    const ended = rejected.find((t) => !t.taskId && t.toPhase === farm.v1.Phase.CANCELLED);
    expect(ended?.reason).toBe('plan rejected by token:lead: too broad');
    // Its planned task never ran: cancelled with the request.
    expect((await up.api.get(asked)).tasks.map((t) => t.status)).toEqual(['CANCELLED']);
    expect(agentCalls()).toBe(1); // the approved task's agent only

    const audit = await up.api.audit({});
    expect(audit.filter((e) => ['approve', 'reject'].includes(e.action)).map((e) => [e.action, e.subject])).toEqual(
      expect.arrayContaining([
        ['approve', 'token:lead'],
        ['reject', 'token:lead'],
      ]),
    );
  });

  test('a plan nobody decides ends at FARM_APPROVAL_TIMEOUT_S: FAILED saying so, no agent ran', async () => {
    const dir = path.join(tmp, 'approval-timeout');
    const repo = path.join(dir, 'my-app');
    await makeLocalRepo(repo);
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
    model.requests.splice(0); // what earlier tests asked
    const env = { ...(await baseEnv('approval-timeout')), FARM_APPROVAL: 'always', FARM_APPROVAL_TIMEOUT_S: '2' };
    const up = await startFarmUp(env, path.join(dir, 'farm-up.log'));
    running.push(up);
    const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen);
    expect(seen.filter((t) => !t.taskId).map((t) => [farm.v1.Phase[t.toPhase], t.reason])).toEqual([
      ['RECEIVED', 'change request received'],
      ['PLANNING', 'planning started'],
      [
        'AWAITING_APPROVAL',
        expect.stringMatching(/wait for approval: every plan waits for approval \(FARM_APPROVAL=always\)$/),
      ],
      ['FAILED', 'the plan was neither approved nor rejected within 2 s (FARM_APPROVAL_TIMEOUT_S)'],
    ]);
    expect(model.requests.filter((r) => JSON.stringify(r.messages).includes('TASK GOAL:'))).toEqual([]);
  });

  test('a waiting plan survives farm up killed: still waiting after the restart, no agent ran; approved and killed at once, the approval is applied once after the next start, to DONE', async () => {
    const dir = path.join(tmp, 'approval-restart');
    const repo = path.join(dir, 'my-app');
    await makeLocalRepo(repo);
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
    model.requests.splice(0); // what earlier tests asked
    const env = { ...(await baseEnv('approval-restart')), FARM_APPROVAL: 'always' };
    const logFile = path.join(dir, 'farm-up.log');
    let up = await startFarmUp(env, logFile);
    running.push(up);
    const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen, (t) => t.toPhase === farm.v1.Phase.AWAITING_APPROVAL);

    await stop(up, 'SIGKILL');
    up = await startFarmUp(env, logFile);
    running.push(up);
    expect((await up.api.get(id)).request.phase).toBe('AWAITING_APPROVAL');
    const approve = await fetch(`${up.url}/v1/change-requests/${id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${up.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'go' }),
    });
    expect(approve.status).toBe(202);
    await stop(up, 'SIGKILL'); // before the orchestrator may have applied it
    up = await startFarmUp(env, logFile);
    running.push(up);
    await follow(up.api, id, seen);

    const requestMoves = seen.filter((t) => !t.taskId).map((t) => farm.v1.Phase[t.toPhase]);
    expect(requestMoves).toEqual(['RECEIVED', 'PLANNING', 'AWAITING_APPROVAL', 'CODING', 'BUILD', 'DONE']);
    expect(seen.filter((t) => /^plan approved by /.test(t.reason))).toHaveLength(1);
    expect(seen.filter((t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED)).toHaveLength(1);
    expect(codingCalls(model)).toBe(1);
  });

  test("on Kafka: a request a Kafka client sends waits under its repository's rule (the planner's estimate over maxChangedLines), `farm plan` shows the estimate, and FARM_APPROVAL_AUTO approves it at the timeout, saying so, to DONE", async () => {
    const dir = path.join(tmp, 'approval-kafka');
    // A Kafka client names a remote (the HTTP API alone maps local paths): two repositories on a git server.
    const forge = await startGitHttpServer({ root: path.join(dir, 'forge') });
    const repo = await forge.createBareRepo('payments-app.git');
    const other = await forge.createBareRepo('docs-app.git');
    for (const url of [repo, other]) await seedBareRepo({ url, files: MULTI_REPO_FILES, message: 'initial' });
    model.setScript({
      chat: [planStep([{ id: 'mul', goal: GOAL, changed_lines: 80 }]), agentStep(GOAL, ADD_MULTIPLY)],
    });
    model.requests.splice(0); // what earlier tests asked
    const database = `farm_approval_${Date.now()}`;
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const dbUrl = new URL(process.env.DATABASE_URL!);
    dbUrl.pathname = `/${database}`;
    const prefix = `farm-approval-${Date.now()}.`;
    // The farm lets plans start; the payments repositories' plans are held past 50 changed lines.
    const rules = [{ repos: repo.replace('payments-app.git', 'payments-*.git'), mode: 'large', maxChangedLines: 50 }];
    const env: NodeJS.ProcessEnv = {
      ...(await baseEnv('approval-kafka')),
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      FARM_TOPIC_PREFIX: prefix,
      DATABASE_URL: dbUrl.toString(),
      FARM_APPROVAL_RULES: JSON.stringify(rules),
      FARM_APPROVAL_TIMEOUT_S: '8',
      FARM_APPROVAL_AUTO: 'true',
    };
    const up = await startFarmUp(env, path.join(dir, 'farm-up.log'));
    running.push(up);

    // As a Kafka client sends them: proto3 JSON on the submissions topic.
    const bus = await KafkaBus.connect({ brokers: env.KAFKA_BROKERS!.split(','), clientId: 't', topicPrefix: prefix });
    const send = async (id: string, url: string) =>
      bus.publishRaw(
        Topics.changeRequests.name,
        Buffer.from(JSON.stringify({ changeRequestId: id, title: GOAL, repo: { url, baseRef: 'main' } })),
        { key: id, headers: { [CONTENT_TYPE_HEADER]: JSON_CONTENT } },
      );
    const held = `approval-kafka-${Date.now()}`;
    const free = `${held}-free`;
    await send(held, repo);
    await send(free, other);
    await bus.close();
    // The farm knows a request once it consumed it from the topic.
    for (const id of [held, free])
      while (
        !(await up.api.get(id).then(
          () => true,
          () => false,
        ))
      )
        await new Promise((r) => setTimeout(r, 200));

    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, held, seen, (t) => t.toPhase === farm.v1.Phase.AWAITING_APPROVAL);
    expect(seen.at(-1)!.reason.split('wait for approval: ')[1]).toBe(
      `about 80 changed lines by the planner's estimate, more than 50 (FARM_APPROVAL_RULES for ${rules[0].repos}) (estimate: about 80 changed lines by the planner's estimate)`,
    );

    const cli = async (args: string[]) =>
      exec(FARM_BIN, args, { env: { ...process.env, FARM_URL: up.url, FARM_TOKEN: up.token, KAFKA_BROKERS: '' } });
    expect((await cli(['plan', held])).stdout).toContain("size:    about 80 changed lines (the planner's estimate)");

    await follow(up.api, held, seen);
    expect(seen.filter((t) => !t.taskId).map((t) => [farm.v1.Phase[t.toPhase], t.reason])).toEqual(
      expect.arrayContaining([
        ['CODING', 'approved automatically: nobody approved or rejected the plan within 8 s'],
        ['DONE', expect.any(String)],
      ]),
    );
    // The other repository's plan, under no rule, started at once.
    const started: farm.v1.PhaseTransition[] = [];
    await follow(up.api, free, started);
    expect(started.map((t) => farm.v1.Phase[t.toPhase])).not.toContain('AWAITING_APPROVAL');
    expect(farm.v1.Phase[started.at(-1)!.toPhase]).toBe('DONE');
    await forge.close();
  });

  test('FARM_LAUNCHER=pool: requests run in a warm worker; a worker killed mid-task is reported and replaced; farm up killed mid-task, the task runs again to DONE', async () => {
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY, 3000)] });
    const repo = path.join(tmp, 'pool', 'my-app');
    await makeLocalRepo(repo);
    const env: NodeJS.ProcessEnv = { ...(await baseEnv('pool')), FARM_LAUNCHER: 'pool', FARM_AGENT_POOL_SIZE: '1' };
    const logFile = path.join(tmp, 'pool', 'farm-up.log');
    let up = await startFarmUp(env, logFile);
    running.push(up);

    // Two requests, one after the other, through the pool's one worker: started once, used twice.
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { changeRequestId: id } = await up.api.submit({
        title: `${GOAL} #${i}`,
        repo: { url: repo, baseRef: 'main' },
      });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen);
      expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
      ids.push(id);
    }
    const workerPids = async () => {
      const log = await readFile(logFile, 'utf8');
      return [...log.matchAll(/"msg":"task handed to a pool worker".*?"pid":(\d+)/g)].map((m) => Number(m[1]));
    };
    const [first, second] = await workerPids();
    expect(second).toBe(first);
    // No agent process was started for either task; each task's log is a file of its own.
    expect(await readdir(path.join(env.FARM_STATE_DIR!, 'agents')).catch(() => [])).toEqual([]);
    const tasks = (await Promise.all(ids.map((id) => up.api.get(id)))).map((s) => s.tasks[0]);
    expect(tasks.map((t) => t.status)).toEqual(['SUCCESS', 'SUCCESS']);
    const taskLog = await readFile(path.join(env.FARM_STATE_DIR!, 'logs', `${tasks[1].id}.log`), 'utf8');
    expect(taskLog).toContain('"msg":"task taken by a pool worker"');
    expect(taskLog).toContain(`"pid":${first}`);

    // The worker itself SIGKILLed while it waits for the model: reported for (agent-died), dispatched again to a
    // new worker, DONE.
    {
      const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen, (t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED);
      for (let i = 0; i < 100 && (await workerPids()).length < 3; i++) await new Promise((r) => setTimeout(r, 50));
      const victim = (await workerPids())[2];
      process.kill(-victim, 'SIGKILL'); // its process group
      await follow(up.api, id, seen);
      expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
      const states = seen.filter((t) => t.taskId).map((t) => farm.v1.TaskState[t.taskState]);
      expect(states).toEqual(['TASK_DISPATCHED', 'TASK_PENDING', 'TASK_DISPATCHED', 'TASK_SUCCESS']);
      expect(seen.find((t) => t.taskState === farm.v1.TaskState.TASK_PENDING)?.reason).toMatch(/agent-died|killed/);
      expect((await workerPids())[3]).not.toBe(victim);
    }

    // Killed while the worker waits for the model: the worker goes with the farm, and the task's message, not
    // finished, is handed to the pool again after the restart (the same dispatch, run again).
    const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo, baseRef: 'main' } });
    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen, (t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED);
    for (let i = 0; i < 100 && (await workerPids()).length < 5; i++) await new Promise((r) => setTimeout(r, 50));
    const killedWorker = (await workerPids())[4];
    await stop(up, 'SIGKILL');
    for (let i = 0; i < 100 && isProcessAlive(killedWorker); i++) await new Promise((r) => setTimeout(r, 50));
    expect(isProcessAlive(killedWorker)).toBe(false);
    up = await startFarmUp(env, logFile);
    running.push(up);
    await follow(up.api, id, seen);
    expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
    expect(seen.filter((t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED)).toHaveLength(1);
    expect((await up.api.get(id)).tasks.map((t) => t.status)).toEqual(['SUCCESS']);
    await expectBranchesBack(repo, id, seen);
  });

  test('a second farm up on the same state directory exits with an error naming it and the running one', async () => {
    const env = await baseEnv('twice');
    await mkdir(path.join(tmp, 'twice'), { recursive: true });
    const first = await startFarmUp(env, path.join(tmp, 'twice', 'first.log'));
    running.push(first);
    const ports = await readFile(path.join(env.FARM_STATE_DIR!, 'ports.json'), 'utf8');
    const runSecond = (port: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(FARM_BIN, ['up'], {
          env: { ...env, FARM_METRICS_PORT: port },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    // On another port (it would have served the same PGlite directory), and on the same one (it would have
    // rewritten ports.json before failing to listen).
    for (const port of [String(await freePort()), env.FARM_METRICS_PORT!]) {
      const second = await runSecond(port);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`pid ${first.process.pid}`);
      expect(second.stderr).toContain(env.FARM_STATE_DIR);
    }
    expect(await readFile(path.join(env.FARM_STATE_DIR!, 'ports.json'), 'utf8')).toBe(ports);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    // Killed without a chance to clean up, the first leaves a stale lock, which the next start takes over.
    await stop(first, 'SIGKILL');
    running.push(await startFarmUp(env, path.join(tmp, 'twice', 'third.log')));
  });

  test('farm up creates an admin token at first start, says how to use it, and serves loopback only', async () => {
    const env = await baseEnv('token');
    await mkdir(path.join(tmp, 'token'), { recursive: true });
    const logFile = path.join(tmp, 'token', 'farm-up.log');
    let up = await startFarmUp(env, logFile);
    running.push(up);
    const tokenFile = path.join(env.FARM_STATE_DIR!, 'admin-token');
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    const printed = await readFile(logFile, 'utf8');
    expect(printed).toContain(`export FARM_URL=${up.url} FARM_TOKEN=$(cat ${tokenFile})`);
    expect(printed).not.toContain(up.token); // where it is kept, not the token itself
    expect((await fetch(`${up.url}/v1/change-requests`)).status).toBe(401);
    // The CLI on this machine finds the token in the state directory; others are refused.
    const cli = (args: string[], extra: NodeJS.ProcessEnv) =>
      exec(FARM_BIN, args, { env: { ...process.env, FARM_URL: up.url, KAFKA_BROKERS: '', ...extra } });
    const listed = await cli(['token', 'list'], { FARM_STATE_DIR: env.FARM_STATE_DIR });
    expect(listed.stdout).toMatch(/farm-up-admin +admin +farm-up /);
    const refused = await cli(['list'], { FARM_STATE_DIR: path.join(tmp, 'token', 'elsewhere') }).catch((e) => e);
    expect(refused.stderr).toMatch(/bearer token[\s\S]*Set FARM_TOKEN/);
    // Not on the machine's other addresses (FARM_API_HOST is 127.0.0.1 unless set).
    const other = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (other) {
      const port = env.FARM_METRICS_PORT;
      await expect(fetch(`http://${other.address}:${port}/healthz`)).rejects.toThrow();
    }
    // Restarted, it keeps the token and prints no new one.
    await stop(up);
    up = await startFarmUp(env, logFile);
    running.push(up);
    expect(up.token).toBe((await readFile(tokenFile, 'utf8')).trim());
    expect((await readFile(logFile, 'utf8')).split('An admin token was created').length).toBe(2);
  });

  test('on Kafka and PostgreSQL: the same submission over HTTP runs to DONE with the branches back home', async () => {
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
    const repo = path.join(tmp, 'kafka', 'my-app');
    await makeLocalRepo(repo);
    const database = `farm_up_${Date.now()}`;
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${database}`;
    const env = {
      ...(await baseEnv('kafka')),
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      FARM_TOPIC_PREFIX: `farm-up-${Date.now()}.`,
      DATABASE_URL: url.toString(),
    };
    const up = await startFarmUp(env, path.join(tmp, 'kafka', 'farm-up.log'));
    running.push(up);

    // As a user types it, in their repository: the CLI over the HTTP API, output piped (plain lines).
    const cli = (args: string[], extra: NodeJS.ProcessEnv) =>
      exec(FARM_BIN, args, { cwd: repo, env: { ...process.env, ...extra }, timeout: 150_000 });
    const submitted = await cli(['submit', '--repo', '.', '--title', GOAL, '--watch'], {
      FARM_URL: up.url,
      FARM_TOKEN: up.token,
      KAFKA_BROKERS: '',
    });
    const lines = submitted.stdout.trim().split('\n');
    const id = lines[0];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(submitted.stdout).toMatch(
      /RECEIVED[\s\S]*PLANNING[\s\S]*CODING[\s\S]*task \S+: SUCCESS[\s\S]*BUILD[\s\S]*DONE/,
    );
    expect(submitted.stdout).not.toContain('\x1b['); // no terminal control codes when piped

    const seen: farm.v1.PhaseTransition[] = [];
    await follow(up.api, id, seen);
    expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
    expect(sequences(seen)).toEqual(sequences(seen).map((_, i) => i + 1));
    await expectBranchesBack(repo, id, seen);

    // A user who has only Kafka watches through the topics; `status` asks the API.
    const watched = await cli(['watch', id, '--timeout', '60'], {
      KAFKA_BROKERS: env.KAFKA_BROKERS,
      FARM_TOPIC_PREFIX: env.FARM_TOPIC_PREFIX,
      FARM_URL: '',
    });
    expect(watched.stdout).toMatch(/DONE/);
    const status = await cli(['status', id, '--json'], { FARM_URL: up.url, FARM_TOKEN: up.token });
    expect(JSON.parse(status.stdout).request.phase).toBe('DONE');
  });

  test('a token in a repository URL is used to clone and push, and reaches no topic, row, prompt, trajectory, file or log', async () => {
    const SECRET = `tok-${Date.now()}-s3cr3t`;
    const auth = { username: 'farm-user', password: SECRET };
    const forge = await startGitHttpServer({ root: path.join(tmp, 'secret', 'forge'), auth });
    try {
      const bare = await forge.createBareRepo('private-app.git');
      const withToken = bare.replace('http://', `http://${auth.username}:${SECRET}@`);
      await seedBareRepo({ url: withToken, files: MULTI_REPO_FILES, message: 'initial' });
      model.setScript({
        chat: [
          planStep([{ id: 'mul', goal: GOAL }]),
          planStep([{ id: 'mul', goal: GOAL }]),
          agentStep(GOAL, ADD_MULTIPLY),
        ],
      });
      const database = `farm_secret_${Date.now()}`;
      const admin = new Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      const dbUrl = new URL(process.env.DATABASE_URL!);
      dbUrl.pathname = `/${database}`;
      const prefix = `farm-secret-${Date.now()}.`;
      const env: NodeJS.ProcessEnv = {
        ...(await baseEnv('secret')),
        KAFKA_BROKERS: process.env.KAFKA_BROKERS,
        FARM_TOPIC_PREFIX: prefix,
        DATABASE_URL: dbUrl.toString(),
        FARM_TRAJECTORY_DIR: path.join(tmp, 'secret', 'trajectories'),
      };
      const logFile = path.join(tmp, 'secret', 'farm-up.log');
      const up = await startFarmUp(env, logFile);
      running.push(up);

      // Over HTTP, and as a Kafka client sends it (proto3 JSON on the submissions topic).
      const { changeRequestId: httpId } = await up.api.submit({ title: GOAL, repo: { url: withToken } });
      const bus = await KafkaBus.connect({
        brokers: env.KAFKA_BROKERS!.split(','),
        clientId: 't',
        topicPrefix: prefix,
      });
      const kafkaId = `secret-kafka-${Date.now()}`;
      await bus.publishRaw(
        Topics.changeRequests.name,
        Buffer.from(JSON.stringify({ changeRequestId: kafkaId, title: GOAL, repo: { url: withToken } })),
        { key: kafkaId, headers: { [CONTENT_TYPE_HEADER]: JSON_CONTENT } },
      );
      for (const id of [httpId, kafkaId]) {
        const seen: farm.v1.PhaseTransition[] = [];
        await follow(up.api, id, seen);
        expect(`${id}: ${farm.v1.Phase[seen.at(-1)!.toPhase]} ${seen.at(-1)!.reason}`).toMatch(/: DONE /);
        expect((await up.api.get(id)).request.repoUrl).toBe(bare);
      }
      // The private forge has the farm's branches: the token was used.
      const { stdout: refs } = await exec('git', ['-C', path.join(forge.root, 'private-app.git'), 'branch', '--list']);
      expect(refs).toContain(`farm/${httpId}`);

      // Every topic (the user's own Kafka submission aside), every row, every prompt, every file, the log.
      const onTopics: string[] = [];
      await Promise.all(
        ALL_TOPIC_NAMES.map((topic) =>
          bus.subscribeRaw(topic, `scan-${Date.now()}`, async (m) => {
            const own = topic === Topics.changeRequests.name && m.key === kafkaId;
            if (!own && (m.value?.includes(SECRET) || JSON.stringify(m.headers).includes(SECRET))) onTopics.push(topic);
          }),
        ),
      );
      await new Promise((r) => setTimeout(r, 3000)); // each scan group reads its topic from the beginning
      await bus.close();
      expect(onTopics).toEqual([]);
      const db = new Client({ connectionString: dbUrl.toString() });
      await db.connect();
      const tables = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
      );
      expect(tables.rows.length).toBeGreaterThan(3);
      const inRows: string[] = [];
      for (const { table_name } of tables.rows) {
        const rows = await db.query(`SELECT t::text AS row FROM "${table_name}" t`);
        if (rows.rows.some((r: { row: string }) => r.row.includes(SECRET))) inRows.push(table_name);
      }
      await db.end();
      expect(inRows).toEqual([]);
      expect(model.requests.length).toBeGreaterThan(0);
      expect(JSON.stringify(model.requests)).not.toContain(SECRET);
      await stop(up);
      const keptIn = path.join(env.FARM_STATE_DIR!, 'git-credentials');
      expect(await readFile(keptIn, 'utf8')).toContain(SECRET); // the one place it is kept, for the git clients
      expect(await filesContaining(path.join(tmp, 'secret'), SECRET, [keptIn, logFile])).toEqual([]);
      expect((await readFile(logFile, 'utf8')).includes(SECRET)).toBe(false);
      expect((await readdir(env.FARM_TRAJECTORY_DIR!)).length).toBeGreaterThan(0);
    } finally {
      await forge.close();
    }
  });

  test('canaries given by URL, environment and credentials file, and a URL nobody holds, quoted by the repository, reach no trajectory, step, row, prompt, log or export, whichever shell exports', async () => {
    const stamp = Date.now();
    const CANARY = {
      urlToken: `canary-url-${stamp}`,
      operatorFileToken: `canary-file-${stamp}`,
      modelKey: `canary-model-${stamp}`,
      forgeToken: `canary-forge-${stamp}`,
      webhookSecret: `canary-hook-${stamp}`,
      shapeOnly: `canary-shape-${stamp}`,
    };
    const dir = path.join(tmp, 'canaries');
    const auth = { username: 'farm-user', password: CANARY.urlToken };
    const forge = await startGitHttpServer({ root: path.join(dir, 'forge'), auth });
    try {
      const bare = await forge.createBareRepo('app.git');
      const withToken = bare.replace('http://', `http://${auth.username}:${CANARY.urlToken}@`);
      // The file the task changes quotes every canary (after the lines the change touches).
      const quoted =
        `// ${CANARY.urlToken} ${CANARY.operatorFileToken} ${CANARY.modelKey} ${CANARY.forgeToken} ` +
        `${CANARY.webhookSecret} https://someone:${CANARY.shapeOnly}@elsewhere.example/x.git\n`;
      const files = { ...MULTI_REPO_FILES, 'src/calculator.js': MULTI_REPO_FILES['src/calculator.js'] + quoted };
      await seedBareRepo({ url: withToken, files, message: 'initial' });
      const operatorFile = path.join(dir, 'operator-credentials');
      await mkdir(dir, { recursive: true });
      await writeFile(operatorFile, `https://deploy:${CANARY.operatorFileToken}@other.example\n`, { mode: 0o600 });
      model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
      model.requests.splice(0); // what earlier tests asked
      const env: NodeJS.ProcessEnv = {
        ...(await baseEnv('canaries')),
        OPENAI_API_KEY: CANARY.modelKey,
        // Settings of a forge this farm does not use: secrets of its environment all the same.
        FARM_FORGE_TOKEN: CANARY.forgeToken,
        FARM_FORGE_WEBHOOK_SECRET: CANARY.webhookSecret,
        FARM_GIT_CREDENTIALS_FILE: operatorFile,
        FARM_TRAJECTORY_DIR: path.join(dir, 'trajectories'),
      };
      const logFile = path.join(dir, 'farm-up.log');
      const up = await startFarmUp(env, logFile);
      running.push(up);
      const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: withToken } });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen);
      expect(`${farm.v1.Phase[seen.at(-1)!.toPhase]} ${seen.at(-1)!.reason}`).toMatch(/^DONE /);

      // Served while it runs: the task's steps and trajectory.
      const { tasks } = await up.api.get(id);
      const served: string[] = [];
      for (const task of tasks) {
        for (const route of ['trajectory', 'events']) {
          // The events stream of an ended task ends by itself; what arrived within the time is what is checked.
          const res = await fetch(`${up.url}/v1/change-requests/${id}/tasks/${task.id}/${route}`, {
            headers: { authorization: `Bearer ${up.token}` },
            signal: AbortSignal.timeout(20_000),
          });
          const chunks: Buffer[] = [];
          try {
            for await (const chunk of res.body!) chunks.push(Buffer.from(chunk as Uint8Array));
          } catch (err) {
            if ((err as Error).name !== 'TimeoutError' && (err as Error).name !== 'AbortError') throw err;
          }
          served.push(Buffer.concat(chunks).toString('utf8'));
        }
      }
      expect(served.join('\n')).toContain('"dispatches"');
      // An export from a shell that holds none of the farm's settings, over the API, then (stopped) from its state.
      const cleanShell = { PATH: process.env.PATH, HOME: process.env.HOME };
      const overApi = path.join(dir, 'over-api.jsonl');
      await exec(FARM_BIN, ['trajectories', 'export', '--out', overApi], {
        env: { ...cleanShell, FARM_URL: up.url, FARM_TOKEN: up.token },
      });
      await stop(up);
      const fromState = path.join(dir, 'from-state.parquet');
      await exec(FARM_BIN, ['trajectories', 'export', '--state-dir', env.FARM_STATE_DIR!, '--out', fromState], {
        env: cleanShell,
      });
      const parquetRows = await exec(
        'node',
        [
          '--input-type=module',
          '-e',
          "import { parquetReadObjects } from 'hyparquet'; import { readFileSync } from 'node:fs';" +
            'const b = readFileSync(process.argv[1]);' +
            'console.log(JSON.stringify(await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) })));',
          fromState,
        ],
        { cwd: path.join(__dirname, '..'), maxBuffer: 64 << 20 },
      );
      const exported = { overApi: await readFile(overApi, 'utf8'), fromState: parquetRows.stdout };
      expect(exported.overApi.split('\n').filter(Boolean).length).toBeGreaterThan(3);

      const outputs: Record<string, string> = {
        served: served.join('\n'),
        ...exported,
        prompts: JSON.stringify(model.requests.map((r) => r.messages)),
        log: await readFile(logFile, 'utf8'),
      };
      for (const [output, text] of Object.entries(outputs)) {
        for (const [kind, canary] of Object.entries(CANARY)) {
          expect({ output, kind, leaked: text.includes(canary) }).toEqual({ output, kind, leaked: false });
        }
      }
      // The files the farm writes of what the agents did: full trajectories and the agents' logs. (Its clones and
      // indexes of the repository hold the repository's text as it was given, canaries included.)
      for (const canary of Object.values(CANARY)) {
        const files: string[] = [];
        for (const farmDir of [env.FARM_TRAJECTORY_DIR!, path.join(env.FARM_STATE_DIR!, 'logs')]) {
          files.push(...(await filesContaining(farmDir, canary)));
        }
        expect({ canary, files }).toEqual({ canary, files: [] });
      }
      expect((await readdir(env.FARM_TRAJECTORY_DIR!)).length).toBeGreaterThan(0);
      // The quoted canaries reached the model's context, redacted: the test went through the redaction.
      expect(outputs.prompts).toContain('[secret redacted]');
    } finally {
      await forge.close();
    }
  });

  test('a repository whose branch is master, submitted with `farm submit --repo .`, runs to DONE; farm up forks no git itself, and its command helper killed is replaced', async () => {
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
    const repo = path.join(tmp, 'master', 'boltons-like');
    await makeLocalRepo(repo, 'master');
    // Every git started through PATH says who started it.
    const wrapper = path.join(tmp, 'master', 'bin');
    const started = path.join(tmp, 'master', 'git-started.log');
    await mkdir(wrapper, { recursive: true });
    const realGit = (await exec('sh', ['-c', 'command -v git'])).stdout.trim();
    await writeFile(
      path.join(wrapper, 'git'),
      `#!/bin/sh\necho "$PPID $1 $2 $3" >> '${started}'\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    const env = await baseEnv('master');
    const up = await startFarmUp({ ...env, PATH: `${wrapper}:${env.PATH}` }, path.join(tmp, 'master', 'farm-up.log'));
    running.push(up);
    // `farm submit --repo . --title ... --watch` from the repository, to DONE and its branches back home.
    const submitHere = async () => {
      const submitted = await exec(FARM_BIN, ['submit', '--repo', '.', '--title', GOAL, '--watch'], {
        cwd: repo,
        env: { ...process.env, FARM_URL: up.url, FARM_TOKEN: up.token, KAFKA_BROKERS: '' },
        timeout: 150_000,
      });
      const id = submitted.stdout.trim().split('\n')[0];
      expect(submitted.stdout).toMatch(/DONE/);
      // Back when the watch returns: the README's next line lists them at once.
      expect(await localBranches(repo)).toContain(`farm/${id}`);
      return id;
    };
    const id = await submitHere();
    expect((await up.api.get(id)).request.baseRef).toBe('master');
    // Shown as the user's own repository, not as the mirror the farm serves it from: the API, `farm status`.
    const shown = (await up.api.get(id)).request;
    expect([shown.repoPath, shown.repoUrl]).toEqual([
      repo,
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/local\//),
    ]);
    expect((await up.api.list()).find((r) => r.id === id)?.repoPath).toBe(repo);
    // Without FARM_URL or FARM_TOKEN: the CLI finds this farm (its port, its token) in the state directory.
    const { FARM_URL: _url, FARM_TOKEN: _token, ...withoutFarm } = process.env;
    const status = await exec(FARM_BIN, ['status', id], {
      cwd: repo,
      env: { ...withoutFarm, FARM_STATE_DIR: env.FARM_STATE_DIR, KAFKA_BROKERS: '' },
    });
    expect(status.stdout).toContain(`repo:    ${repo} @ master`);
    // Its lessons too, found by `--repo .` from inside it.
    const lessons = await exec(FARM_BIN, ['lessons', '--repo', '.'], {
      cwd: repo,
      env: { ...process.env, FARM_URL: up.url, FARM_TOKEN: up.token, KAFKA_BROKERS: '' },
    });
    expect(lessons.stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  ${repo}  \\(task `, 'm'));

    // The in-place build and the sync back ran git from the command helper, not from farm up's big process.
    const lines = (await readFile(started, 'utf8')).split('\n').filter(Boolean);
    // `<ppid> -C <dir> <command>`: the in-place build's commit-tree, the fetches into the mirror and back home.
    const parentsOf = (command: string) =>
      lines
        .map((l) => l.split(' '))
        .filter((w) => w[1] === '-C' && w[3] === command)
        .map((w) => Number(w[0]));
    const helpers = [...parentsOf('commit-tree'), ...parentsOf('fetch')];
    expect(helpers.length).toBeGreaterThanOrEqual(2);
    for (const pid of helpers) expect(await readFile(`/proc/${pid}/cmdline`, 'utf8')).toMatch(/command-helper/);
    expect(lines.filter((l) => Number(l.split(' ')[0]) === up.process.pid)).toEqual([]);

    // The helper killed: the next request's git commands start a new one, and it reaches DONE and home.
    const killed = helpers[0];
    process.kill(killed, 'SIGKILL');
    model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
    await submitHere();
    const after = (await readFile(started, 'utf8')).split('\n').filter(Boolean).slice(lines.length);
    const newHelpers = new Set(
      after
        .map((l) => l.split(' '))
        .filter((w) => w[1] === '-C' && (w[3] === 'commit-tree' || w[3] === 'fetch'))
        .map((w) => Number(w[0])),
    );
    expect(newHelpers.size).toBeGreaterThan(0);
    expect(newHelpers).not.toContain(killed);
    expect(newHelpers).not.toContain(up.process.pid);
  });

  test('Kafka down while an agent works: its spooled result goes out once Kafka is back and the request reaches DONE', async () => {
    const kafka = await startKafka({ log: silentLogger }); // the test's own broker: it is stopped and started
    try {
      model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY, 6000)] });
      const repo = path.join(tmp, 'outage', 'my-app');
      await makeLocalRepo(repo);
      const env: NodeJS.ProcessEnv = {
        ...(await baseEnv('outage')),
        KAFKA_BROKERS: kafka.brokers,
        FARM_TOPIC_PREFIX: 'outage.',
      };
      const up = await startFarmUp(env, path.join(tmp, 'outage', 'farm-up.log'));
      running.push(up);
      const callsBefore = codingCalls(model); // the model serves every test of this file
      const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo } });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen, (t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED);

      // The broker goes away while the agent waits for the model; the agent finishes and spools its result.
      await kafka.pause();
      const agents = path.join(env.FARM_STATE_DIR!, 'agents');
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        const dirs = await readdir(agents).catch(() => []);
        if (dirs.some((d) => readSpoolDir(path.join(agents, d, 'out'), { withPublished: true }).length)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      await new Promise((r) => setTimeout(r, 3_000)); // and farm up tries to publish it meanwhile
      await kafka.resume();
      await follow(up.api, id, seen);

      expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
      expect(sequences(seen)).toEqual(sequences(seen).map((_, i) => i + 1));
      expect(seen.filter((t) => t.taskState === farm.v1.TaskState.TASK_SUCCESS)).toHaveLength(1);
      expect(codingCalls(model)).toBe(callsBefore + 1); // the result was not lost: no second agent ran
      expect(up.process.exitCode).toBeNull();
    } finally {
      await kafka.stop();
    }
  });

  test('PostgreSQL restarted while an agent works under farm up: the claim waits for it and the request reaches DONE', async () => {
    const pg = await startPostgres({ log: silentLogger }); // the test's own server: it is stopped and started
    try {
      model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY, 3000)] });
      const repo = path.join(tmp, 'pg-restart', 'my-app');
      await makeLocalRepo(repo);
      const env = {
        ...(await baseEnv('pg-restart')),
        KAFKA_BROKERS: process.env.KAFKA_BROKERS,
        FARM_TOPIC_PREFIX: `pg-restart-${Date.now()}.`,
        DATABASE_URL: pg.url,
      };
      const up = await startFarmUp(env, path.join(tmp, 'pg-restart', 'farm-up.log'));
      running.push(up);
      const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: repo } });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen, (t) => t.taskState === farm.v1.TaskState.TASK_DISPATCHED);

      // Every connection of the farm's pools is ended by the server, which stays away while the agent finishes.
      await pg.halt('fast');
      // Meanwhile the API says the database is away and when to ask again, not "internal error".
      const down = await fetch(`${up.url}/v1/change-requests/${id}`, {
        headers: { authorization: `Bearer ${up.token}` },
      });
      expect([down.status, down.headers.get('retry-after')]).toEqual([503, '5']);
      await expect(
        exec(FARM_BIN, ['status', id], { env: { ...process.env, FARM_URL: up.url, FARM_TOKEN: up.token } }),
      ).rejects.toMatchObject({ stderr: expect.stringContaining("the farm's database is unavailable") });
      await new Promise((r) => setTimeout(r, 12_000));
      expect(up.process.exitCode).toBeNull(); // the pool's errors no longer end the process
      await pg.resume();
      await follow(up.api, id, seen);

      expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
      expect(sequences(seen)).toEqual(sequences(seen).map((_, i) => i + 1));
      expect(seen.filter((t) => t.taskState === farm.v1.TaskState.TASK_SUCCESS)).toHaveLength(1);
      expect(up.process.exitCode).toBeNull();
    } finally {
      await pg.stop();
    }
  });

  test('an agent killed right after its push: the task is dispatched again and completed with that commit, unasked', async () => {
    const forge = await startGitHttpServer({ root: path.join(tmp, 'killed', 'forge') });
    // In front of the forge: once the agent's push has landed, the agent is killed before it hears back.
    const stateDir = path.join(tmp, 'killed', 'state');
    let killedPid = 0;
    const proxy = createHttpServer((req, res) => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: new URL(forge.url).port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            void (async () => {
              if (!killedPid && req.method === 'POST' && req.url?.endsWith('/git-receive-pack')) {
                killedPid = await agentPid(stateDir);
                if (killedPid) process.kill(-killedPid, 'SIGKILL'); // its process group
                await new Promise((r) => setTimeout(r, 300));
              }
              res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
            })();
          });
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const bare = await forge.createBareRepo('app.git');
      await seedBareRepo({ url: bare, files: MULTI_REPO_FILES, message: 'initial' });
      const viaProxy = bare.replace(new URL(forge.url).host, `127.0.0.1:${(proxy.address() as { port: number }).port}`);
      model.setScript({ chat: [planStep([{ id: 'mul', goal: GOAL }]), agentStep(GOAL, ADD_MULTIPLY)] });
      const env = { ...(await baseEnv('killed')), FARM_STATE_DIR: stateDir };
      const up = await startFarmUp(env, path.join(tmp, 'killed', 'farm-up.log'));
      running.push(up);
      const callsBefore = codingCalls(model);
      const { changeRequestId: id } = await up.api.submit({ title: GOAL, repo: { url: viaProxy } });
      const seen: farm.v1.PhaseTransition[] = [];
      await follow(up.api, id, seen);

      expect(killedPid).toBeGreaterThan(0);
      expect(farm.v1.Phase[seen.at(-1)!.toPhase]).toBe('DONE');
      const taskStates = seen.filter((t) => t.taskId).map((t) => farm.v1.TaskState[t.taskState]);
      expect(taskStates).toEqual(['TASK_DISPATCHED', 'TASK_PENDING', 'TASK_DISPATCHED', 'TASK_SUCCESS']);
      expect(seen.find((t) => t.taskState === farm.v1.TaskState.TASK_PENDING)?.reason).toMatch(
        /agent-died|died|killed/,
      );
      // The second dispatch found its own commit: the model was not asked again.
      expect(codingCalls(model)).toBe(callsBefore + 1);
      const { stdout } = await exec('git', [
        '-C',
        path.join(forge.root, 'app.git'),
        'log',
        '--format=%B',
        `farm/${id}`,
      ]);
      expect(stdout).toMatch(/Farm-Task: /);
    } finally {
      proxy.close();
      await forge.close();
    }
  });
});

/** The pid of the one agent process `farm up` runs under this state directory, 0 when there is none. */
async function agentPid(stateDir: string): Promise<number> {
  const agents = path.join(stateDir, 'agents');
  for (const dir of await readdir(agents).catch(() => [])) {
    const record = await readFile(path.join(agents, dir, 'agent.json'), 'utf8').catch(() => '');
    const pid = record ? (JSON.parse(record) as { pid?: number }).pid : undefined;
    if (pid) return pid;
  }
  return 0;
}
