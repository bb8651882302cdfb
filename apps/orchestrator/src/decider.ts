import { farm, phaseName, taskStateForCommitStatus, taskStateName } from '@farm/proto';
import { FarmError } from '@farm/runtime';
import { admitChangeRequest, UnaddressableRequest } from './change-request-intake';
import { canMove, codingOutcome, readyTasks } from './phases';
import type { StoredLesson } from '@farm/lessons';
import { gateDispatch, lessonToKeep, type TaskAccountingSettings } from './task-accounting';
import { approvalReason, type ApprovalPolicy, type TaskCostHistory } from './approval-policy';

/**
 * The orchestrator's rules as a pure function: `decide(state, event)` returns what to write, what to publish
 * (in order) and what to do once the transaction committed. No I/O, no SQL, no clock: the shell around it
 * (orchestrator.ts) loads the state, runs the decision in one transaction and the effects after commit.
 */

const P = farm.v1.Phase;
const S = farm.v1.CommitStatus;
const T = farm.v1.TaskState;
type Phase = farm.v1.Phase;
type TaskState = farm.v1.TaskState;
/**
 * Failed steps whose SOFT_FAIL another dispatch would only repeat at a cost. STEP_VERIFY is retried: the next
 * dispatch gets the reason (tests-only, or tests passing on the base) in its prior notes and can act on it.
 */
const NOT_RETRIED_STEPS: ReadonlySet<farm.v1.FailedStep> = new Set([
  farm.v1.FailedStep.STEP_BUDGET,
  farm.v1.FailedStep.STEP_REVIEW,
]);

export interface RequestRecord {
  id: string;
  phase: Phase;
  repoUrl: string;
  baseRef: string;
  baseCommit: string;
  checkCommand: string;
  /** Where the build pushes: a follow-up's pull request branch; empty is farm/<id>. */
  integrationBranch: string;
  /** The submitter asked for the plan to be approved before any task starts. */
  requireApproval?: boolean;
  /** How many of its tasks may run at once, as the approver set it; 0 or absent: the farm's parallelism. */
  parallelism?: number;
  /** What its planning cost (the planner model's calls): part of the request's spend under the cost cap. */
  planningCostUsd?: number;
}

export interface TaskRecord {
  id: string;
  status: TaskState;
  dispatch: number;
  dependsOn: string[];
  /** The task as stored: as planned, or as last launched. */
  task: farm.v1.ICodingTask;
  branch: string;
  commitSha: string;
  /** What its model calls cost so far, over every dispatch (the request's spend is the sum). */
  costUsd: number;
  /** What verified its last result's commit (CommitResult.verification), when it reported one. */
  verification?: farm.v1.IVerification;
}

/** One change request with its tasks in id order; `request` is absent before it was received. */
export interface RequestState {
  request?: RequestRecord;
  tasks: TaskRecord[];
  /** Recent lessons of the request's repository, newest first, when lessons are on and tasks may start. */
  lessonCandidates?: StoredLesson[];
  /** What tasks cost lately (while planning: the approval policy's estimate). */
  taskCostHistory?: TaskCostHistory;
}

export interface DeciderOptions {
  parallelism: number;
  maxDispatches: number;
  taskDeadlineMs: number;
  /** The request cost cap and the lessons; none of either when absent. */
  accounting?: TaskAccountingSettings;
  /** Which plans wait for a person (see approvalReason); none wait when absent. */
  approval?: ApprovalPolicy;
}

/** A message a consumer gave up on, as the dead-letter topic's headers tell it. */
export interface DeadLetterRecord {
  sourceTopic: string;
  group: string;
  error: string;
}

/** Topics whose messages a request waits for in each phase: a dead letter there means nobody will move it on. */
export const AWAITED_TOPICS: ReadonlyMap<Phase, readonly string[]> = new Map([
  [P.RECEIVED, ['farm.change-requests.v1']],
  [P.PLANNING, ['farm.accepted-requests.v1', 'farm.plans.v1', 'farm.task-bundles.v1']],
  [P.BUILD, ['farm.build-requests.v1', 'farm.build-results.v1']],
]);

/** A dispatched task as the deadline check sees it; times in ms on the store's clock. */
export interface RunningTask {
  id: string;
  changeRequestId: string;
  dispatch: number;
  deadlineAtMs: number;
}

