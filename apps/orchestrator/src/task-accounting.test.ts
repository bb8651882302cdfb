import { farm } from '@farm/proto';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { orchestratorMigrations } from './schema';
import { LessonCandidates, storeLesson } from '@farm/lessons';
import { applyUpdates, loadRequestState } from './request-store';
import { gateDispatch, lessonToKeep, taskAccountingMigrations, type TaskAccountingSettings } from './task-accounting';

const S = farm.v1.CommitStatus;
const settings: TaskAccountingSettings = { requestMaxCostUsd: 0.5, lessons: true, lessonsPerTask: 3 };
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

/** A task's gate as the decider takes it, from the request's state as the store loads it. */
async function beforeDispatch(db: SqlStore, crId: string, task: farm.v1.ICodingTask, s: TaskAccountingSettings) {
  const state = await loadRequestState(db, crId, s.lessons ? { lessons: new LessonCandidates() } : {});
  const spentUsd = state.tasks.reduce((sum, t) => sum + t.costUsd, 0);
  return gateDispatch(task, { spentUsd, lessonCandidates: state.lessonCandidates ?? [] }, s);
}

/** A task result counted as the orchestrator writes it: its cost added to its row, its lesson kept if it should be. */
async function afterResult(db: SqlStore, result: farm.v1.ICommitResult, s: TaskAccountingSettings): Promise<void> {
  const costUsd = result.costUsd ?? 0;
  await applyUpdates(db, 'cr', [{ kind: 'add-cost', taskId: result.taskId!, costUsd }], { taskDeadlineMs: 0 });
  const lesson = lessonToKeep(result, s);
  if (lesson) await storeLesson(db, lesson);
}

test('a request under its cap dispatches with the repository’s similar lessons; after the first task spent the cap, the second does not start', async () => {
  const repo = { url: 'http://git/calc.git' };
  const first = await beforeDispatch(store, 'cr', { id: 't1', goal: 'Add multiply to calc.py', repo }, settings);
  expect(first).toEqual({ start: true, task: expect.objectContaining({ id: 't1', lessons: [] }) });

  await afterResult(
    store,
    {
      taskId: 't1',
      status: S.SUCCESS,
      costUsd: 0.6,
      lesson: { taskId: 't1', repoUrl: repo.url, goal: 'Add multiply to calc.py', files: ['calc.py'], fix: 'added it' },
    },
    settings,
  );
  const second = await beforeDispatch(store, 'cr', { id: 't2', goal: 'Add divide to calc.py', repo }, settings);
  expect(second).toEqual({
    start: false,
    reason: 'cost cap reached: the request has spent $0.6000 of its $0.5000 cap; task t2 not started',
  });

  const uncapped = await beforeDispatch(
    store,
    'cr',
    { id: 't2', goal: 'Add divide to calc.py', repo },
    { ...settings, requestMaxCostUsd: 0 },
  );
  expect(uncapped.start && uncapped.task.lessons!.map((l) => l.goal)).toEqual(['Add multiply to calc.py']);
});

test('a failed task’s cost counts, its lesson (if any) is not stored; lessons switched off are neither stored nor attached', async () => {
  await afterResult(
    store,
    {
      taskId: 't2',
      status: S.SOFT_FAIL,
      costUsd: 0.25,
      lesson: { taskId: 't2', repoUrl: 'http://git/calc.git', goal: 'x' },
    },
    settings,
  );
  const spent = await store.query<{ cost_usd: number }>(`SELECT cost_usd FROM tasks WHERE id = 't2'`);
  expect(Number(spent.rows[0].cost_usd)).toBe(0.25);
  expect((await store.query(`SELECT 1 FROM lessons WHERE task_id = 't2'`)).rows).toHaveLength(0);
  const off = await beforeDispatch(
    store,
    'cr',
    { id: 't3', goal: 'Add multiply', repo: { url: 'http://git/calc.git' } },
    { ...settings, requestMaxCostUsd: 0, lessons: false },
  );
  expect(off).toEqual({ start: true, task: expect.objectContaining({ lessons: [] }) });
});
