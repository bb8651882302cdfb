// A launch refused by a condition of the moment (the state disk full: ENOSPC) is no verdict on the task: its
// dispatch waits and is launched once the condition clears, and the request goes on; a launch refused for good
// still ends the dispatch at once.
import { InProcessBus, Topics } from '@farm/bus';
import { farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { isTemporaryLaunchError, type TaskLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';
import { messageMetaSequence } from '../testing/message-meta';

let store: SqlStore;
let orchestrator: Orchestrator;
const meta = messageMetaSequence();
/** What the launcher does with each launch: throw what the test says, else start the task. */
const refusals: Error[] = [];
const launched: string[] = [];
const diskFull = () =>
  Object.assign(new Error("ENOSPC: no space left on device, mkdir '/state/logs/x'"), { code: 'ENOSPC' });

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  const launcher: TaskLauncher = {
    launch: async (task) => {
      const refusal = refusals.shift();
      if (refusal) throw refusal;
      launched.push(task.id!);
    },
    cancel: async () => undefined,
    close: async () => undefined,
  };
  orchestrator = new Orchestrator({ bus: new InProcessBus(), store, launcher, log: silentLogger });
});
afterAll(async () => {
  await orchestrator.stop();
  await store.close();
});

async function oneTaskRequest(id: string): Promise<void> {
  const repo = { url: 'https://git.example.com/team/app.git', baseRef: 'main', baseCommit: 'c'.repeat(40) };
  await orchestrator.onChangeRequest(
    farm.v1.ChangeRequest.create({ changeRequestId: id, title: 'Add retry', repo }),
    meta(Topics.changeRequests.name, id),
  );
  await orchestrator.onTaskBundle(
    farm.v1.TaskBundle.create({
      changeRequestId: id,
      repo,
      tasks: [{ id: `${id}-a`, goal: 'g', changeRequestId: id }],
    }),
    meta(Topics.taskBundles.name, id),
  );
}
const taskOf = async (id: string) =>
  (await store.query<{ status: string; notes: string }>('SELECT status, notes FROM tasks WHERE id = $1', [id])).rows[0];

test('a full disk at launch: the dispatch waits and is launched when space is back, not failed', async () => {
  refusals.push(diskFull(), diskFull());
  await oneTaskRequest('disk-full');
  for (let i = 0; i < 500 && !launched.includes('disk-full-a'); i++) await new Promise((r) => setTimeout(r, 20));
  expect(launched).toContain('disk-full-a');
  expect(await taskOf('disk-full-a')).toEqual({ status: 'DISPATCHED', notes: '' });
});

test('a launch refused for good ends the dispatch HARD_FAIL at once', async () => {
  refusals.push(new Error('no such image'));
  await oneTaskRequest('no-image');
  expect(await taskOf('no-image-a')).toEqual({ status: 'HARD_FAIL', notes: 'launcher failed: no such image' });
  expect(launched).not.toContain('no-image-a');
});

test('what counts as a condition of the moment, through the error’s causes', () => {
  expect(isTemporaryLaunchError(diskFull())).toBe(true);
  expect(
    isTemporaryLaunchError(new Error('spawn failed', { cause: Object.assign(new Error('x'), { code: 'EAGAIN' }) })),
  ).toBe(true);
  expect(isTemporaryLaunchError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
  expect(isTemporaryLaunchError('ENOSPC')).toBe(false);
});