export type DeciderEvent =
  /** `refusal`: the shell's intake refused it already (e.g. credentials in its URL). */
  | { kind: 'change-request'; changeRequest: farm.v1.IChangeRequest; refusal?: string }
  | { kind: 'task-bundle'; bundle: farm.v1.ITaskBundle }
  | { kind: 'commit-result'; result: farm.v1.ICommitResult }
  | { kind: 'build-result'; build: farm.v1.IBuildResult }
  /** A person's command: cancel the request, approve (maybe edited) or reject its waiting plan. */
  | { kind: 'cancel'; command: farm.v1.IControlCommand }
  /** A consumer dead-lettered a message of this request (its key). */
  | { kind: 'dead-letter'; letter: DeadLetterRecord }
  /** The request has been in its phase longer than that phase may last (the orchestrator's sweep). */
  | { kind: 'phase-expired'; phase: Phase; limitMs: number }
  /** Start what is ready (after a restart). */
  | { kind: 'dispatch-ready' }
  /** The launcher could not start this dispatch of the task. */
  | { kind: 'launch-failed'; taskId: string; dispatch: number; error: string }
  /** This dispatch of the task ran past its deadline (the orchestrator's sweep, on the store's clock). */
  | { kind: 'task-expired'; taskId: string; dispatch: number };

export type StateUpdate =
  | { kind: 'insert-request'; changeRequest: farm.v1.IChangeRequest }
  | { kind: 'move'; from: Phase; to: Phase; reason: string }
  | { kind: 'set-base-commit'; baseCommit: string }
  | { kind: 'insert-task'; task: farm.v1.ICodingTask }
  /** What a task's result cost adds to its row (the request's spend is their sum). */
  | { kind: 'add-cost'; taskId: string; costUsd: number }
  | { kind: 'requeue-task'; taskId: string; notes: string; attempts: number; task: farm.v1.ICodingTask }
  | {
      kind: 'finish-task';
      taskId: string;
      status: TaskState;
      branch: string;
      commitSha: string;
      notes: string;
      attempts: number;
    }
  | { kind: 'add-tokens'; taskId: string; usage: farm.v1.ITokenUsage }
  /** What verified the task's change (the checks, the differential of its tests), as the API shows it. */
  | { kind: 'set-verification'; taskId: string; verification: Record<string, unknown> }
  | { kind: 'dispatch-task'; taskId: string; task: farm.v1.ICodingTask }
  | { kind: 'cancel-task'; taskId: string }
  | { kind: 'set-integration-branch'; branch: string }
  /** Approval with an edited plan: a task left out, another's goal or dependencies changed, the parallelism. */
  | { kind: 'remove-task'; taskId: string }
  | { kind: 'replan-task'; taskId: string; task: farm.v1.ICodingTask }
  | { kind: 'set-parallelism'; parallelism: number }
  /** What planning cost, as the plan said (set once: a redelivered bundle changes nothing). */
  | { kind: 'set-planning-usage'; usage: farm.v1.IModelUsage };

export type OutboxEvent =
  | { kind: 'transition'; fields: farm.v1.IPhaseTransition }
  | { kind: 'build-request'; request: farm.v1.IBuildRequest }
  /** The request as admitted, for the planners: they plan nothing else. */
  | { kind: 'accepted-request'; request: farm.v1.IChangeRequest };

export type Effect =
  | { kind: 'launch'; changeRequestId: string; task: farm.v1.ICodingTask }
  | { kind: 'stop-task'; taskId: string; changeRequestId: string }
  | { kind: 'cancel-launcher'; changeRequestId: string }
  | { kind: 'release-leases'; changeRequestId: string; phase: Phase }
  /**
   * The farm's branch of a cancelled request is taken back: at `commitSha`, what a build that ran on after the
   * cancel reported pushing; without one (cancelled during BUILD), whatever the branch holds once the build has
   * had time to stop (a push already under way completes).
   */
  | {
      kind: 'retract-integration-branch';
      changeRequestId: string;
      repoUrl: string;
      branch: string;
      commitSha?: string;
    };

