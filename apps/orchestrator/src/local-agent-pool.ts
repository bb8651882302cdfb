import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Counter, Gauge } from 'prom-client';
import { encodeTaskBase64, farm } from '@farm/proto';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { poolReplySchema } from '@farm/coding-agent';
import { howItEnded } from '@farm/process-runner';
import { metricsRegistry, nodeArgsFor, signalGroup, type Logger } from '@farm/runtime';
import { TaskTopicLauncher, reportForAgent, type TaskLauncher } from './launcher';
import { launcherMetrics } from './kubernetes-metrics';

const poolMetrics = {
  workers: new Gauge({
    name: 'farm_agent_pool_workers',
    help: "Worker processes of farm up's local agent pool, running now",
    registers: [metricsRegistry],
  }),
  workerStarts: new Counter({
    name: 'farm_agent_pool_worker_starts_total',
    help: "Worker processes farm up's local agent pool started (one per worker, again after it ended or was replaced)",
    registers: [metricsRegistry],
  }),
  tasks: new Counter({
    name: 'farm_agent_pool_tasks_total',
    help: "Tasks run by farm up's local agent pool, by outcome: result (the worker answered) or worker-ended",
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  }),
};

export interface LocalAgentPoolConfig {
  bus: EventBus;
  log: Logger;
  /** The script a worker runs: `entryScript('agent-pool-worker')`, or a test's own. */
  workerEntry: string;
  /** The workers' environment (model endpoint, srm, credentials files), as agent processes get it. */
  env: NodeJS.ProcessEnv;
  /** Workers at most, each running one task at a time (FARM_AGENT_PROCESSES). */
  size: number;
  /** Each task's log goes to `<logDir>/<taskId>.log`; a worker's own output to `<logDir>/agent-pool-<n>.log`. */
  logDir: string;
  /** A worker is replaced after this many tasks, bounding what a long-lived process accumulates (default 100). */
  tasksPerWorker?: number;
  /** A worker idle this long exits, giving its memory back; the next task starts one again (default 30 s). */
  idleMs?: number;
  /** The consumer group on the task topic (default coding-agent, as the cluster's workers). */
  group?: string;
}

interface Running {
  task: farm.v1.ICodingTask;
  settle(outcome: { result?: string; ended?: string }): void;
}

/**
 * One worker process of the pool: started on first use with an IPC channel, in its own process group (so a
 * cancel stops what it runs), told one task at a time. It ends on its own when the farm goes away.
 */
class PoolWorker {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private running?: Running;
  private exited = false;
  private steps: Promise<void> = Promise.resolve();
  tasksRun = 0;

  constructor(
    readonly slot: number,
    private readonly config: LocalAgentPoolConfig,
    private readonly onExit: (worker: PoolWorker) => void,
  ) {
    const fd = openSync(join(config.logDir, `agent-pool-${slot}.log`), 'a');
    try {
      this.child = spawn(process.execPath, nodeArgsFor(config.workerEntry), {
        env: config.env,
        stdio: ['ignore', fd, fd, 'ipc'],
        detached: true,
      });
    } finally {
      closeSync(fd);
    }
    poolMetrics.workerStarts.inc();
    poolMetrics.workers.inc();
    this.ready = new Promise((resolve, reject) => {
      // A failed spawn (no exit event follows) or a send on a closed channel: the worker is done with.
      this.child.on('error', (err) => {
        reject(err);
        this.kill('SIGKILL');
        this.finish(this.child.pid ? `failed: ${err.message}` : `could not be started: ${err.message}`);
      });
      this.child.on('message', (raw: unknown) => {
        const reply = poolReplySchema.safeParse(raw);
        if (!reply.success) {
          config.log.error('agent pool worker said something unexpected; replacing it', { slot, pid: this.pid });
          this.kill('SIGKILL');
        } else if (reply.data.kind === 'ready') resolve();
        else if (this.running?.task.id !== reply.data.taskId) return;
        else if (reply.data.kind === 'step') this.publishStep(reply.data.step);
        else this.running.settle({ result: reply.data.result });
      });
    });
    this.ready.catch(() => undefined); // the error handler settles the task
    this.child.once('exit', (code, signal) => this.finish(howItEnded(code, signal)));
  }

  /** A running task's step (TaskStep, base64), published in the order the worker sent them; never fails the task. */
  private publishStep(base64: string): void {
    const step = farm.v1.TaskStep.decode(Buffer.from(base64, 'base64'));
    this.steps = this.steps
      .then(() => this.config.bus.publish(Topics.taskSteps, step))
      .catch((err: unknown) => this.config.log.warn('a live step was not published', { taskId: step.taskId, err }));
  }

  private finish(how: string): void {
    if (this.exited) return;
    this.exited = true;
    poolMetrics.workers.dec();
    this.running?.settle({ ended: how });
    this.onExit(this);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  get task(): farm.v1.ICodingTask | undefined {
    return this.running?.task;
  }

  /** Runs `task`; resolves with its CommitResult (base64), or with how the worker ended without one. */
  async run(task: farm.v1.ICodingTask, logFile: string): Promise<{ result?: string; ended?: string }> {
    const outcome = new Promise<{ result?: string; ended?: string }>((resolve) => {
      this.running = { task, settle: resolve };
    });
    // Told once it is ready; a worker that ends first (never ready) settles the outcome through its exit.
    this.ready
      .then(() => {
        if (!this.exited) this.child.send({ kind: 'task', task: encodeTaskBase64(task), logFile });
      })
      .catch(() => undefined);
    const done = await outcome;
    this.running = undefined;
    this.tasksRun++;
    return done;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.exited || !this.child.pid) return;
    signalGroup(this.child.pid, signal);
  }

