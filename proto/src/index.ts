// The farm's contracts, generated from proto/farm/v1/*.proto (see proto/scripts/generate.mjs).
import { farm } from '../gen/farm';

export { farm };
export type ICodingTask = farm.v1.ICodingTask;
export type ICommitResult = farm.v1.ICommitResult;
export type IChangeRequest = farm.v1.IChangeRequest;
export type IPlan = farm.v1.IPlan;
export type IPlanItem = farm.v1.IPlanItem;
export type ITaskBundle = farm.v1.ITaskBundle;
export type IPhaseTransition = farm.v1.IPhaseTransition;
export type IBuildRequest = farm.v1.IBuildRequest;
export type IBuildResult = farm.v1.IBuildResult;
export type IRepoRef = farm.v1.IRepoRef;
export type IStepDuration = farm.v1.IStepDuration;
export type ITokenUsage = farm.v1.ITokenUsage;
export const {
  Phase,
  TaskKind,
  CommitStatus,
  TaskState,
  BuildStatus,
  RepoRef,
  ChangeRequest,
  Plan,
  PlanItem,
  CodingTask,
  TaskBundle,
  TokenUsage,
  StepDuration,
  CommitResult,
  PhaseTransition,
  BuildRequest,
  BuildResult,
  ControlCommand,
  ControlAction,
  TaskStep,
} = farm.v1;

/** The generated message classes share this static shape; the bus encodes and decodes through it. */
export interface MessageType<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
  fromObject(object: object): T;
  toObject(message: T, options?: Record<string, unknown>): Record<string, unknown>;
  verify(object: Record<string, unknown>): string | null;
}

export const FINAL_PHASES: ReadonlySet<farm.v1.Phase> = new Set([
  farm.v1.Phase.DONE,
  farm.v1.Phase.FAILED,
  farm.v1.Phase.CANCELLED,
]);

export function phaseName(phase: farm.v1.Phase): string {
  return farm.v1.Phase[phase] ?? String(phase);
}

export function commitStatusName(status: farm.v1.CommitStatus): string {
  return farm.v1.CommitStatus[status] ?? String(status);
}

/** A failed step as people see it (logs, notes, the CLI): the enum's without STEP_, lower case, dashes. */
export function failedStepName(step: farm.v1.FailedStep | null | undefined): string {
  if (!step) return '';
  const name = farm.v1.FailedStep[step];
  return name
    ? name
        .replace(/^STEP_/, '')
        .toLowerCase()
        .replace(/_/g, '-')
    : String(step);
}

/** A task state's name as people see it (API, events, CLI, the tasks table): the enum's without TASK_. */
export type TaskStateName = 'PENDING' | 'DISPATCHED' | 'SUCCESS' | 'SOFT_FAIL' | 'HARD_FAIL' | 'CANCELLED';

const TASK_STATE_NAMES: Record<farm.v1.TaskState, TaskStateName | ''> = {
  [farm.v1.TaskState.TASK_STATE_UNSPECIFIED]: '',
  [farm.v1.TaskState.TASK_PENDING]: 'PENDING',
  [farm.v1.TaskState.TASK_DISPATCHED]: 'DISPATCHED',
  [farm.v1.TaskState.TASK_SUCCESS]: 'SUCCESS',
  [farm.v1.TaskState.TASK_SOFT_FAIL]: 'SOFT_FAIL',
  [farm.v1.TaskState.TASK_HARD_FAIL]: 'HARD_FAIL',
  [farm.v1.TaskState.TASK_CANCELLED]: 'CANCELLED',
};

const TASK_STATES_BY_NAME = new Map<string, farm.v1.TaskState>(
  Object.entries(TASK_STATE_NAMES).map(([state, name]) => [name, Number(state)]),
);

/** The short name of a task state; '' when unset (request-level events). */
export function taskStateName(state: farm.v1.TaskState): TaskStateName | '' {
  const name = TASK_STATE_NAMES[state];
  if (name === undefined) throw new Error(`unknown task state ${state}`);
  return name;
}

/** The task state of a short name (the inverse of taskStateName, so '' is unset). */
export function parseTaskState(name: string): farm.v1.TaskState {
  const state = TASK_STATES_BY_NAME.get(name);
  if (state === undefined) {
    throw new Error(`unknown task state "${name}" (expected one of ${[...TASK_STATES_BY_NAME.keys()].join(', ')})`);
  }
  return state;
}

/** The final task state an agent's result means; unset for a result without a status. */
export function taskStateForCommitStatus(status: farm.v1.CommitStatus): farm.v1.TaskState {
  switch (status) {
    case farm.v1.CommitStatus.SUCCESS:
      return farm.v1.TaskState.TASK_SUCCESS;
    case farm.v1.CommitStatus.SOFT_FAIL:
      return farm.v1.TaskState.TASK_SOFT_FAIL;
    case farm.v1.CommitStatus.HARD_FAIL:
      return farm.v1.TaskState.TASK_HARD_FAIL;
    default:
      return farm.v1.TaskState.TASK_STATE_UNSPECIFIED;
  }
}

/**
 * A CodingTask as one base64 string of its protobuf bytes: how a task travels to an agent in the text of an
 * environment variable (FARM_TASK). The orchestrator keeps tasks as bytes (bytea), not in this form.
 */
export function encodeTaskBase64(task: farm.v1.ICodingTask): string {
  return Buffer.from(farm.v1.CodingTask.encode(task).finish()).toString('base64');
}

export function decodeTaskBase64(b64: string): farm.v1.CodingTask {
  return farm.v1.CodingTask.decode(Buffer.from(b64, 'base64'));
}

/** A BuildRequest as one base64 string of its protobuf bytes: how a build travels to its process or Job. */
export function encodeBuildRequestBase64(request: farm.v1.IBuildRequest): string {
  return Buffer.from(farm.v1.BuildRequest.encode(request).finish()).toString('base64');
}

export function decodeBuildRequestBase64(b64: string): farm.v1.BuildRequest {
  return farm.v1.BuildRequest.decode(Buffer.from(b64, 'base64'));
}