export interface Decision {
  updates: StateUpdate[];
  /** Lessons of succeeded tasks, stored in the same transaction for later tasks on the repository. */
  lessons: farm.v1.ILesson[];
  events: OutboxEvent[];
  effects: Effect[];
  /** The state of every task result counted (the metrics). */
  results: TaskState[];
  /** The state once the updates are written. */
  state: RequestState;
}

export class IllegalMove extends FarmError {
  constructor(
    readonly changeRequestId: string,
    readonly from: Phase,
    readonly to: Phase,
  ) {
    super(`illegal move ${phaseName(from)} -> ${phaseName(to)} for ${changeRequestId}`, { retryable: false });
  }
}

/** An event the rules cannot apply however often it is retried (missing fields, unknown task). */
export class InvalidEvent extends FarmError {
  constructor(message: string) {
    super(message, { retryable: false });
  }
}

/** Applies one event to one change request's state. */
export function decide(state: RequestState, event: DeciderEvent, options: DeciderOptions): Decision {
  const d = new DecisionBuilder(state);
  switch (event.kind) {
    case 'change-request':
      onChangeRequest(d, event.changeRequest, event.refusal);
      break;
    case 'task-bundle':
      onTaskBundle(d, event.bundle, options);
      break;
    case 'commit-result':
      onCommitResult(d, event.result, options);
      break;
    case 'build-result':
      onBuildResult(d, event.build);
      break;
    case 'cancel':
      onControl(d, event.command);
      break;
    case 'dead-letter':
      onDeadLetter(d, event.letter);
      break;
    case 'phase-expired':
      onPhaseExpired(d, event.phase, event.limitMs, options);
      break;
    case 'dispatch-ready':
      d.dispatchReady = true;
      break;
    case 'launch-failed':
      onLaunchFailed(d, event.taskId, event.dispatch, event.error, options);
      break;
    case 'task-expired':
      onTaskExpired(d, event.taskId, event.dispatch, options);
      break;
  }
  // What became ready is started in the same decision (and written in the same transaction).
  while (d.dispatchReady) {
    d.dispatchReady = false;
    dispatchReady(d, options);
  }
  return d.decision();
}

/** The running tasks past their deadline (each then decided as a `task-expired` event of its request). */
export function expireDeadlines(running: RunningTask[], nowMs: number): RunningTask[] {
  return running.filter((t) => t.deadlineAtMs < nowMs);
}

/** The tasks to start now, as they would be launched before their gate: next dispatch, base. */
function tasksToDispatch(state: RequestState, options: DeciderOptions): farm.v1.CodingTask[] {
  if (state.request?.phase !== P.CODING) return [];
  const ready = readyTasks(state.tasks, state.request.parallelism || options.parallelism);
  return ready.map((id) =>
    prepareDispatch(
      state,
      state.tasks.find((t) => t.id === id)!,
    ),
  );
}

function onChangeRequest(d: DecisionBuilder, message: farm.v1.IChangeRequest, refusal?: string): void {
  const validated = admitChangeRequest(message);
  const admission =
    refusal && validated.kind === 'accepted'
      ? { kind: 'refused' as const, changeRequestId: validated.changeRequest.changeRequestId, reason: refusal }
      : validated;
  if (admission.kind === 'unaddressable') throw new UnaddressableRequest(`change request refused: ${admission.reason}`);
  if (d.state.request) return; // the same request submitted twice (or a refused one sent again)
  const cr = admission.kind === 'accepted' ? admission.changeRequest : message;
  d.state.request = {
    id: cr.changeRequestId ?? '',
    phase: P.PHASE_UNSPECIFIED,
    repoUrl: cr.repo?.url ?? '',
    baseRef: cr.repo?.baseRef || 'main',
    baseCommit: '',
    checkCommand: cr.checkCommand ?? '',
    integrationBranch: cr.integrationBranch ?? '',
    requireApproval: !!cr.requireApproval,
  };
  d.update({ kind: 'insert-request', changeRequest: cr });
  d.move(P.RECEIVED, 'change request received');
  if (admission.kind === 'refused') {
    d.finish(P.FAILED, `refused: ${admission.reason}`);
    return;
  }
  d.move(P.PLANNING, 'planning started');
  d.events.push({ kind: 'accepted-request', request: admission.changeRequest });
}

