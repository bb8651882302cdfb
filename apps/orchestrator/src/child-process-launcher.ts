import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { farm } from '@farm/proto';
import { Topics, isForwardedPublish, type EventBus } from '@farm/bus';
import type { Logger } from '@farm/runtime';
import { reportForAgent, type TaskLauncher } from './launcher';

export interface ChildProcessLauncherConfig {
  bus: EventBus;
  log: Logger;
  /** The coding agent's Job-style entry point (apps/coding-agent/src/job.ts). */
  agentEntry: string;
  /** Environment for the agent (model endpoint, key, ...); the agent scrubs it before running repo code. */
  env?: NodeJS.ProcessEnv;
  /** Directory for one log file per task; the agent's logs go to the parent's stderr when omitted. */
  logDir?: string;
}

/**
 * One machine: a child process per task. The child publishes through its IPC channel (ParentProcessBus)
 * and this launcher forwards to the bus; a child that dies without a result gets a HARD_FAIL on its behalf.
 */
export class ChildProcessLauncher implements TaskLauncher {
  private readonly running = new Map<string, { child: ChildProcess; task: farm.v1.ICodingTask }>();

  constructor(private readonly config: ChildProcessLauncherConfig) {}

  async launch(task: farm.v1.ICodingTask): Promise<void> {
    const taskB64 = Buffer.from(farm.v1.CodingTask.encode(task).finish()).toString('base64');
    const out = this.config.logDir ? this.openLog(task.id!) : 'inherit';
    const child = spawn(process.execPath, ['--import', 'tsx', this.config.agentEntry], {
      env: { ...(this.config.env ?? process.env), FARM_TASK: taskB64 },
      stdio: ['ignore', out === 'inherit' ? 'inherit' : 'pipe', out === 'inherit' ? 'inherit' : 'pipe', 'ipc'],
    });
    if (out !== 'inherit') {
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
    }
    this.running.set(task.id!, { child, task });
    let reported = false;
    const forwarding: Promise<void>[] = [];
    child.on('message', (m) => {
      if (!isForwardedPublish(m)) return;
      if (m.topic === Topics.commitResults.name) reported = true;
      forwarding.push(
        this.config.bus.publishRaw(m.topic, Buffer.from(m.value, 'base64'), {
          key: m.key ?? undefined,
          headers: m.headers,
        }),
      );
    });
    child.on('exit', (code, signal) => {
      this.running.delete(task.id!);
      void Promise.all(forwarding).then(async () => {
        if (reported) return;
        const why = signal ? `killed by ${signal}` : `exited with code ${code}`;
        this.config.log.error('agent ended without a result', { taskId: task.id, why });
        await reportForAgent(
          this.config.bus,
          { id: task.id!, changeRequestId: task.changeRequestId!, dispatch: task.dispatch ?? 0 },
          farm.v1.CommitStatus.HARD_FAIL,
          'agent',
          [`agent process ${why} before emitting a result`],
        );
      });
    });
    this.config.log.info('agent process started', { taskId: task.id, pid: child.pid });
  }

  async cancel(changeRequestId: string): Promise<void> {
    for (const { child, task } of this.running.values()) {
      if (task.changeRequestId === changeRequestId) child.kill('SIGTERM');
    }
  }

  async stopTask(taskId: string): Promise<void> {
    this.running.get(taskId)?.child.kill('SIGTERM');
  }

  async close(): Promise<void> {
    const exits = [...this.running.values()].map(
      ({ child }) =>
        new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve()))),
    );
    for (const { child } of this.running.values()) child.kill('SIGTERM');
    await Promise.all(exits);
  }

  /** Agent processes running now. */
  get inFlight(): number {
    return this.running.size;
  }

  private openLog(taskId: string) {
    mkdirSync(this.config.logDir!, { recursive: true });
    return createWriteStream(join(this.config.logDir!, `${taskId}.log`), { flags: 'a' });
  }
}
