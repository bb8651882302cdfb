// A phase move writes the new phase and reports how long the request was in the one it left (the metric
// farm_orchestrator_phase_duration_seconds), read in the same statement from the row as it was before.
import { farm } from '@farm/proto';
import { createPgliteStore, migrate, type SqlStore } from '@farm/store';
import { applyUpdates } from './request-store';
import { orchestratorMigrations } from './schema';

const P = farm.v1.Phase;
let store: SqlStore;

beforeAll(async () => {
  store = await createPgliteStore();
  await migrate(store, orchestratorMigrations);
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, updated_at)
     VALUES ('cr', 'PLANNING', 'r', 'main', 't', now() - interval '90 seconds')`,
  );
});
afterAll(() => store.close());

test('a move records the new phase and the seconds spent in the one it left', async () => {
  const moves = await store.transaction((tx) =>
    applyUpdates(tx, 'cr', [{ kind: 'move', from: P.PLANNING, to: P.CODING, reason: 'planned' }], {
      taskDeadlineMs: 1000,
    }),
  );
  expect(moves).toEqual([
    { changeRequestId: 'cr', from: P.PLANNING, to: P.CODING, reason: 'planned', secondsInPhase: expect.any(Number) },
  ]);
  expect(moves[0].secondsInPhase).toBeGreaterThanOrEqual(90);
  expect(moves[0].secondsInPhase).toBeLessThan(3600);
  const { rows } = await store.query<{ phase: string; reason: string; fresh: boolean }>(
    `SELECT phase, reason, updated_at > now() - interval '60 seconds' AS fresh FROM change_requests WHERE id = 'cr'`,
  );
  expect(rows).toEqual([{ phase: 'CODING', reason: 'planned', fresh: true }]);
  // The next move counts from this one.
  const [next] = await store.transaction((tx) =>
    applyUpdates(tx, 'cr', [{ kind: 'move', from: P.CODING, to: P.BUILD, reason: 'coded' }], { taskDeadlineMs: 1000 }),
  );
  expect(next.secondsInPhase).toBeLessThan(60);
});