/** A message this request waits for was given up on: without it the request would never move again. */
function onDeadLetter(d: DecisionBuilder, letter: DeadLetterRecord): void {
  const cr = d.state.request;
  if (!cr || !(AWAITED_TOPICS.get(cr.phase) ?? []).includes(letter.sourceTopic)) return;
  const step = cr.phase === P.BUILD ? 'build' : 'planning';
  d.finish(P.FAILED, `${step} failed: ${letter.group} gave up on ${letter.sourceTopic}: ${firstLine(letter.error)}`);
}

function onPhaseExpired(d: DecisionBuilder, phase: Phase, limitMs: number, options: DeciderOptions): void {
  const cr = d.state.request;
  if (!cr || cr.phase !== phase || !canMove(phase, P.FAILED)) return;
  const secs = Math.round(limitMs / 1000);
  if (phase === P.AWAITING_APPROVAL && options.approval?.autoApprove) {
    approvePlan(d, {}, `approved automatically: nobody approved or rejected the plan within ${secs} s`);
    return;
  }
  if (phase === P.AWAITING_APPROVAL) {
    d.finish(P.FAILED, `the plan was neither approved nor rejected within ${secs} s (FARM_APPROVAL_TIMEOUT_S)`);
    return;
  }
  d.finish(P.FAILED, `${phaseName(phase)} did not end within ${secs} s`);
}

function onTaskBundle(d: DecisionBuilder, bundle: farm.v1.ITaskBundle, options: DeciderOptions): void {
  const cr = d.requireRequest();
  if (cr.phase !== P.PLANNING) return; // stale, duplicate, or cancelled meanwhile
  const tasks = bundle.tasks ?? [];
  if (bundle.planning) {
    // Paid for whatever became of the plan: in the request's totals and its spend from here on.
    cr.planningCostUsd = bundle.planning.costUsd ?? 0;
    d.update({ kind: 'set-planning-usage', usage: bundle.planning });
  }
  if (bundle.planningError || tasks.length === 0) {
    d.finish(P.FAILED, `planning failed: ${bundle.planningError || 'no tasks'}`);
    return;
  }
  cr.baseCommit = bundle.repo?.baseCommit ?? '';
  d.update({ kind: 'set-base-commit', baseCommit: cr.baseCommit });
  for (const task of tasks) {
    d.update({ kind: 'insert-task', task });
    if (d.state.tasks.some((t) => t.id === task.id)) continue; // the store keeps the first of a repeated id
    d.state.tasks.push({
      id: task.id ?? '',
      status: T.TASK_PENDING,
      dispatch: 0,
      dependsOn: [...(task.dependsOn ?? [])],
      task: copyTask(task),
      branch: '',
      commitSha: '',
      costUsd: 0,
    });
  }
  d.state.tasks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const planned = `${tasks.length} task(s) at ${bundle.repo?.baseCommit?.slice(0, 12)}`;
  const waitFor = approvalReason(options.approval, {
    repoUrl: cr.repoUrl,
    requested: !!cr.requireApproval,
    tasks: d.state.tasks.map((t) => t.task),
    history: d.state.taskCostHistory,
  });
  if (waitFor) {
    // No agent runs and no model is called until a person decides (or the approval timeout does).
    d.move(P.AWAITING_APPROVAL, `${planned} wait for approval: ${waitFor}`);
    return;
  }
  d.move(P.CODING, planned);
  d.dispatchReady = true;
}

/**
 * The waiting plan approved, with `edit` applied first: tasks left out (and others' dependencies on them
 * dropped), goals reworded, the request's parallelism lowered. The API checked the edit against the plan
 * (planEditProblem); what no longer fits (a task id gone) is skipped here.
 */
function approvePlan(d: DecisionBuilder, edit: farm.v1.IPlanEdit, reason: string): void {
  const removed = new Set((edit.removeTasks ?? []).filter((id) => d.state.tasks.some((t) => t.id === id)));
  if (removed.size && removed.size >= d.state.tasks.length) return; // the API refuses this; nothing to run
  for (const id of removed) d.update({ kind: 'remove-task', taskId: id });
  d.state.tasks = d.state.tasks.filter((t) => !removed.has(t.id));
  const goals = edit.goals ?? {};
  for (const t of d.state.tasks) {
    const dependsOn = t.dependsOn.filter((id) => !removed.has(id));
    const goal = goals[t.id]?.trim();
    if (!goal && dependsOn.length === t.dependsOn.length) continue;
    const task = copyTask(t.task);
    task.dependsOn = dependsOn;
    if (goal) task.goal = goal;
    Object.assign(t, { dependsOn, task });
    d.update({ kind: 'replan-task', taskId: t.id, task });
  }
  const cr = d.requireRequest();
  if (edit.parallelism) {
    cr.parallelism = edit.parallelism;
    d.update({ kind: 'set-parallelism', parallelism: edit.parallelism });
  }
  d.move(P.CODING, reason);
  d.dispatchReady = true;
}

