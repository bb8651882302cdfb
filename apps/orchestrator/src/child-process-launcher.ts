import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeTaskBase64, farm } from '@farm/proto';
import { SpoolDirBus, Topics, publishSpooled, readSpoolDir, type EventBus } from '@farm/bus';
import { BackgroundWork, isSameProcess, signalGroup, startTicksOf, whenProcessEnds, type Logger } from '@farm/runtime';
import { reportForAgent, type TaskLauncher } from './launcher';

export interface ChildProcessLauncherConfig {
  bus: EventBus;
  log: Logger;
  /** The coding agent's Job-style entry point (apps/coding-agent/src/job.ts). */
  agentEntry: string;
  /** Environment for the agent (model endpoint, key, ...); the agent scrubs it before running repo code. */
  env?: NodeJS.ProcessEnv;
  /**
   * One directory per running agent (its task, pid, log and the results it spooled). Kept across restarts of
   * the farm so agents still running are adopted and results written meanwhile are published. A temp dir
   * when omitted.
   */
  stateDir?: string;
  /** Where each task's log goes (`<taskId>.log`); in the agent's state directory when omitted. */
  logDir?: string;
  /** On close: stop running agents (default), or leave them running for the next farm to adopt. */
  onClose?: 'stop' | 'leave';
  /** How often an adopted agent (not our child) is checked for having exited. */
  adoptPollMs?: number;
  /** First wait before publishing an agent's result again while the bus refuses it (default 1 s, doubling). */
  publishRetryMs?: number;
  /** How long a closing launcher that stops its agents keeps trying to publish their results (default 30 s). */
  closeGraceMs?: number;
}

interface AgentRecord {
  taskId: string;
  changeRequestId: string;
  dispatch: number;
  pid?: number;
  /** The process's start time (from /proc), so a recycled pid is not taken for the agent. */
  startTicks?: string;
}

const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;

/**
 * One machine: a process per task, in its own process group, detached from the farm so it outlives a restart
 * of `farm up`. The agent spools its CommitResult to files (SpoolDirBus); when it exits the launcher publishes
 * them, or a SOFT_FAIL `agent-died` saying how the agent ended when it reported nothing: the task is dispatched
 * again, and the next agent completes the commit a killed one had already pushed. `resume` adopts the agents a
 * previous farm process left: still running ones are watched, finished ones are published.
 */
export class ChildProcessLauncher implements TaskLauncher {
  private readonly stateDir: string;
  private readonly watched = new Map<string, AgentRecord & { dir: string }>(); // key: taskId
  private readonly finishing = new Set<string>(); // agent dirs being published
  private readonly background: BackgroundWork;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Closed with agents left running: their results are the next launcher's to publish. */
  private detached = false;
  /** Aborted on close: results still unpublished stay spooled for the next start. */
  private readonly closing = new AbortController();

  constructor(private readonly config: ChildProcessLauncherConfig) {
    this.stateDir = config.stateDir ?? mkdtempSync(join(os.tmpdir(), 'farm-agents-'));
    this.background = new BackgroundWork(config.log, 'publishing an agent result failed');
    mkdirSync(this.stateDir, { recursive: true });
  }

  async launch(task: farm.v1.ICodingTask): Promise<void> {
    const record: AgentRecord = {
      taskId: task.id!,
      changeRequestId: task.changeRequestId!,
      dispatch: task.dispatch ?? 0,
    };
    const dir = this.agentDir(record);
    if (existsSync(join(dir, 'agent.json'))) {
      this.config.log.info('agent already launched for this dispatch', { taskId: task.id, dispatch: record.dispatch });
      return;
    }
    mkdirSync(dir, { recursive: true });
    const logPath = this.config.logDir
      ? (mkdirSync(this.config.logDir, { recursive: true }), join(this.config.logDir, `${task.id}.log`))
      : join(dir, 'agent.log');
    const fd = openSync(logPath, 'a');
    let child;
    try {
      child = spawn(process.execPath, ['--import', TSX_LOADER, this.config.agentEntry], {
        env: {
          ...(this.config.env ?? process.env),
          FARM_TASK: encodeTaskBase64(task),
          FARM_AGENT_SPOOL_DIR: join(dir, 'out'),
        },
        stdio: ['ignore', fd, fd],
        detached: true, // its own process group: cancel stops its checks too; Ctrl-C on the farm does not
      });
    } finally {
      closeSync(fd);
    }
    const pid = child.pid;
    writeFileSync(join(dir, 'agent.json'), JSON.stringify({ ...record, pid, startTicks: pid && startTicksOf(pid) }));
    child.unref(); // the farm may exit while agents run; they are adopted by the next one
    this.watched.set(record.taskId, { ...record, pid, dir });
    child.on('error', (err) => this.background.add(this.finish(dir, `could not be started: ${err.message}`)));
    child.on('exit', (code, signal) => {
      if (!this.detached)
        this.background.add(this.finish(dir, signal ? `killed by ${signal}` : `exited with code ${code}`));
    });
    this.config.log.info('agent process started', { taskId: task.id, pid, log: logPath });
  }

