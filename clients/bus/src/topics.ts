import {
  BuildRequest,
  BuildResult,
  ChangeRequest,
  ControlCommand,
  CodingTask,
  CommitResult,
  PhaseTransition,
  Plan,
  TaskStep,
  TaskBundle,
  type MessageType,
  type farm,
} from '@farm/proto';

/** A topic and the contract of its messages. Every message carries changeRequestId, which is also its key. */
export interface TopicSpec<T> {
  name: string;
  type: MessageType<T>;
}

const topic = <T>(name: string, type: MessageType<T>): TopicSpec<T> => ({ name, type });

export const Topics = {
  /** Submissions, from any client; only the orchestrator reads them. */
  changeRequests: topic<farm.v1.ChangeRequest>('farm.change-requests.v1', ChangeRequest),
  /** Requests the orchestrator admitted (validated, normalised): what the planners plan. */
  acceptedRequests: topic<farm.v1.ChangeRequest>('farm.accepted-requests.v1', ChangeRequest),
  plans: topic<farm.v1.Plan>('farm.plans.v1', Plan),
  taskBundles: topic<farm.v1.TaskBundle>('farm.task-bundles.v1', TaskBundle),
  /** Consumed by the coding-agent worker pool (cluster mode without a Job per task). */
  codingTasks: topic<farm.v1.CodingTask>('farm.coding-tasks.v1', CodingTask),
  commitResults: topic<farm.v1.CommitResult>('farm.commit-results.v1', CommitResult),
  phaseTransitions: topic<farm.v1.PhaseTransition>('farm.phase-transitions.v1', PhaseTransition),
  buildRequests: topic<farm.v1.BuildRequest>('farm.build-requests.v1', BuildRequest),
  buildResults: topic<farm.v1.BuildResult>('farm.build-results.v1', BuildResult),
  control: topic<farm.v1.ControlCommand>('farm.control.v1', ControlCommand),
  /** A running task's trajectory, a line at a time (agents → orchestrator, for following the task live). */
  taskSteps: topic<farm.v1.TaskStep>('farm.task-steps.v1', TaskStep),
} as const;

/** Messages that could not be decoded or whose handler kept failing; the reason is in the headers. */
export const DEAD_LETTER_TOPIC = 'farm.dead-letter.v1';

export const ALL_TOPIC_NAMES = [...Object.values(Topics).map((t) => t.name), DEAD_LETTER_TOPIC];