/** What a person's edit of a plan changed, in a few words (the approval's reason). */
function describeEdit(edit: farm.v1.IPlanEdit): string {
  const parts = [
    edit.removeTasks?.length ? `without ${edit.removeTasks.join(', ')}` : '',
    Object.keys(edit.goals ?? {}).length ? `goals of ${Object.keys(edit.goals ?? {}).join(', ')} reworded` : '',
    edit.parallelism ? `at most ${edit.parallelism} at once` : '',
  ].filter(Boolean);
  return parts.length ? ` (edited: ${parts.join('; ')})` : '';
}

function onCommitResult(d: DecisionBuilder, result: farm.v1.ICommitResult, options: DeciderOptions): void {
  const cr = d.requireRequest();
  const task = d.state.tasks.find((t) => t.id === result.taskId);
  if (!task) throw new InvalidEvent(`unknown task ${result.taskId} of ${cr.id}`);
  const status = taskStateForCommitStatus(result.status ?? S.COMMIT_STATUS_UNSPECIFIED);
  if (status === T.TASK_STATE_UNSPECIFIED) {
    throw new InvalidEvent(`commit result of ${result.taskId} has no status`);
  }
  // Only the running dispatch's result counts; a late one from an earlier dispatch is ignored.
  if (task.status !== T.TASK_DISPATCHED || (result.dispatch && result.dispatch !== task.dispatch)) return;
  countResult(d, task, result, status, options);
}

/**
 * A result of the task's running dispatch: the agent's, or one the orchestrator decided for it (launch
 * failed, deadline passed, cost cap). Re-dispatches, finishes the task, and moves the request on.
 */
function countResult(
  d: DecisionBuilder,
  task: TaskRecord,
  result: farm.v1.ICommitResult,
  status: TaskState,
  options: DeciderOptions,
): void {
  const cr = d.requireRequest();
  // The task's cost adds to its request's; a success leaves a lesson for later tasks on the repository.
  d.results.push(status);
  if (result.costUsd) {
    task.costUsd += result.costUsd;
    d.update({ kind: 'add-cost', taskId: task.id, costUsd: result.costUsd });
  }
  const lesson = options.accounting && lessonToKeep(result, options.accounting);
  if (lesson) {
    d.lessons.push(lesson);
    // Tasks started in this same decision may learn from it already.
    d.state.lessonCandidates?.unshift(storedLesson(lesson));
  }
  const phase = cr.phase;
  const name = taskStateName(status);
  const notes = (result.notes ?? []).join('\n');
  const attempts = result.attempts ?? 0;
  // A task stopped by its budget or its reviewer would only spend again: it is not re-dispatched.
  const retry =
    status === T.TASK_SOFT_FAIL &&
    !NOT_RETRIED_STEPS.has(result.failedStep ?? farm.v1.FailedStep.FAILED_STEP_UNSPECIFIED) &&
    task.dispatch < options.maxDispatches &&
    phase === P.CODING;
  if (retry) {
    // Back to PENDING, carrying what went wrong so the next agent starts from it.
    const again = copyTask(task.task);
    again.priorNotes = [...again.priorNotes, `dispatch ${task.dispatch}: ${notes}`.slice(0, 4000)];
    Object.assign(task, { status: T.TASK_PENDING, task: again });
    d.update({ kind: 'requeue-task', taskId: task.id, notes, attempts, task: again });
  } else {
    Object.assign(task, { status, branch: result.branchName ?? '', commitSha: result.commitSha ?? '' });
    d.update({
      kind: 'finish-task',
      taskId: task.id,
      status,
      branch: task.branch,
      commitSha: task.commitSha,
      notes,
      attempts,
    });
  }
  // Tokens add up over every dispatch of the task: each one was paid for.
  d.update({ kind: 'add-tokens', taskId: task.id, usage: result.tokenUsage ?? {} });
  if (result.verification) {
    task.verification = result.verification;
    const verification = farm.v1.Verification.toObject(farm.v1.Verification.fromObject(result.verification), {
      enums: String,
    });
    d.update({ kind: 'set-verification', taskId: task.id, verification });
  }
  d.taskEvent(phase, task.id, retry ? T.TASK_PENDING : status, {
    reason: `task ${task.id}: ${name}${retry ? ', re-dispatching with its notes' : ''}${notes ? ` (${firstLine(notes)})` : ''}`,
    taskStatus: result.status,
    branchName: result.branchName,
  });
  if (phase !== P.CODING) return;
  if (status === T.TASK_HARD_FAIL) {
    d.finish(P.FAILED, `task ${task.id} HARD_FAIL: ${firstLine(notes)}`);
    return;
  }
  advanceCoding(d, retry ? undefined : `task ${task.id} ${name}: ${firstLine(notes)}`);
}

