import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { failedStepName, farm } from '@farm/proto';
import { InProcessBus, Topics } from '@farm/bus';
import { isProcessAlive, silentLogger } from '@farm/runtime';
import { LocalAgentPool, LocalPoolLauncher, type LocalAgentPoolConfig } from './local-agent-pool';

const WORKER = path.join(__dirname, '..', 'testing', 'pool-test-worker.ts');
const task = (id: string, goal = 'answer', changeRequestId = 'cr-1') =>
  farm.v1.CodingTask.create({ id, changeRequestId, dispatch: 1, goal });
const pidOf = (r: farm.v1.CommitResult) => Number(r.notes[0]?.replace('pid ', ''));

describe("farm up's local agent pool", () => {
  let tmp: string;
  let bus: InProcessBus;
  let results: farm.v1.CommitResult[];
  let pool: LocalAgentPool | undefined;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-pool-'));
    bus = new InProcessBus();
    results = [];
    await bus.subscribe(Topics.commitResults, 'test', async (r) => void results.push(r));
  });
  afterEach(async () => {
    await pool?.stop();
    pool = undefined;
    await bus.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const start = async (size: number, more: Partial<LocalAgentPoolConfig> = {}) => {
    pool = await LocalAgentPool.start({
      bus,
      log: silentLogger,
      workerEntry: WORKER,
      env: process.env,
      size,
      logDir: path.join(tmp, 'logs'),
      ...more,
    });
    return { pool, launcher: new LocalPoolLauncher(bus, pool) };
  };
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 600 && !what(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(what()).toBe(true);
  };

  it('runs the tasks put on the topic in warm workers, each task once, its log in a file of its own', async () => {
    const { launcher } = await start(2);
    for (let i = 0; i < 6; i++) await launcher.launch(task(`t${i}`));
    await until(() => results.length === 6);
    expect(results.map((r) => r.taskId).sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect(results.every((r) => r.status === farm.v1.CommitStatus.SUCCESS && r.dispatch === 1)).toBe(true);
    // Six tasks, at most two processes: each worker is started once and kept for the next task.
    expect(new Set(results.map(pidOf)).size).toBeLessThanOrEqual(2);
    const log = await readFile(path.join(tmp, 'logs', 't3.log'), 'utf8');
    expect(log).toBe(`task t3 in worker ${pidOf(results.find((r) => r.taskId === 't3')!)}\n`);
  });

  it('a worker that dies mid-task: SOFT_FAIL agent-died saying how, and the next task gets a new worker', async () => {
    const { launcher } = await start(1);
    await launcher.launch(task('first'));
    await until(() => results.length === 1);
    await launcher.launch(task('dies', 'crash'));
    await launcher.launch(task('after'));
    await until(() => results.length === 3);
    const died = results.find((r) => r.taskId === 'dies')!;
    expect(died.status).toBe(farm.v1.CommitStatus.SOFT_FAIL);
    expect(failedStepName(died.failedStep)).toBe('agent-died');
    expect(died.notes.join()).toContain('exited with code 3');
    expect(died.dispatch).toBe(1);
    const [first, after] = ['first', 'after'].map((id) => pidOf(results.find((r) => r.taskId === id)!));
    expect(after).not.toBe(first);
    expect(isProcessAlive(first)).toBe(false);
  });

  it("cancel stops the request's tasks and no other; stopTask stops one task", async () => {
    const { launcher } = await start(3);
    await launcher.launch(task('a', 'hang', 'cr-a'));
    await launcher.launch(task('b', 'hang', 'cr-b'));
    await launcher.launch(task('c', 'hang', 'cr-c'));
    await until(() => pool!.busy === 3);
    await launcher.cancel('cr-a');
    await until(() => results.length === 1);
    expect(results[0]).toMatchObject({ taskId: 'a', status: farm.v1.CommitStatus.SOFT_FAIL });
    expect(results[0].notes.join()).toContain('killed by SIGTERM');
    await launcher.stopTask!('c');
    await until(() => results.length === 2);
    expect(results[1].taskId).toBe('c');
    expect(pool!.busy).toBe(1); // b still runs
  });

  it('replaces a worker after tasksPerWorker tasks, and lets an idle one go', async () => {
    const { launcher } = await start(1, { tasksPerWorker: 2, idleMs: 300 });
    for (const id of ['1', '2', '3']) await launcher.launch(task(id));
    await until(() => results.length === 3);
    const pids = results.map(pidOf);
    expect(pids[1]).toBe(pids[0]);
    expect(pids[2]).not.toBe(pids[0]);
    await until(() => !isProcessAlive(pids[0]));
    // Idle for longer than idleMs: the worker exits, and the next task starts one again.
    await until(() => !isProcessAlive(pids[2]));
    await launcher.launch(task('4'));
    await until(() => results.length === 4);
    expect(pidOf(results[3])).not.toBe(pids[2]);
  });

  it('stopping the pool with a task in hand reports it (dispatched again) and leaves no worker running', async () => {
    const { launcher } = await start(2);
    await launcher.launch(task('warm'));
    await until(() => results.length === 1);
    const warm = pidOf(results[0]);
    await launcher.launch(task('long', 'hang'));
    await until(() => pool!.busy === 1);
    await pool!.stop();
    pool = undefined;
    expect(results[1]).toMatchObject({ taskId: 'long', status: farm.v1.CommitStatus.SOFT_FAIL });
    expect(failedStepName(results[1].failedStep)).toBe('agent-died');
    await until(() => !isProcessAlive(warm));
  });
});
