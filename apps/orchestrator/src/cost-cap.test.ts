import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { costCapMigrations, formatCostUsd, mayStartTask, requestCostSoFar } from './cost-cap';
import { orchestratorMigrations } from './schema';

describe('the per-request cost cap', () => {
  test('a request under its cap starts tasks; once the first task spent the cap, a second task does not start', () => {
    expect(mayStartTask({ capUsd: 0.5, spentUsd: 0, taskId: 't1' })).toEqual({ start: true });
    expect(mayStartTask({ capUsd: 0.5, spentUsd: 0.62, taskId: 't2' })).toEqual({
      start: false,
      reason: 'cost cap reached: the request has spent $0.6200 of its $0.5000 cap; task t2 not started',
    });
    expect(mayStartTask({ capUsd: 0.5, spentUsd: 0.5, taskId: 't2' }).start).toBe(false);
  });

  test('no cap (0) never stops a task', () => {
    expect(mayStartTask({ capUsd: 0, spentUsd: 1000, taskId: 't' })).toEqual({ start: true });
  });

  test('dollars are shown with cents, or four decimals under a dollar', () => {
    expect([formatCostUsd(12.345), formatCostUsd(0.00123)]).toEqual(['$12.35', '$0.0012']);
  });

  describe('on the orchestrator tables', () => {
    let store: SqlStore;
    beforeAll(async () => {
      store = await testPgliteStore();
      await migrate(store, [...orchestratorMigrations, ...costCapMigrations]);
      await store.query(
        `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('cr', 'CODING', 'u', 'main', 't')`,
      );
      for (const [id, cost] of [
        ['a', 0.25],
        ['b', 0.125],
        ['c', 0],
      ] as const) {
        await store.query(
          `INSERT INTO tasks (id, change_request_id, goal, status, task, cost_usd) VALUES ($1, 'cr', 'g', 'SUCCESS', '', $2)`,
          [id, cost],
        );
      }
    });
    afterAll(() => store.close());

    test('what a request spent is the sum over its tasks', async () => {
      expect(await requestCostSoFar(store, 'cr')).toBe(0.375);
      expect(await requestCostSoFar(store, 'unknown')).toBe(0);
    });
  });
});