/** After a task result: BUILD when all succeeded, FAILED when one failed for good, else start what is ready. */
function advanceCoding(d: DecisionBuilder, failure?: string): void {
  const cr = d.requireRequest();
  const outcome = codingOutcome(d.state.tasks.map((t) => t.status));
  if (outcome === 'FAILED') {
    d.finish(P.FAILED, failure ?? 'a task failed');
  } else if (outcome === 'BUILD') {
    d.move(P.BUILD, 'every task succeeded');
    d.events.push({
      kind: 'build-request',
      request: {
        changeRequestId: cr.id,
        repo: { url: cr.repoUrl, baseRef: cr.baseRef, baseCommit: cr.baseCommit },
        branches: d.state.tasks.map((t) => t.branch),
        commits: d.state.tasks.map((t) => t.commitSha),
        ...verifiedBy(d.state.tasks),
        checkCommand: cr.checkCommand,
        ...(cr.integrationBranch ? { integrationBranch: cr.integrationBranch } : {}),
      },
    });
  } else {
    d.dispatchReady = true;
  }
}

/**
 * What the one task of a request passed, and on which tree: its build need not run the same checks on the same
 * tree again. (A build of several tasks checks a tree none of them ran on.)
 */
function verifiedBy(tasks: TaskRecord[]): Pick<farm.v1.IBuildRequest, 'verifications' | 'taskIds'> {
  const [only] = tasks;
  return tasks.length === 1 && only?.verification ? { verifications: [only.verification], taskIds: [only.id] } : {};
}

/** The launcher could not start the task: a HARD_FAIL of that dispatch, as the agent would have reported. */
function onLaunchFailed(d: DecisionBuilder, taskId: string, dispatch: number, error: string, options: DeciderOptions) {
  decideFor(d, taskId, dispatch, S.HARD_FAIL, farm.v1.FailedStep.STEP_LAUNCH, `launcher failed: ${error}`, options);
}

/** Past its deadline: the agent is stopped and the dispatch counts as a failed attempt (re-dispatched if it may). */
function onTaskExpired(d: DecisionBuilder, taskId: string, dispatch: number, options: DeciderOptions) {
  const task = d.state.tasks.find((t) => t.id === taskId);
  if (d.state.request?.phase !== P.CODING || task?.status !== T.TASK_DISPATCHED || task.dispatch !== dispatch) return;
  d.effects.push({ kind: 'stop-task', taskId, changeRequestId: d.state.request.id });
  const notes = `no result within the task deadline of ${Math.round(options.taskDeadlineMs / 1000)} s`;
  decideFor(d, taskId, dispatch, S.SOFT_FAIL, farm.v1.FailedStep.STEP_DEADLINE, notes, options);
}

/** A result the orchestrator decides for a dispatch of a task its agent did not report on. */
function decideFor(
  d: DecisionBuilder,
  taskId: string,
  dispatch: number,
  status: farm.v1.CommitStatus,
  failedStep: farm.v1.FailedStep,
  notes: string,
  options: DeciderOptions,
): void {
  const changeRequestId = d.requireRequest().id;
  onCommitResult(d, { taskId, changeRequestId, dispatch, status, failedStep, notes: [notes] }, options);
}

