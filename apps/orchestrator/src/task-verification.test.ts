// What verified a task's change is stored with the task and shown in the request's task entries (the API's
// GET /v1/change-requests/{id} returns getRequest as is).
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { apiDocument } from './api-document';
import { farm } from '@farm/proto';
import { applyUpdates, getRequest, loadRequestState } from './request-store';
import { orchestratorMigrations } from './schema';
import { taskAccountingMigrations } from './task-accounting';

let store: SqlStore;
beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, [...orchestratorMigrations, ...taskAccountingMigrations]);
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('cr', 'CODING', 'http://git/calc.git', 'main', 't')`,
  );
  for (const id of ['t1', 't2'])
    await store.query(
      `INSERT INTO tasks (id, change_request_id, goal, status, task) VALUES ($1, 'cr', 'g', 'DISPATCHED', '')`,
      [id],
    );
});
afterAll(() => store.close());

test("a task's verification is stored and shown with it; a task without one shows none", async () => {
  const verification = {
    checks: [{ name: 'test', run: 'pytest -q', ok: true }],
    differential: { testFiles: ['tests/test_mul.py'], base: 'TEST_RUN_FAILED', branch: 'TEST_RUN_PASSED' },
  };
  await applyUpdates(store, 'cr', [{ kind: 'set-verification', taskId: 't1', verification }], { taskDeadlineMs: 0 });
  const found = await getRequest(store, 'cr');
  expect(found?.tasks.map((t) => [t.id, t.verification])).toEqual([
    ['t1', verification],
    ['t2', undefined],
  ]);
  expect(found?.tasks[1]).not.toHaveProperty('verification');
  // As the API documents it: both task entries are valid TaskSummary objects.
  const check = apiDocument().schema('TaskSummary');
  expect(found!.tasks.map((t) => check(t))).toEqual([[], []]);
  expect(check({ ...found!.tasks[0], verification: { differential: { base: 'RED' } } })).not.toEqual([]);
});

test("the stored verification comes back with the task's state: a build after a restart still knows the tree", async () => {
  const verification = { checks: [{ name: 'check', run: 'make test', ok: true }], treeSha: 'a'.repeat(40) };
  await applyUpdates(store, 'cr', [{ kind: 'set-verification', taskId: 't2', verification }], { taskDeadlineMs: 0 });
  const state = await loadRequestState(store, 'cr');
  expect(state.tasks.find((t) => t.id === 't2')?.verification).toEqual(farm.v1.Verification.fromObject(verification));
  expect(state.tasks.find((t) => t.id === 't2')?.verification?.treeSha).toBe('a'.repeat(40));
});
