import { farm } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';

/** How the orchestrator starts a coding agent for a task: a child process, a Kubernetes Job, or the pool. */
export interface TaskLauncher {
  launch(task: farm.v1.ICodingTask): Promise<void>;
  /** Stops whatever runs for the change request (cancel). */
  cancel(changeRequestId: string): Promise<void>;
  /** Stops one task's agent (deadline exceeded); optional for launchers that cannot. */
  stopTask?(taskId: string): Promise<void>;
  /**
   * After the orchestrator restarted: re-attaches to the agents still running for `dispatched` (the tasks it
   * has as running) and launches those that never started; optional for launchers with nothing to re-attach.
   */
  resume?(dispatched: farm.v1.ICodingTask[]): Promise<void>;
  close(): Promise<void>;
}

/** The system errors that say a resource is short for the moment, not that the launch cannot work. */
const TEMPORARY_CODES = new Set(['ENOSPC', 'EDQUOT', 'EAGAIN', 'EMFILE', 'ENFILE', 'ENOMEM', 'EBUSY']);

/**
 * Whether a launch failed on a condition of the moment (a full disk, no process or file slot): the dispatch then
 * waits and is launched again, instead of failing for good. Looks through the error's causes.
 */
export function isTemporaryLaunchError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TEMPORARY_CODES.has(code)) return true;
  }
  return false;
}

/** Worker-pool mode: the task goes on the task topic, where coding-agent replicas consume it in one group. */
export class TaskTopicLauncher implements TaskLauncher {
  constructor(private readonly bus: EventBus) {}
  async launch(task: farm.v1.ICodingTask): Promise<void> {
    await this.bus.publish(Topics.codingTasks, Topics.codingTasks.type.fromObject(task as Record<string, unknown>));
  }
  // Pool workers finish the task in hand; the orchestrator ignores results of a cancelled request.
  async cancel(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * Publishes a CommitResult on an agent's behalf: it died without reporting, never started, or ran past its
 * deadline. The dispatch number lets the orchestrator ignore it when the agent's own result came first.
 */
export function reportForAgent(
  bus: EventBus,
  task: { id: string; changeRequestId: string; dispatch: number },
  status: farm.v1.CommitStatus,
  failedStep: farm.v1.FailedStep,
  notes: string[],
): Promise<void> {
  return bus.publish(
    Topics.commitResults,
    farm.v1.CommitResult.create({
      taskId: task.id,
      changeRequestId: task.changeRequestId,
      dispatch: task.dispatch,
      status,
      failedStep,
      notes,
    }),
  );
}