  /** Ends the worker (it exits on its own when the channel closes) and waits for it. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((resolve) => this.child.once('exit', resolve).once('error', resolve));
    if (this.child.connected) this.child.disconnect();
    else this.kill('SIGTERM');
    await gone;
  }
}

/**
 * `farm up`'s local agent pool (FARM_LAUNCHER=pool on one machine): the orchestrator puts tasks on the task
 * topic as for the cluster's worker replicas, and this pool consumes them with `size` members of the same group,
 * each handing its task to a warm worker process of its own; the task's CommitResult is published before the
 * message counts as handled. A worker that ends mid-task (crash, kill, cancel) is reported as the agent process
 * would be (SOFT_FAIL, agent-died: dispatched again) and replaced on the next task; a farm that dies mid-task
 * finds the task's message unhandled when it starts again, and runs it again (tasks are idempotent by id).
 */
export class LocalAgentPool {
  private readonly workers: (PoolWorker | undefined)[];
  private readonly subscriptions: Subscription[] = [];
  private readonly idleTimers = new Map<number, NodeJS.Timeout>();
  private stopping = false;

  private constructor(private readonly config: LocalAgentPoolConfig) {
    this.workers = new Array<PoolWorker | undefined>(config.size).fill(undefined);
  }

  static async start(config: LocalAgentPoolConfig): Promise<LocalAgentPool> {
    if (config.size < 1) throw new Error('the local agent pool needs at least one worker');
    mkdirSync(config.logDir, { recursive: true });
    const pool = new LocalAgentPool(config);
    for (let slot = 0; slot < config.size; slot++) {
      pool.subscriptions.push(
        await config.bus.subscribe(Topics.codingTasks, config.group ?? 'coding-agent', (task) =>
          pool.runTask(slot, task),
        ),
      );
    }
    config.log.info('local agent pool consuming tasks', { workers: config.size });
    return pool;
  }

  /** Tasks being run now. */
  get busy(): number {
    return this.workers.filter((w) => w?.task).length;
  }

  /** Stops the workers running the request's tasks; their results say so and are ignored (cancelled). */
  async cancel(changeRequestId: string): Promise<void> {
    for (const w of this.workers) if (w?.task?.changeRequestId === changeRequestId) w.kill('SIGTERM');
  }

  /** Stops the worker running `taskId` (its deadline passed): reported as agent-died, as a killed process is. */
  async stopTask(taskId: string): Promise<void> {
    for (const w of this.workers) if (w?.task?.id === taskId) w.kill('SIGTERM');
  }

  /** Stops the workers (a task in hand is reported as agent-died: dispatched again) and the consumers. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.idleTimers.values()) clearTimeout(t);
    await Promise.all(this.workers.map((w) => w?.stop()));
    await Promise.all(this.subscriptions.map((s) => s.stop()));
  }

  private async runTask(slot: number, task: farm.v1.CodingTask): Promise<void> {
    clearTimeout(this.idleTimers.get(slot));
    const worker = this.workerFor(slot);
    const logFile = join(this.config.logDir, `${task.id}.log`);
    this.config.log.info('task handed to a pool worker', { taskId: task.id, slot, pid: worker.pid, log: logFile });
    const outcome = await worker.run(task, logFile);
    if (outcome.result) {
      poolMetrics.tasks.inc({ outcome: 'result' });
      const result = farm.v1.CommitResult.decode(Buffer.from(outcome.result, 'base64'));
      // A task of the pool is this machine's Job: its outcome is counted under the same name.
      const succeeded = result.status === farm.v1.CommitStatus.SUCCESS;
      launcherMetrics.jobs.inc({ outcome: succeeded ? 'succeeded' : 'agent_failed' });
      await this.config.bus.publish(Topics.commitResults, result);
    } else {
      poolMetrics.tasks.inc({ outcome: 'worker-ended' });
      launcherMetrics.jobs.inc({ outcome: 'crashed' });
      const how = outcome.ended ?? 'ended';
      this.config.log.warn('pool worker ended during a task', { taskId: task.id, slot, how });
      await reportForAgent(
        this.config.bus,
        { id: task.id, changeRequestId: task.changeRequestId, dispatch: task.dispatch ?? 0 },
        farm.v1.CommitStatus.SOFT_FAIL,
        farm.v1.FailedStep.STEP_AGENT_DIED,
        [`agent pool worker ${how} before emitting a result`],
      );
    }
    if (worker.alive && worker.tasksRun >= (this.config.tasksPerWorker ?? 100)) void worker.stop();
    else if (worker.alive && !this.stopping) {
      this.idleTimers.set(slot, setTimeout(() => void worker.stop(), this.config.idleMs ?? 30_000).unref());
    }
  }

  private workerFor(slot: number): PoolWorker {
    const current = this.workers[slot];
    if (current?.alive) return current;
    const worker = new PoolWorker(slot, this.config, (w) => {
      if (this.workers[slot] === w) this.workers[slot] = undefined;
    });
    this.workers[slot] = worker;
    return worker;
  }
}

/**
 * FARM_LAUNCHER=pool on one machine: tasks go on the topic as for the cluster's pool, and cancels and deadlines
 * reach the local pool's workers.
 */
export class LocalPoolLauncher implements TaskLauncher {
  private readonly topic: TaskTopicLauncher;
  constructor(
    bus: EventBus,
    private readonly pool: LocalAgentPool,
  ) {
    this.topic = new TaskTopicLauncher(bus);
  }
  launch(task: farm.v1.ICodingTask): Promise<void> {
    return this.topic.launch(task);
  }
  cancel(changeRequestId: string): Promise<void> {
    return this.pool.cancel(changeRequestId);
  }
  stopTask(taskId: string): Promise<void> {
    return this.pool.stopTask(taskId);
  }
  async close(): Promise<void> {}
}