  /**
   * After a restart: adopts the agents a previous farm process started. `dispatched` are the tasks the
   * orchestrator has as running; one with no trace here never started (the farm stopped between recording
   * the dispatch and launching) and is launched now.
   */
  async resume(dispatched: farm.v1.ICodingTask[]): Promise<void> {
    const known = new Set<string>();
    for (const name of readdirSync(this.stateDir)) {
      const dir = join(this.stateDir, name);
      const record = readRecord(dir);
      if (!record) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      known.add(`${record.taskId}.${record.dispatch}`);
      if (record.pid && isSameProcess(record.pid, record.startTicks)) {
        this.config.log.info('adopting running agent', { taskId: record.taskId, pid: record.pid });
        this.watched.set(record.taskId, { ...record, dir });
        this.pollUntilExit(record.pid, record.startTicks, dir);
      } else {
        // In the background: with the bus away, start-up goes on and the result is published once it is back.
        this.background.add(this.finish(dir, 'ended while the farm was not running'));
      }
    }
    for (const task of dispatched) {
      if (known.has(`${task.id}.${task.dispatch ?? 0}`)) continue;
      this.config.log.warn('dispatched task was never launched; launching it now', { taskId: task.id });
      await this.launch(task);
    }
  }

  async cancel(changeRequestId: string): Promise<void> {
    for (const a of this.watched.values()) if (a.changeRequestId === changeRequestId) this.kill(a, 'SIGTERM');
  }

  async stopTask(taskId: string): Promise<void> {
    const a = this.watched.get(taskId);
    if (a) this.kill(a, 'SIGTERM');
  }

  async close(): Promise<void> {
    if (this.config.onClose !== 'leave') {
      for (const a of this.watched.values()) this.kill(a, 'SIGTERM');
      // Wait for their exits to be published (the exit handlers and adoption polls finish each agent), for a
      // while: with the bus away, what is not published stays spooled for the next start.
      const giveUp = setTimeout(() => this.closing.abort(), this.config.closeGraceMs ?? 30_000);
      while (this.watched.size || this.background.size) {
        await this.background.settled();
        if (this.watched.size) await new Promise((r) => setTimeout(r, 20));
      }
      clearTimeout(giveUp);
    } else {
      this.detached = true;
      this.closing.abort();
      if (this.watched.size)
        this.config.log.info('agents left running; the next farm picks up their results', {
          agents: this.watched.size,
        });
    }
    for (const t of this.timers) clearInterval(t);
  }

  /** Agent processes running now. */
  get inFlight(): number {
    return this.watched.size;
  }

  private agentDir(r: { taskId: string; dispatch: number }): string {
    return join(this.stateDir, `${r.taskId}.${r.dispatch}`);
  }

  private kill(a: AgentRecord, signal: NodeJS.Signals): void {
    if (a.pid) signalGroup(a.pid, signal); // the whole group: the agent and the checks it runs
  }

  private pollUntilExit(pid: number, startTicks: string | undefined, dir: string): void {
    const timer = whenProcessEnds(pid, startTicks, this.config.adoptPollMs ?? 1000, () => {
      this.timers.delete(timer);
      this.background.add(this.finish(dir, 'exited'));
    });
    this.timers.add(timer);
  }

  /**
   * Publishes what the agent spooled, or a SOFT_FAIL `agent-died` on its behalf, then forgets it. The failure is
   * spooled like an agent's own result, and each message is marked once published, so a publish the bus refused
   * is tried again (with backoff, until it succeeds) without publishing anything twice; a crash between a
   * publish and its mark republishes the same bytes, which the orchestrator applies once. A launcher closed
   * meanwhile leaves the rest to the next start (`resume`).
   */
  private async finish(dir: string, how: string): Promise<void> {
    if (this.finishing.has(dir)) return;
    this.finishing.add(dir);
    try {
      const record = readRecord(dir);
      if (!record) return;
      const out = join(dir, 'out');
      const fields = { taskId: record.taskId, changeRequestId: record.changeRequestId, dispatch: record.dispatch };
      if (!readSpoolDir(out, { withPublished: true }).some((m) => m.topic === Topics.commitResults.name)) {
        this.config.log.error('agent ended without a result', { ...fields, how });
        const task = { id: record.taskId, changeRequestId: record.changeRequestId, dispatch: record.dispatch };
        // It may have pushed already: another dispatch completes (or redoes) the task.
        await reportForAgent(
          new SpoolDirBus(out, this.config.log),
          task,
          farm.v1.CommitStatus.SOFT_FAIL,
          farm.v1.FailedStep.STEP_AGENT_DIED,
          [`agent process ${how} before emitting a result`],
        );
      }
      try {
        await publishSpooled(out, this.config.bus, {
          log: this.config.log,
          signal: this.closing.signal,
          firstRetryMs: this.config.publishRetryMs,
          fields,
        });
      } catch (err) {
        if (!this.closing.signal.aborted) throw err;
        this.config.log.warn('agent result left spooled for the next start', fields);
        return;
      }
      rmSync(dir, { recursive: true, force: true });
    } finally {
      this.finishing.delete(dir);
      for (const [taskId, a] of this.watched) if (a.dir === dir) this.watched.delete(taskId);
    }
  }
}

function readRecord(dir: string): AgentRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8')) as AgentRecord;
  } catch {
    return undefined; // never launched, or not an agent directory
  }
}
