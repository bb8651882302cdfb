import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { encodeTaskBase64, farm } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';
import { DetachedProcessRunner } from '@farm/process-runner';
import type { Logger } from '@farm/runtime';
import { reportForAgent, type TaskLauncher } from './launcher';
import { launcherMetrics, type JobOutcome } from './kubernetes-metrics';

export interface ChildProcessLauncherConfig {
  bus: EventBus;
  log: Logger;
  /** The script an agent process runs: `entryScript('agent-job')`, or a test's own. */
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
  /** Agent processes running at once; further tasks wait, in order, for one to end (default: unbounded). */
  maxRunning?: number;
  /** How often the steps running agents spooled are published, for following them live (default 500 ms). */
  liveStepsEveryMs?: number;
}

interface AgentRecord {
  taskId: string;
  changeRequestId: string;
  dispatch: number;
}

/**
 * One machine: a detached process per task (DetachedProcessRunner), so that it outlives a restart of `farm up`.
 * The agent spools its CommitResult; when it exits the runner publishes it, or a SOFT_FAIL `agent-died` saying
 * how the agent ended when it reported nothing: the task is dispatched again, and the next agent completes the
 * commit a killed one had already pushed. `resume` adopts the agents a previous farm process left.
 */
export class ChildProcessLauncher implements TaskLauncher {
  private readonly runner: DetachedProcessRunner<AgentRecord>;

  constructor(private readonly config: ChildProcessLauncherConfig) {
    this.runner = new DetachedProcessRunner<AgentRecord>({
      bus: config.bus,
      log: config.log,
      kind: 'agent',
      stateDir: config.stateDir,
      recordFile: 'agent.json',
      resultTopic: Topics.commitResults.name,
      // It may have pushed already: another dispatch completes (or redoes) the task.
      reportFor: (spool, r, how) =>
        reportForAgent(
          spool,
          { id: r.taskId, changeRequestId: r.changeRequestId, dispatch: r.dispatch },
          farm.v1.CommitStatus.SOFT_FAIL,
          farm.v1.FailedStep.STEP_AGENT_DIED,
          [`agent process ${how} before emitting a result`],
        ),
      logFields: (r) => ({ taskId: r.taskId, changeRequestId: r.changeRequestId, dispatch: r.dispatch }),
      // An agent process is this machine's Job: its outcomes are counted under the same names.
      onEnded: (_r, how) => launcherMetrics.jobs.inc({ outcome: processOutcome(how) }),
      // Agents stopped with the farm are reported (agent-died), so their tasks are dispatched again.
      finishOnClose: true,
      closeGraceMs: config.closeGraceMs,
      adoptPollMs: config.adoptPollMs,
      publishRetryMs: config.publishRetryMs,
      maxRunning: config.maxRunning,
      liveEveryMs: config.liveStepsEveryMs ?? 500,
    });
  }

  async launch(task: farm.v1.ICodingTask): Promise<void> {
    const record: AgentRecord = {
      taskId: task.id!,
      changeRequestId: task.changeRequestId!,
      dispatch: task.dispatch ?? 0,
    };
    const name = agentDirName(record);
    if (this.runner.started(name)) {
      this.config.log.info('agent already launched for this dispatch', { taskId: task.id, dispatch: record.dispatch });
      return;
    }
    const logFile = this.config.logDir
      ? (mkdirSync(this.config.logDir, { recursive: true }), join(this.config.logDir, `${task.id}.log`))
      : (mkdirSync(this.runner.dirOf(name), { recursive: true }), join(this.runner.dirOf(name), 'agent.log'));
    const { pid } = this.runner.start(name, record, {
      entry: this.config.agentEntry,
      env: {
        ...(this.config.env ?? process.env),
        FARM_TASK: encodeTaskBase64(task),
        FARM_AGENT_SPOOL_DIR: this.runner.spoolDirOf(name),
      },
      logFile,
    });
    if (pid) this.config.log.info('agent process started', { taskId: task.id, pid, log: logFile });
    else this.config.log.info('agent process waits for a slot', { taskId: task.id, waiting: this.runner.queued });
  }

  /**
   * After a restart: adopts the agents a previous farm process started. `dispatched` are the tasks the
   * orchestrator has as running; one with no trace here never started (the farm stopped between recording
   * the dispatch and launching) and is launched now.
   */
  async resume(dispatched: farm.v1.ICodingTask[]): Promise<void> {
    const { found } = this.runner.resume('ended while the farm was not running');
    for (const task of dispatched) {
      if (found.has(agentDirName({ taskId: task.id!, dispatch: task.dispatch ?? 0 }))) continue;
      this.config.log.warn('dispatched task was never launched; launching it now', { taskId: task.id });
      await this.launch(task);
    }
  }

  async cancel(changeRequestId: string): Promise<void> {
    for (const a of this.runner.records()) if (a.changeRequestId === changeRequestId) this.runner.signal(a, 'SIGTERM');
  }

  async stopTask(taskId: string): Promise<void> {
    for (const a of this.runner.records()) if (a.taskId === taskId) this.runner.signal(a, 'SIGTERM');
  }

  async close(): Promise<void> {
    await this.runner.close(this.config.onClose ?? 'stop');
  }

  /** Agent processes running now. */
  get inFlight(): number {
    return this.runner.count;
  }

  /** Agent processes at once (FARM_AGENT_PROCESSES); undefined: no bound. */
  get maxRunning(): number | undefined {
    return this.config.maxRunning;
  }

  /** Tasks launched whose agent process waits for a slot (maxRunning). */
  get waiting(): number {
    return this.runner.queued;
  }
}

/** A process's end as farm_launcher_jobs_total's outcome (the agent's exit codes are job.ts's). */
export function processOutcome(how: string): JobOutcome {
  const code = /^exited with code (\d+)$/.exec(how)?.[1];
  if (code === '0') return 'succeeded';
  if (code === '2' || code === '3') return 'agent_failed';
  if (code === '64') return 'bad_input';
  if (how === 'killed by SIGTERM' || how.startsWith('stopped')) return 'cancelled';
  if (how.startsWith('could not be started')) return 'create_failed';
  if (how.startsWith('ended while')) return 'lost';
  return 'crashed';
}

function agentDirName(r: { taskId: string; dispatch: number }): string {
  return `${r.taskId}.${r.dispatch}`;
}
