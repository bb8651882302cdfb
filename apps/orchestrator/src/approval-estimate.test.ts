// The approval gate's cost threshold as the orchestrator applies it on PGlite: the history of what tasks cost
// is read from the store while the request is planned, and the plan whose estimate is above
// FARM_APPROVAL_MAX_COST_USD waits, its reason showing the estimate and what it was made from.
import { InProcessBus, Topics } from '@farm/bus';
import { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { approvalConfigSchema, approvalPolicyFrom } from './approval-policy';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';
import { messageMetaSequence } from '../testing/message-meta';

const REPO = 'https://git.example.com/team/app.git';
let store: SqlStore;
let orchestrator: Orchestrator;
const meta = messageMetaSequence();

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  const bus = new InProcessBus();
  const approval = approvalPolicyFrom(
    approvalConfigSchema.parse({ FARM_APPROVAL: 'large', FARM_APPROVAL_MAX_COST_USD: '1' }),
  );
  orchestrator = new Orchestrator({
    bus,
    store,
    launcher: new TaskTopicLauncher(bus),
    log: silentLogger,
    options: { approval },
  });
  // What the repository's tasks cost so far: four succeeded at $0.40 each.
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title) VALUES ('earlier', 'DONE', $1, 'main', 't')`,
    [REPO],
  );
  for (const n of [1, 2, 3, 4]) {
    const task = farm.v1.CodingTask.encode({ id: `earlier-${n}`, changeRequestId: 'earlier' }).finish();
    await store.query(
      `INSERT INTO tasks (id, change_request_id, goal, status, task, cost_usd, finished_at)
       VALUES ($1, 'earlier', 'g', 'SUCCESS', $2, 0.4, now())`,
      [`earlier-${n}`, Buffer.from(task)],
    );
  }
});
afterAll(async () => {
  await orchestrator.stop();
  await store.close();
});

/** A request planned into `count` tasks on the repository: its phase and reason once the bundle is decided. */
async function planned(id: string, count: number): Promise<{ phase: string; reason: string }> {
  const repo = { url: REPO, baseRef: 'main', baseCommit: 'c'.repeat(40) };
  await orchestrator.onChangeRequest(
    farm.v1.ChangeRequest.create({ changeRequestId: id, title: 'Add retry', repo }),
    meta(Topics.changeRequests.name, id),
  );
  const tasks = Array.from({ length: count }, (_, i) => ({ id: `${id}-${i}`, goal: `part ${i}`, changeRequestId: id }));
  await orchestrator.onTaskBundle(
    farm.v1.TaskBundle.create({ changeRequestId: id, repo, tasks }),
    meta(Topics.taskBundles.name, id),
  );
  const { rows } = await store.query<{ phase: string; reason: string }>(
    'SELECT phase, reason FROM change_requests WHERE id = $1',
    [id],
  );
  return rows[0];
}

test('a plan estimated above FARM_APPROVAL_MAX_COST_USD from the repository’s history waits, saying what it may cost', async () => {
  expect(await planned('three-tasks', 3)).toEqual({
    phase: 'AWAITING_APPROVAL',
    reason:
      "3 task(s) at cccccccccccc wait for approval: an estimated $1.20, more than $1 (FARM_APPROVAL_MAX_COST_USD) (estimate: $1.20: 3 task(s) × $0.4000, the mean of the repository's last 4 successful task(s))",
  });
});

test('a plan estimated within it starts', async () => {
  expect((await planned('two-tasks', 2)).phase).toBe('CODING');
});
