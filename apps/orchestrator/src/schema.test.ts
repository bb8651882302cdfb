import { Topics } from '@farm/bus';
import { encodeTaskBase64, farm } from '@farm/proto';
import { createPgliteStore, migrate, type SqlStore } from '@farm/store';
import { readOutbox } from './outbox';
import { dispatchedTasks, loadRequestState } from './request-store';
import { orchestratorMigrations } from './schema';

let store: SqlStore;
beforeAll(async () => {
  store = await createPgliteStore();
});
afterAll(() => store.close());

test('a store written before tasks and events were kept as bytes is converted: every task and event reads back the same', async () => {
  const before = orchestratorMigrations.findIndex((m) => m.name === 'orchestrator-005-bytes');
  expect(before).toBeGreaterThan(0);
  await migrate(store, orchestratorMigrations.slice(0, before));
  const task = farm.v1.CodingTask.create({
    id: 'cr-1',
    changeRequestId: 'cr',
    goal: 'Add multiply',
    repo: { url: 'http://git/calc.git', baseRef: 'main', baseCommit: 'abc' },
    priorNotes: ['dispatch 1: tests red'],
    dispatch: 2,
  });
  const transition = farm.v1.PhaseTransition.create({ changeRequestId: 'cr', sequence: 1, reason: 'received' });
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('cr', 'CODING', 'r', 'main', 't')`,
  );
  await store.query(
    `INSERT INTO tasks (id, change_request_id, goal, status, task_b64, dispatch) VALUES ('cr-1', 'cr', 'g', 'DISPATCHED', $1, 2)`,
    [encodeTaskBase64(task)],
  );
  await store.query('INSERT INTO outbox (topic, msg_key, payload_b64) VALUES ($1, $2, $3)', [
    Topics.phaseTransitions.name,
    'cr',
    Buffer.from(farm.v1.PhaseTransition.encode(transition).finish()).toString('base64'),
  ]);

  await migrate(store, orchestratorMigrations);

  const types = await store.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE (table_name, column_name) IN (('tasks', 'task'), ('outbox', 'payload')) ORDER BY column_name`,
  );
  expect(types.rows).toEqual([
    { column_name: 'payload', data_type: 'bytea' },
    { column_name: 'task', data_type: 'bytea' },
  ]);
  const state = await loadRequestState(store, 'cr');
  expect(state.tasks.map((t) => farm.v1.CodingTask.fromObject(t.task).toJSON())).toEqual([task.toJSON()]);
  expect((await dispatchedTasks(store)).map((t) => t.toJSON())).toEqual([task.toJSON()]);
  const [event] = await readOutbox(store, 'cr', Topics.phaseTransitions.name, 0);
  expect(farm.v1.PhaseTransition.decode(event.payload).toJSON()).toEqual(transition.toJSON());
});
