// Canaries through the farm's side: a request submitted with credentials in its URL (the intake keeps them in
// its file), the orchestrator's environment (forge token, webhook secret, component token, model key), and a
// URL's credentials nobody holds; an agent that held none of them reports them all in its live steps and its
// result. Nothing the orchestrator keeps, serves or logs holds one, and so an export made from a shell that
// holds none of the farm's secrets is clean too.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InProcessBus, Topics } from '@farm/bus';
import { configureGitCredentials, takeCredentialsFromUrl } from '@farm/git';
import { Orchestrator, TaskTopicLauncher, getRequest, readTaskSteps, taskReports } from '@farm/orchestrator';
import { farm } from '@farm/proto';
import { createLogger, secretRedactor } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { writeRows } from './trajectories-export';
import { trajectoryRows } from './trajectory-rows';

const CANARY = {
  urlToken: 'canary-url-token-5a6b7c',
  forgeToken: 'canary-forge-token-8d9e0f',
  webhookSecret: 'canary-webhook-secret-1a2b3c',
  componentToken: 'canary-component-token-00000000000002',
  modelKey: 'canary-model-key-4d5e6f',
  shapeOnly: 'canary-shape-only-7a8b9c',
};
const ENV = {
  FARM_FORGE_TOKEN: CANARY.forgeToken,
  FARM_FORGE_WEBHOOK_SECRET: CANARY.webhookSecret,
  FARM_COMPONENT_TOKEN: CANARY.componentToken,
  OPENAI_API_KEY: CANARY.modelKey,
};
/** What an agent that held none of the secrets would quote from the repository. */
const QUOTED = [
  ...Object.values(CANARY).filter((c) => c !== CANARY.shapeOnly),
  `https://someone:${CANARY.shapeOnly}@elsewhere.example/x.git`,
].join(' ');

const CR = 'cr-canaries';
const TASK = `${CR}-a`;
let tmp: string;
let store: SqlStore;
let bus: InProcessBus;
let orchestrator: Orchestrator;
const logLines: string[] = [];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-canaries-'));
  for (const [name, value] of Object.entries(ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  // As farm up: the intake's file is one of the git client's credentials files.
  const intake = path.join(tmp, 'git-credentials');
  await writeFile(intake, '', { mode: 0o600 });
  configureGitCredentials({ FARM_GIT_USERNAME: 'x-access-token', FARM_GIT_CREDENTIALS_FILE: intake });
  store = await testPgliteStore();
  bus = new InProcessBus();
  orchestrator = new Orchestrator({
    bus,
    store,
    launcher: new TaskTopicLauncher(bus),
    log: createLogger('orchestrator', { level: 'debug', write: (line) => logLines.push(line) }),
    takeCredentials: (url) => takeCredentialsFromUrl(url, intake),
  });
  await orchestrator.start();
});
afterAll(async () => {
  await orchestrator.stop();
  await bus.close();
  await store.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  configureGitCredentials({ FARM_GIT_USERNAME: 'x-access-token' });
  await rm(tmp, { recursive: true, force: true });
});

