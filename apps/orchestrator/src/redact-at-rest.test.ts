// A database written by an earlier farm, whose task steps and reports still hold a `--repo` URL's token, is
// redacted at rest by the migration: afterwards no row holds the token, whoever reads the tables, and rows with no
// secret are left byte for byte.
import { farm } from '@farm/proto';
import { createPgliteStore, migrate, type SqlStore } from '@farm/store';
import { orchestratorMigrations } from './schema';

const TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
const URL_WITH_TOKEN = `https://farm-bot:${TOKEN}@git.example/acme/app.git`;

let store: SqlStore;
beforeEach(async () => {
  store = await createPgliteStore();
});
afterEach(() => store.close());

/** Every byte of the three tables, as text (the reports' protobuf bytes included). */
async function everything(): Promise<string> {
  const steps = await store.query<{ line: string }>('SELECT line FROM task_steps');
  const reports = await store.query<{ result: Uint8Array }>(
    'SELECT result FROM task_reports UNION ALL SELECT result FROM build_reports',
  );
  return [...steps.rows.map((r) => r.line), ...reports.rows.map((r) => Buffer.from(r.result).toString('latin1'))].join(
    '\n',
  );
}

test('steps and reports of an earlier version holding a URL token are redacted once; clean rows stay as they were', async () => {
  const at = orchestratorMigrations.findIndex((m) => m.name === 'orchestrator-014-redact-at-rest');
  expect(at).toBeGreaterThan(0);
  await migrate(store, orchestratorMigrations.slice(0, at));
  const insertStep = (seq: number, line: string) =>
    store.query(
      `INSERT INTO task_steps (change_request_id, task_id, dispatch, run_id, seq, line) VALUES ('cr', 'cr-1', 1, 'r', $1, $2)`,
      [seq, line],
    );
  await insertStep(1, JSON.stringify({ event: 'tool', input: { command: `git clone ${URL_WITH_TOKEN}` } }));
  const clean = JSON.stringify({ event: 'checks', ok: true, output: 'https://git.example/acme/app.git 3 passed' });
  await insertStep(2, clean);
  const withToken = farm.v1.CommitResult.create({
    taskId: 'cr-1',
    dispatch: 1,
    changeRequestId: 'cr',
    notes: [`fetched ${URL_WITH_TOKEN}`],
    report: { trajectory: [JSON.stringify({ event: 'clone', url: URL_WITH_TOKEN })] },
  });
  const cleanResult = farm.v1.CommitResult.create({
    taskId: 'cr-2',
    dispatch: 1,
    changeRequestId: 'cr',
    notes: ['ok'],
  });
  const cleanBytes = farm.v1.CommitResult.encode(cleanResult).finish();
  for (const r of [withToken, cleanResult])
    await store.query(
      'INSERT INTO task_reports (task_id, dispatch, change_request_id, result) VALUES ($1, $2, $3, $4)',
      [r.taskId, r.dispatch, r.changeRequestId, farm.v1.CommitResult.encode(r).finish()],
    );
  const build = farm.v1.BuildResult.create({ changeRequestId: 'cr', notes: [`pushed to ${URL_WITH_TOKEN}`] });
  await store.query('INSERT INTO build_reports (change_request_id, result) VALUES ($1, $2)', [
    'cr',
    farm.v1.BuildResult.encode(build).finish(),
  ]);
  expect(await everything()).toContain(TOKEN);

  await migrate(store, orchestratorMigrations);

  expect(await everything()).not.toContain(TOKEN);
  const steps = await store.query<{ seq: number; line: string }>('SELECT seq, line FROM task_steps ORDER BY seq');
  expect(JSON.parse(steps.rows[0].line)).toEqual({
    event: 'tool',
    input: { command: 'git clone https://[secret redacted]@git.example/acme/app.git' },
  });
  expect(steps.rows[1].line).toBe(clean);
  const reports = await store.query<{ task_id: string; result: Uint8Array }>(
    'SELECT task_id, result FROM task_reports ORDER BY task_id',
  );
  const redacted = farm.v1.CommitResult.decode(reports.rows[0].result);
  expect(redacted.notes).toEqual(['fetched https://[secret redacted]@git.example/acme/app.git']);
  expect(redacted.report?.trajectory?.[0]).toContain('https://[secret redacted]@git.example');
  expect(Buffer.from(reports.rows[1].result).equals(Buffer.from(cleanBytes))).toBe(true);
  const [buildRow] = (await store.query<{ result: Uint8Array }>('SELECT result FROM build_reports')).rows;
  expect(farm.v1.BuildResult.decode(buildRow.result).notes).toEqual([
    'pushed to https://[secret redacted]@git.example/acme/app.git',
  ]);
});