function onBuildResult(d: DecisionBuilder, build: farm.v1.IBuildResult): void {
  const cr = d.requireRequest();
  if (cr.phase === P.CANCELLED && !cr.integrationBranch && build.integrationBranch && build.commitSha) {
    // Its push was under way when the cancel came: a cancelled request leaves no branch of the farm's behind. A
    // branch the user named is theirs (the build only added to it) and stays.
    d.effects.push({
      kind: 'retract-integration-branch',
      changeRequestId: cr.id,
      repoUrl: cr.repoUrl,
      branch: build.integrationBranch,
      commitSha: build.commitSha,
    });
  }
  if (cr.phase !== P.BUILD) return;
  d.update({ kind: 'set-integration-branch', branch: build.integrationBranch ?? '' });
  if (build.status === farm.v1.BuildStatus.BUILD_PASSED) {
    d.finish(P.DONE, `build passed on ${build.integrationBranch}`);
  } else if (build.status === farm.v1.BuildStatus.MERGE_CONFLICT) {
    d.finish(P.FAILED, `merge conflict in ${(build.conflictingPaths ?? []).join(', ')}`);
  } else {
    d.finish(P.FAILED, `build failed: ${firstLine((build.notes ?? []).join('\n'))}`);
  }
}

function onControl(d: DecisionBuilder, cmd: farm.v1.IControlCommand): void {
  const by = cmd.requestedBy ? ` by ${cmd.requestedBy}` : '';
  const why = cmd.reason ? `: ${cmd.reason}` : '';
  if (cmd.action === farm.v1.ControlAction.APPROVE || cmd.action === farm.v1.ControlAction.REJECT) {
    // Applied once: a decision for a plan no longer waiting (decided already, cancelled) changes nothing.
    if (d.requireRequest().phase !== P.AWAITING_APPROVAL) return;
    if (cmd.action === farm.v1.ControlAction.REJECT) d.finish(P.CANCELLED, `plan rejected${by}${why}`);
    else approvePlan(d, cmd.planEdit ?? {}, `plan approved${by}${describeEdit(cmd.planEdit ?? {})}${why}`);
    return;
  }
  if (cmd.action !== farm.v1.ControlAction.CANCEL) {
    throw new InvalidEvent(`unknown control action ${cmd.action}`);
  }
  const cr = d.requireRequest();
  if (!canMove(cr.phase, P.CANCELLED)) return; // already final
  if (cr.phase === P.BUILD && !cr.integrationBranch) {
    d.effects.push({
      kind: 'retract-integration-branch',
      changeRequestId: cr.id,
      repoUrl: cr.repoUrl,
      branch: `farm/${cr.id}`,
    });
  }
  d.finish(P.CANCELLED, `cancelled${by}${why}`);
}

/** Starts what is ready; a task the cost cap refuses is failed at once (HARD_FAIL cost-cap) instead. */
function dispatchReady(d: DecisionBuilder, options: DeciderOptions) {
  const cr = d.requireRequest();
  const spentUsd = d.state.tasks.reduce((sum, t) => sum + t.costUsd, cr.planningCostUsd ?? 0);
  for (const prepared of tasksToDispatch(d.state, options)) {
    if (cr.phase !== P.CODING) return; // a refusal below failed the request
    const id = prepared.id;
    const gate = gateDispatch(
      prepared,
      { spentUsd, lessonCandidates: d.state.lessonCandidates ?? [] },
      options.accounting,
    );
    const task = prepared;
    if (gate.start) task.lessons = (gate.task.lessons ?? []).map((l) => farm.v1.Lesson.fromObject(l));
    const row = d.state.tasks.find((t) => t.id === id)!;
    Object.assign(row, { status: T.TASK_DISPATCHED, dispatch: task.dispatch, task });
    // The task as launched (base, lessons) is kept, so a restarted farm launches exactly this one.
    d.update({ kind: 'dispatch-task', taskId: id, task });
    d.taskEvent(P.CODING, id, T.TASK_DISPATCHED, { reason: `task ${id}: dispatched (${task.dispatch})` });
    if (gate.start) d.effects.push({ kind: 'launch', changeRequestId: cr.id, task });
    else decideFor(d, id, task.dispatch, S.HARD_FAIL, farm.v1.FailedStep.STEP_COST_CAP, gate.reason, options);
  }
}

