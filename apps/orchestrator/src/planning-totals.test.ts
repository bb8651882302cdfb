// A request's totals are every model call's: its planning's (the planner model) and its tasks'. What the store
// keeps of planning is read back by the API's summary and its list, and by the decider's state for the cost cap.
import { migrateAccess } from '@farm/access';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { pageRequests } from './request-list';
import { applyUpdates, getRequest, listRequests, loadRequestState } from './request-store';
import { orchestratorMigrations } from './schema';

let store: SqlStore;
beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  await migrateAccess(store); // the list names who submitted each request
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('cr', 'CODING', 'http://git/calc.git', 'main', 't')`,
  );
  await store.query(
    `INSERT INTO tasks (id, change_request_id, goal, status, task) VALUES ('cr-a', 'cr', 'g', 'DISPATCHED', '')`,
  );
});
afterAll(() => store.close());

test("the request's tokens and cost hold its planning and its tasks; planning is also shown on its own", async () => {
  const write = { taskDeadlineMs: 0 };
  await applyUpdates(
    store,
    'cr',
    [
      {
        kind: 'set-planning-usage',
        usage: { calls: 2, promptTokens: 2200, completionTokens: 310, totalTokens: 2510, costUsd: 0.25, model: 'p' },
      },
      { kind: 'add-tokens', taskId: 'cr-a', usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } },
      { kind: 'add-cost', taskId: 'cr-a', costUsd: 0.5 },
    ],
    write,
  );
  const expected = {
    tokens: { prompt: 2300, completion: 330, total: 2630 },
    costUsd: 0.75,
    planning: { calls: 2, totalTokens: 2510, costUsd: 0.25 },
  };
  expect((await getRequest(store, 'cr'))?.request).toMatchObject(expected);
  expect((await listRequests(store)).find((r) => r.id === 'cr')).toMatchObject(expected);
  expect((await pageRequests(store, { limit: 10 })).changeRequests.find((r) => r.id === 'cr')).toMatchObject(expected);
  expect((await loadRequestState(store, 'cr')).request?.planningCostUsd).toBe(0.25);
});
