import http from 'node:http';
import { InProcessBus, Topics } from '@farm/bus';
import { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { createPgliteStore, migrate, type SqlStore } from '@farm/store';
import { streamTransitions } from './change-request-events';
import { loadOrchestratorConfig, orchestratorOptionsFrom } from './config';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';

const DAY_S = 24 * 3600;
let store: SqlStore;
let orchestrator: Orchestrator;

beforeAll(async () => {
  store = await createPgliteStore();
  await migrate(store, orchestratorMigrations);
  const bus = new InProcessBus();
  const options = orchestratorOptionsFrom(
    loadOrchestratorConfig({
      FARM_OUTBOX_RETENTION_S: String(7 * DAY_S),
      FARM_PROCESSED_RETENTION_S: String(14 * DAY_S),
    }),
  );
  orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger, options });
  for (const [id, phase] of [
    ['done', 'DONE'],
    ['live', 'CODING'],
  ])
    await store.query(
      `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ($1, $2, 'r', 'main', 't')`,
      [id, phase],
    );
});
afterAll(() => store.close());

/** An outbox row of a request, published `ageDays` ago (null: not yet published). */
async function outboxRow(key: string, ageDays: number | null, label: string): Promise<void> {
  const transition = farm.v1.PhaseTransition.encode({ changeRequestId: key, sequence: 1, reason: label }).finish();
  await store.query(
    `INSERT INTO outbox (topic, msg_key, payload, published_at)
     VALUES ($1, $2, $3, CASE WHEN $4::int IS NULL THEN NULL ELSE now() - ($4::int * interval '1 day') END)`,
    [Topics.phaseTransitions.name, key, Buffer.from(transition), ageDays],
  );
}

const reasonsLeft = async () =>
  (await store.query<{ payload: Uint8Array }>('SELECT payload FROM outbox ORDER BY id')).rows.map(
    (r) => farm.v1.PhaseTransition.decode(r.payload).reason,
  );

/** A task report of a request's task, received `ageDays` ago. */
async function taskReport(crId: string, taskId: string, ageDays: number): Promise<void> {
  const result = farm.v1.CommitResult.encode({ taskId, changeRequestId: crId, dispatch: 1 }).finish();
  await store.query(
    `INSERT INTO task_reports (task_id, dispatch, change_request_id, result, received_at)
     VALUES ($1, 1, $2, $3, now() - ($4::int * interval '1 day'))`,
    [taskId, crId, Buffer.from(result), ageDays],
  );
}

/** A live step of a request's task, received `ageDays` ago. */
async function taskStep(crId: string, taskId: string, ageDays: number): Promise<void> {
  await store.query(
    `INSERT INTO task_steps (change_request_id, task_id, dispatch, run_id, seq, line, received_at)
     VALUES ($1, $2, 1, 'run', 1, '{}', now() - ($3::int * interval '1 day'))`,
    [crId, taskId, ageDays],
  );
}

test('the sweep prunes sent outbox rows, task reports and steps of ended requests, and processed-message ids, past their retention', async () => {
  await outboxRow('done', 8, 'done, sent 8 days ago');
  await outboxRow('done', 1, 'done, sent yesterday');
  await outboxRow('done', null, 'done, not sent yet');
  await outboxRow('live', 8, 'live, sent 8 days ago');
  await outboxRow('gone', 8, 'never consumed, sent 8 days ago');
  await taskReport('done', 'done-old', 8);
  await taskReport('done', 'done-recent', 1);
  await taskReport('live', 'live-old', 8);
  for (const [crId, ageDays] of [
    ['done', 8],
    ['done', 1],
    ['live', 8],
  ] as const)
    await store.query(
      `INSERT INTO build_reports (change_request_id, result, received_at) VALUES ($1, '\\x', now() - ($2::int * interval '1 day'))`,
      [crId, ageDays],
    );
  await taskStep('done', 'done-old', 8);
  await taskStep('done', 'done-recent', 1);
  await taskStep('live', 'live-old', 8);
  for (const [id, ageDays] of [
    ['old', 15],
    ['recent', 13],
  ] as const)
    await store.query(
      `INSERT INTO processed_messages (consumer, message_id, processed_at) VALUES ('orchestrator', $1, now() - ($2::int * interval '1 day'))`,
      [id, ageDays],
    );

  expect(await orchestrator.pruneHistory()).toEqual({
    outbox: 2,
    taskReports: 1,
    buildReports: 1,
    taskSteps: 1,
    processedMessages: 1,
  });

  // A live request keeps its whole history (its event stream reads it back); nothing unsent is dropped.
  expect(await reasonsLeft()).toEqual(['done, sent yesterday', 'done, not sent yet', 'live, sent 8 days ago']);
  const ids = await store.query<{ message_id: string }>('SELECT message_id FROM processed_messages');
  expect(ids.rows.map((r) => r.message_id)).toEqual(['recent']);
  const reports = await store.query<{ task_id: string }>('SELECT task_id FROM task_reports ORDER BY task_id');
  expect(reports.rows.map((r) => r.task_id)).toEqual(['done-recent', 'live-old']);
  const steps = await store.query<{ task_id: string }>('SELECT task_id FROM task_steps ORDER BY task_id');
  expect(steps.rows.map((r) => r.task_id)).toEqual(['done-recent', 'live-old']);
  expect(await orchestrator.pruneHistory()).toEqual({
    outbox: 0,
    taskReports: 0,
    buildReports: 0,
    taskSteps: 0,
    processedMessages: 0,
  });
});

test('retention settings are checked at start-up: a negative one is refused naming the variable', () => {
  expect(() => loadOrchestratorConfig({ FARM_OUTBOX_RETENTION_S: '-1' })).toThrow(/FARM_OUTBOX_RETENTION_S/);
  expect(orchestratorOptionsFrom(loadOrchestratorConfig({}))).toMatchObject({
    outboxRetentionMs: 7 * DAY_S * 1000,
    processedRetentionMs: 14 * DAY_S * 1000,
  });
});

test('the event stream of an ended request whose history was pruned ends at once instead of waiting', async () => {
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('pruned', 'FAILED', 'r', 'main', 't')`,
  );
  const server = http.createServer((_req, res) => {
    void streamTransitions({ db: store, changeRequestId: 'pruned', afterSequence: 0, res, log: silentLogger });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    // Resolves only once the server ends the response (jest's timeout would fail the test otherwise).
    expect(await res.text()).toBe(': transitions of pruned after 0\n\n');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