function prepareDispatch(state: RequestState, row: TaskRecord): farm.v1.CodingTask {
  const task = copyTask(row.task);
  task.dispatch = row.dispatch + 1;
  // A task that waited for another starts from that one's commit, so serialised edits build on each other.
  const base = [...row.dependsOn]
    .reverse()
    .map((d) => state.tasks.find((t) => t.id === d))
    .find((t) => t?.commitSha);
  if (base) task.repo = { ...task.repo, baseRef: base.branch, baseCommit: base.commitSha };
  return task;
}

class DecisionBuilder {
  readonly updates: StateUpdate[] = [];
  readonly lessons: farm.v1.ILesson[] = [];
  readonly events: OutboxEvent[] = [];
  readonly effects: Effect[] = [];
  readonly results: TaskState[] = [];
  readonly state: RequestState;
  dispatchReady = false;

  constructor(state: RequestState) {
    // The caller's state stays as it was; the decision carries the new one. Every field is carried over (one
    // copied by name would be dropped the day a field is added: the approval estimate's history once was);
    // what the rules change in place is copied deeper.
    this.state = {
      ...state,
      request: state.request && { ...state.request },
      tasks: state.tasks.map((t) => ({ ...t, dependsOn: [...t.dependsOn] })),
      lessonCandidates: state.lessonCandidates && [...state.lessonCandidates],
    };
  }

  requireRequest(): RequestRecord {
    if (!this.state.request) throw new InvalidEvent('change request not loaded');
    return this.state.request;
  }

  update(u: StateUpdate): void {
    this.updates.push(u);
  }

  move(to: Phase, reason: string): void {
    const cr = this.requireRequest();
    const from = cr.phase;
    if (!canMove(from, to)) throw new IllegalMove(cr.id, from, to);
    cr.phase = to;
    this.update({ kind: 'move', from, to, reason });
    this.events.push({ kind: 'transition', fields: { fromPhase: from, toPhase: to, reason } });
  }

  taskEvent(phase: Phase, taskId: string, state: TaskState, fields: farm.v1.IPhaseTransition): void {
    this.events.push({
      kind: 'transition',
      fields: { fromPhase: phase, toPhase: phase, taskId, taskState: state, ...fields },
    });
  }

  /** Moves to a final phase; stops what still runs and frees the request's leases once committed. */
  finish(to: Phase, reason: string): void {
    const cr = this.requireRequest();
    this.move(to, reason);
    const stopped = this.state.tasks.filter((t) => t.status === T.TASK_PENDING || t.status === T.TASK_DISPATCHED);
    for (const t of stopped) {
      t.status = T.TASK_CANCELLED;
      this.update({ kind: 'cancel-task', taskId: t.id });
      this.taskEvent(to, t.id, T.TASK_CANCELLED, { reason: `task ${t.id}: cancelled` });
    }
    if (stopped.length) this.effects.push({ kind: 'cancel-launcher', changeRequestId: cr.id });
    this.effects.push({ kind: 'release-leases', changeRequestId: cr.id, phase: to });
    this.dispatchReady = false;
  }

  decision(): Decision {
    const { updates, lessons, events, effects, results, state } = this;
    return { updates, lessons, events, effects, results, state };
  }
}

/** A deep copy as a message (no shared arrays, defaults filled in), without encoding it: tasks are encoded once per hop. */
function copyTask(task: farm.v1.ICodingTask): farm.v1.CodingTask {
  return farm.v1.CodingTask.fromObject(farm.v1.CodingTask.toObject(task as farm.v1.CodingTask));
}

/** A lesson as the store will hand it back, for tasks started in the decision that stored it. */
const storedLesson = (l: farm.v1.ILesson): StoredLesson => ({
  taskId: l.taskId ?? '',
  repoUrl: l.repoUrl ?? '',
  goal: l.goal ?? '',
  files: [...(l.files ?? [])],
  firstFailure: l.firstFailure ?? '',
  fix: l.fix ?? '',
  createdAt: '',
});

const firstLine = (s: string) =>
  s
    .split('\n')
    .find((l) => l.trim())
    ?.slice(0, 300) ?? '';