async function until(what: string, holds: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await holds()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const rowsOf = async (sql: string, params: unknown[] = []) => (await store.query(sql, params)).rows;

/** Every value of every table of the farm's database, bytes (protobuf messages) as text. */
async function databaseText(): Promise<string> {
  const tables = await rowsOf(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables as { table_name: string }[]) {
    for (const row of await rowsOf(`SELECT * FROM "${table_name}"`)) {
      for (const value of Object.values(row as Record<string, unknown>)) {
        parts.push(value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : JSON.stringify(value));
      }
    }
  }
  return parts.join('\n');
}

function expectNoCanary(outputs: Record<string, string>): void {
  for (const [output, text] of Object.entries(outputs)) {
    for (const [kind, canary] of Object.entries(CANARY)) {
      expect({ output, kind, leaked: text.includes(canary) }).toEqual({ output, kind, leaked: false });
    }
  }
}

test('no canary reaches what the orchestrator keeps, serves or logs, nor an export from a shell without them', async () => {
  await bus.publish(
    Topics.changeRequests,
    farm.v1.ChangeRequest.create({
      changeRequestId: CR,
      title: 'Copy the settings',
      repo: { url: `http://bot:${CANARY.urlToken}@git.example/team/app.git`, baseRef: 'main' },
    }),
  );
  await until('planning', async () => (await getRequest(store, CR))?.request.phase === 'PLANNING');
  await bus.publish(
    Topics.taskBundles,
    farm.v1.TaskBundle.create({
      changeRequestId: CR,
      repo: { url: 'http://git.example/team/app.git', baseRef: 'main', baseCommit: 'b'.repeat(40) },
      tasks: [{ id: TASK, goal: 'Copy the settings', changeRequestId: CR }],
    }),
  );
  await until('the dispatch', async () => (await getRequest(store, CR))?.tasks[0]?.status === 'DISPATCHED');

  const line = (event: string, fields: Record<string, unknown>) =>
    JSON.stringify({ ts: new Date().toISOString(), event, taskId: TASK, dispatch: 1, ...fields });
  await bus.publish(
    Topics.taskSteps,
    farm.v1.TaskStep.create({
      changeRequestId: CR,
      taskId: TASK,
      dispatch: 1,
      runId: 'run-1',
      seq: 1,
      line: line('tool', { tool: 'read_file', ok: true, result: QUOTED }),
    }),
  );
  await bus.publish(
    Topics.commitResults,
    farm.v1.CommitResult.create({
      taskId: TASK,
      changeRequestId: CR,
      dispatch: 1,
      status: farm.v1.CommitStatus.SUCCESS,
      branchName: `agt/${TASK}`,
      commitSha: 'c'.repeat(40),
      attempts: 1,
      notes: [`summary: copied ${QUOTED}`],
      lesson: { goal: 'Copy the settings', fix: QUOTED, files: ['docs/copied.md'] },
      reviews: [{ round: 1, approved: true, objections: [QUOTED] }],
      report: {
        trajectory: [line('tool', { tool: 'run_command', ok: true, result: QUOTED })],
        diff: `--- /dev/null\n+++ b/docs/copied.md\n@@ -0,0 +1 @@\n+${QUOTED}\n`,
      },
    }),
  );
  await until('the step and the report', async () => {
    const kept = await rowsOf(
      `SELECT (SELECT count(*) FROM task_steps WHERE task_id = $1) AS steps,
              (SELECT count(*) FROM task_reports WHERE task_id = $1) AS reports`,
      [TASK],
    );
    const { steps, reports } = kept[0] as { steps: number | string; reports: number | string };
    return Number(steps) > 0 && Number(reports) > 0;
  });

  const served = {
    steps: await readTaskSteps(store, CR, TASK, 0),
    reports: await taskReports(store, CR, TASK),
    request: await getRequest(store, CR),
  };
  // A shell that holds none of the farm's secrets: only the shapes are redacted there.
  const shellWithout = secretRedactor([]);
  const found = served.request!;
  const rows = trajectoryRows(
    found.request,
    found.tasks[0],
    await taskReports(store, CR, TASK, shellWithout),
    shellWithout,
  );
  const jsonl = path.join(tmp, 'export.jsonl');
  await writeRows(rows, jsonl, 'jsonl');

  expectNoCanary({
    database: await databaseText(),
    servedSteps: JSON.stringify(served.steps),
    servedReports: JSON.stringify(served.reports),
    servedRequest: JSON.stringify(served.request),
    exportRows: JSON.stringify(rows),
    exportFile: await readFile(jsonl, 'utf8'),
    logs: logLines.join('\n'),
  });
  // What the agent reported is still there to read, the secrets marked.
  expect(JSON.stringify(served.steps)).toContain('https://[secret redacted]@elsewhere.example/x.git');
  expect(served.reports[0].diff).toContain(`+[secret redacted] [secret redacted]`);
  expect(found.request.repoUrl).toBe('http://git.example/team/app.git');
});
