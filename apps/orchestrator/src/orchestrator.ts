import { migrateAccess } from '@farm/access';
import { deleteRemoteBranch, remoteBranchSha } from '@farm/git';
import { createHash } from 'node:crypto';
import { farm, phaseName } from '@farm/proto';
import {
  DEAD_LETTER_TOPIC,
  DLQ_HEADERS,
  Topics,
  encodeMessage,
  type EventBus,
  type MessageMeta,
  type RawMessage,
  type Subscription,
  type TopicSpec,
} from '@farm/bus';
import { LessonCandidates, storeLesson } from '@farm/lessons';
import { FarmError, environmentRedactor, errorMessage, redactMessage, type Logger } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import { isTemporaryLaunchError, type TaskLauncher } from './launcher';
import { decide, expireDeadlines, InvalidEvent, type Decision, type DeciderEvent, type Effect } from './decider';
import { Outbox, pruneOutbox, type OutboxWriter } from './outbox';
import { pruneTaskReports, recordTaskReport } from './task-reports';
import { pruneTaskSteps, recordTaskStep } from './task-steps';
import { pruneBuildReports, recordBuildReport } from './build-reports';
import { takeSentDecision } from './request-decisions';
import { fleetAgentMetrics } from './fleet-agent-metrics';
import {
  NotReady,
  applyUpdates,
  loadRequestState,
  nextTransitionSequence,
  pruneProcessed,
  recentlyCancelled,
  isRunningDispatch,
  recordProcessed,
  requestsInCoding,
  requestsInPhaseSince,
  runningTasks,
  type WrittenMove,
} from './request-store';
import { orchestratorMigrations } from './schema';
import type { TaskAccountingSettings } from './task-accounting';
import { approvalConfigSchema, approvalPolicyFrom, mayHoldPlans, type ApprovalPolicy } from './approval-policy';
import { measureStateFrom, recordCommitted } from './metrics';

export { NotReady } from './request-store';
export type { OutboxWriter } from './outbox';

const P = farm.v1.Phase;
type Phase = farm.v1.Phase;
/** How far back a start looks for cancelled requests whose branch may be left to take back. */
const RETRACT_RESUME_WINDOW_MS = 60 * 60_000;

/** Frees a change request's symbol leases when it ends (the srm client, or nothing). */
export interface LeaseReleaser {
  releaseForChangeRequest(changeRequestId: string): Promise<number>;
}

export interface OrchestratorOptions {
  /** Tasks of one change request running at once. */
  parallelism: number;
  /** A dispatched task without a result after this long counts as a failed attempt. */
  taskDeadlineMs: number;
  /** Dispatches of one task (the first plus re-dispatches after SOFT_FAIL). */
  maxDispatches: number;
  /** How often deadlines are checked. */
  deadlineCheckMs: number;
  /** A request still RECEIVED or PLANNING after this long is failed (its planners gave up or are gone). */
  planningDeadlineMs: number;
  /** A request still in BUILD after this long is failed (its build was lost). */
  buildDeadlineMs: number;
  /** The request cost cap and the lessons given to tasks. */
  accounting: TaskAccountingSettings;
  /** Which plans wait for a person before any task starts, and for how long. */
  approval: ApprovalPolicy;
  /** Sent outbox rows of an ended request older than this are pruned by the sweep. */
  outboxRetentionMs: number;
  /** Ids of applied messages older than this are pruned by the sweep (longer than any redelivery window). */
  processedRetentionMs: number;
  /** How often the sweep prunes (at most). */
  pruneEveryMs: number;
  /** After a cancel during BUILD, how long the build has to stop before the request's farm/<id> is deleted. */
  retractAfterCancelMs: number;
}

export const DEFAULT_ORCHESTRATOR_OPTIONS: OrchestratorOptions = {
  parallelism: 4,
  taskDeadlineMs: 30 * 60_000,
  maxDispatches: 2,
  deadlineCheckMs: 5_000,
  planningDeadlineMs: 15 * 60_000,
  buildDeadlineMs: 2 * 3600_000,
  accounting: { requestMaxCostUsd: 0, lessons: true, lessonsPerTask: 3 },
  // Only the plans whose submitter asks wait (FARM_APPROVAL=never), a day at most.
  approval: approvalPolicyFrom(approvalConfigSchema.parse({})),
  outboxRetentionMs: 7 * 24 * 3600_000,
  processedRetentionMs: 14 * 24 * 3600_000,
  pruneEveryMs: 10 * 60_000,
  // A push that a stopped build had under way ends well within this (a git host silent for 2 minutes is the
  // agents' own limit; a build's push is of one merge commit).
  retractAfterCancelMs: 60_000,
};

export interface OrchestratorDeps {
  bus: EventBus;
  store: SqlStore;
  launcher: TaskLauncher;
  log: Logger;
  leases?: LeaseReleaser;
  options?: Partial<OrchestratorOptions>;
  /** Consumer group name; one per orchestrator deployment. */
  group?: string;
  /**
   * Where credentials written in a repository URL go at intake (returns the bare URL, or throws a non-retryable
   * FarmError to refuse the request); without it such URLs are refused. `farm up` keeps them in a file of its state.
   */
  takeCredentials?: (url: string) => string;
  /**
   * Deletes `branch` of the repository while it still holds `commitSha` (default: over git with the farm's
   * credentials); answers whether it is gone.
   */
  retractBranch?: (repoUrl: string, branch: string, commitSha: string) => Promise<boolean>;
}

/** The default intake of URL credentials: none is accepted (they would travel with the request). */
export function refuseUrlCredentials(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (!u.username && !u.password) return url;
  throw new InvalidEvent(
    'repo.url carries credentials, which this farm does not accept in a URL: give them to the farm instead ' +
      "(FARM_GIT_TOKEN or FARM_GIT_CREDENTIALS_FILE; in a cluster, the agents' git Secret)",
  );
}

/** The URL without user info, for a refused request's record. */
function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
}

/**
 * Follows every change request through RECEIVED -> PLANNING -> CODING -> BUILD -> DONE (or FAILED /
 * CANCELLED). The rules are the pure decider's (decider.ts); this class is its shell. State lives in the store; each event is applied in one transaction together with its
 * processed-message record and the events it causes (outbox), published after commit. Tasks are launched
 * only after the transaction that marked them dispatched, so none starts twice, also across restarts.
 */
export class Orchestrator {
  private readonly subs: Subscription[] = [];
  private readonly outbox: Outbox;
  private readonly laterTimers = new Set<NodeJS.Timeout>();
  private readonly group: string;
  private readonly options: OrchestratorOptions;
  private deadlineTimer?: NodeJS.Timeout;
  private lastPruneMs = 0;
  /** The recent lessons per repository new tasks are ranked against, read once per burst (see LessonCandidates). */
  private readonly lessonCandidates = new LessonCandidates();

  constructor(private readonly deps: OrchestratorDeps) {
    this.group = deps.group ?? 'orchestrator';
    this.options = { ...DEFAULT_ORCHESTRATOR_OPTIONS, ...deps.options };
    this.outbox = new Outbox(deps.store, deps.bus, deps.log);
  }

  async start(): Promise<void> {
    await migrate(this.deps.store, orchestratorMigrations);
    // A decision sent on the control topic is audited in the applying transaction: the audit log is the
    // orchestrator's too, not only the HTTP API's (an orchestrator without the API failed every such cancel).
    await migrateAccess(this.deps.store);
    measureStateFrom(this.deps.store);
    await this.flushOutbox(); // events a previous process committed but did not publish
    await this.dispatchReady(); // tasks ready but not started when a previous process stopped
    await this.resumeRetractions(); // branches of cancelled requests a previous process was to take back
    const opts = { maxAttempts: 10, retryBackoffMs: 200 };
    const bus = this.deps.bus;
    this.subs.push(
      await bus.subscribe(Topics.changeRequests, this.group, (m, meta) => this.onChangeRequest(m, meta), opts),
      await bus.subscribe(Topics.taskBundles, this.group, (m, meta) => this.onTaskBundle(m, meta), opts),
      await bus.subscribe(Topics.commitResults, this.group, (m, meta) => this.onCommitResult(m, meta), opts),
      await bus.subscribe(Topics.buildResults, this.group, (m, meta) => this.onBuildResult(m, meta), opts),
      await bus.subscribe(Topics.control, this.group, (m, meta) => this.onControl(m, meta), opts),
      // Kept for following tasks live; idempotent by the step's identity, so outside the decider's transactions.
      await bus.subscribe(
        Topics.taskSteps,
        this.group,
        (m) => recordTaskStep(this.deps.store, m, this.deps.log).then(() => undefined),
        opts,
      ),
      await bus.subscribeRaw(DEAD_LETTER_TOPIC, this.group, (raw) => this.onDeadLetter(raw)),
    );
    this.deadlineTimer = setInterval(() => {
      this.expireDeadlines().catch((err) => this.deps.log.error('deadline check failed', { err }));
      // Rows a failed flush left behind (e.g. the broker was away) go out without waiting for the next event.
      this.flushOutbox().catch(() => undefined); // logged by flushOutbox
      if (Date.now() - this.lastPruneMs >= this.options.pruneEveryMs) {
        this.lastPruneMs = Date.now();
        this.pruneHistory().catch((err) => this.deps.log.error('pruning the outbox failed', { err }));
      }
    }, this.options.deadlineCheckMs);
    this.deadlineTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.deadlineTimer);
    for (const timer of this.laterTimers) clearTimeout(timer);
    this.laterTimers.clear();
    await Promise.all(this.subs.map((s) => s.stop()));
    await this.outbox.settled();
  }

  async onChangeRequest(cr: farm.v1.ChangeRequest, meta: MessageMeta): Promise<void> {
    // Credentials in the URL are split off before anything is written or passed on.
    const { url, refusal } = this.intakeUrl(cr.repo?.url ?? '');
    const admitted = farm.v1.ChangeRequest.create({ ...cr, repo: farm.v1.RepoRef.create({ ...cr.repo, url }) });
    await this.apply(Topics.changeRequests, cr, meta, cr.changeRequestId, {
      kind: 'change-request',
      changeRequest: admitted,
      refusal,
    });
  }

  /** A repository URL as the farm keeps it: credentials taken off (kept by takeCredentials), or a refusal. */
  intakeUrl(url: string): { url: string; refusal?: string } {
    try {
      return { url: (this.deps.takeCredentials ?? refuseUrlCredentials)(url) };
    } catch (err) {
      if (err instanceof FarmError && !err.retryable) return { url: withoutUserInfo(url), refusal: err.message };
      throw err;
    }
  }

  async onTaskBundle(bundle: farm.v1.TaskBundle, meta: MessageMeta): Promise<void> {
    await this.apply(Topics.taskBundles, bundle, meta, bundle.changeRequestId, { kind: 'task-bundle', bundle });
  }

  async onCommitResult(result: farm.v1.CommitResult, meta: MessageMeta): Promise<void> {
    // Redacted again, of the secrets this process holds and the agent never had (the forge's token, the webhook
    // secret), before any of it is kept, decided on (notes, lessons) or served; the id stays the message's own.
    const clean = redactMessage(farm.v1.CommitResult, result, environmentRedactor());
    // Kept whatever the decision: the API shows every dispatch's trajectory and diff (the metrics are served, not kept).
    await recordTaskReport(this.deps.store, { ...clean, agentMetrics: [] });
    const applied = await this.apply(Topics.commitResults, result, meta, result.changeRequestId, {
      kind: 'commit-result',
      result: clean,
    });
    if (applied) fleetAgentMetrics.add(result.agentMetrics);
  }

  async onBuildResult(build: farm.v1.BuildResult, meta: MessageMeta): Promise<void> {
    const clean = redactMessage(farm.v1.BuildResult, build, environmentRedactor()); // as a commit result
    // Kept whatever the decision: the API shows the request's diff as its build merged it.
    await recordBuildReport(this.deps.store, clean);
    await this.apply(Topics.buildResults, build, meta, build.changeRequestId, { kind: 'build-result', build: clean });
  }

  async onControl(cmd: farm.v1.ControlCommand, meta: MessageMeta): Promise<void> {
    const known = [farm.v1.ControlAction.CANCEL, farm.v1.ControlAction.APPROVE, farm.v1.ControlAction.REJECT];
    if (!known.includes(cmd.action)) throw new InvalidEvent(`unknown control action ${cmd.action}`);
    await this.apply(Topics.control, cmd, meta, cmd.changeRequestId, { kind: 'cancel', command: cmd });
  }

  /**
   * A dead letter keyed by a request that waits for that topic (planning, build) fails the request with the
   * consumer's reason: nobody else would move it on.
   */
  async onDeadLetter(raw: RawMessage): Promise<void> {
    const crId = raw.key ?? '';
    const sourceTopic = raw.headers[DLQ_HEADERS.sourceTopic] ?? '';
    if (!crId || !sourceTopic) return;
    const id = createHash('sha256')
      .update(DEAD_LETTER_TOPIC)
      .update(raw.position)
      .update(raw.value ?? Buffer.alloc(0))
      .update(JSON.stringify(raw.headers))
      .digest('hex');
    const letter = {
      sourceTopic,
      group: raw.headers[DLQ_HEADERS.group] ?? 'a consumer',
      error: raw.headers[DLQ_HEADERS.error] ?? 'no reason given',
    };
    await this.decideOnce(crId, { kind: 'dead-letter', letter }, id);
  }

  /**
   * The sweep: requests whose phase outlived its limit (planning or build lost, a planner that is gone) are
   * failed with the reason; CODING is bounded by the task deadlines.
   */
  async expirePhases(): Promise<void> {
    const limits: [Phase, number][] = [
      [P.RECEIVED, this.options.planningDeadlineMs],
      [P.PLANNING, this.options.planningDeadlineMs],
      [P.BUILD, this.options.buildDeadlineMs],
      // A plan waits for a person at most this long (then it fails, or is approved where the operator chose so).
      [P.AWAITING_APPROVAL, this.options.approval.timeoutMs],
    ];
    for (const [phase, limitMs] of limits) {
      for (const id of await requestsInPhaseSince(this.deps.store, phase, limitMs)) {
        await this.decideOnce(id, { kind: 'phase-expired', phase, limitMs });
      }
    }
  }

  /** Tasks past their deadline count as a failed attempt (re-dispatched while dispatches are left). */
  async expireDeadlines(): Promise<void> {
    await this.expirePhases();
    const running = await runningTasks(this.deps.store);
    if (!running.length) return;
    // The store's clock, which also set the deadlines.
    for (const task of expireDeadlines(running, running[0].nowMs)) {
      const { id: taskId, dispatch } = task;
      await this.decideOnce(task.changeRequestId, { kind: 'task-expired', taskId, dispatch });
    }
  }

  /** Deletes sent outbox rows, task reports and steps, and applied-message ids past their retention; returns how many. */
  async pruneHistory(): Promise<{
    outbox: number;
    taskReports: number;
    buildReports: number;
    taskSteps: number;
    processedMessages: number;
  }> {
    const outbox = await pruneOutbox(this.deps.store, this.options.outboxRetentionMs);
    const taskReports = await pruneTaskReports(this.deps.store, this.options.outboxRetentionMs);
    const buildReports = await pruneBuildReports(this.deps.store, this.options.outboxRetentionMs);
    const taskSteps = await pruneTaskSteps(this.deps.store, this.options.outboxRetentionMs);
    const processedMessages = await pruneProcessed(this.deps.store, this.options.processedRetentionMs);
    if (outbox || taskReports || buildReports || taskSteps || processedMessages) {
      this.deps.log.info('history pruned', { outbox, taskReports, buildReports, taskSteps, processedMessages });
    }
    return { outbox, taskReports, buildReports, taskSteps, processedMessages };
  }

  /** Starts what is ready now, for every request in CODING (start-up and after each change). */
  async dispatchReady(): Promise<void> {
    const decisions: Decision[] = [];
    const moves: WrittenMove[] = [];
    await this.deps.store.transaction(async (tx) => {
      for (const id of await requestsInCoding(tx)) {
        const decision = decide(await this.load(tx, id), { kind: 'dispatch-ready' }, this.options);
        moves.push(...(await this.write(tx, id, decision)));
        decisions.push(decision);
      }
      // Marked DISPATCHED by a process that died before launching: their deadline will re-dispatch them.
    });
    await this.committed(decisions, moves);
  }

  /** Applies one event exactly once: skipped when its id was already recorded by this consumer. */
  private async apply<T>(
    spec: TopicSpec<T>,
    message: T,
    meta: MessageMeta,
    crId: string,
    event: DeciderEvent,
  ): Promise<boolean> {
    const id = createHash('sha256').update(spec.name).update(encodeMessage(spec, message)).digest('hex');
    const applied = await this.decideOnce(crId, event, id);
    if (!applied) this.deps.log.info('duplicate event ignored', { topic: meta.topic, position: meta.position });
    return applied;
  }

  /**
   * Decides one event in one transaction and runs its effects once committed; with a message id, at most once
   * (false when that id was seen before). Events other than a new change request need the request's row.
   */
  private async decideOnce(crId: string, event: DeciderEvent, messageId?: string): Promise<boolean> {
    const decisions: Decision[] = [];
    const moves: WrittenMove[] = [];
    let applied = true;
    let refused: string | undefined;
    await this.deps.store.transaction(async (tx) => {
      if (messageId && !(await recordProcessed(tx, this.group, messageId))) {
        applied = false;
        return;
      }
      const state = await this.load(tx, crId);
      if (!state.request && (event.kind === 'dead-letter' || event.kind === 'phase-expired')) return;
      // Only a new change request may arrive before its request row exists.
      if (!state.request && event.kind !== 'change-request') {
        throw new NotReady(`change request ${crId} not received yet`);
      }
      if (event.kind === 'cancel' && !event.command.decided) {
        refused = await takeSentDecision(tx, event.command);
        if (refused) return; // consumed, not applied: the decision it names was not taken
      }
      const decision = decide(state, event, this.options);
      moves.push(...(await this.write(tx, crId, decision)));
      decisions.push(decision);
    });
    if (refused) this.deps.log.warn('control command refused', { changeRequestId: crId, reason: refused });
    await this.committed(decisions, moves); // only reached when the transaction committed
    return applied;
  }

  /** After commit: publish the outbox, record metrics and logs, run the effects. */
  private async committed(decisions: Decision[], moves: WrittenMove[]): Promise<void> {
    for (const lesson of decisions.flatMap((d) => d.lessons)) this.lessonCandidates.forget(lesson.repoUrl ?? '');
    await this.flushOutbox();
    recordCommitted(decisions, moves, this.deps.log);
    for (const effect of decisions.flatMap((d) => d.effects)) await this.runEffect(effect);
  }

  /** A request's state as the decider needs it (the lessons only when they are on). */
  private load(tx: SqlExecutor, crId: string) {
    const { approval } = this.options;
    return loadRequestState(tx, crId, {
      ...(this.options.accounting.lessons ? { lessons: this.lessonCandidates } : {}),
      mayHoldPlans: mayHoldPlans(approval),
    });
  }

  /** Writes a decision in the caller's transaction: its updates, lessons and outbox events, in order. */
  private async write(tx: SqlExecutor, crId: string, decision: Decision): Promise<WrittenMove[]> {
    const moves = await applyUpdates(tx, crId, decision.updates, this.options);
    for (const lesson of decision.lessons) await storeLesson(tx, lesson);
    for (const event of decision.events) {
      if (event.kind === 'transition') {
        // Each transition of a request carries its next sequence number (the event stream's resume point).
        const sequence = await nextTransitionSequence(tx, crId);
        const transition = { changeRequestId: crId, sequence, atMs: Date.now(), ...event.fields };
        await this.outbox.enqueue(tx, Topics.phaseTransitions, crId, transition);
      } else if (event.kind === 'accepted-request') {
        await this.outbox.enqueue(tx, Topics.acceptedRequests, crId, event.request as Record<string, unknown>);
      } else {
        await this.outbox.enqueue(tx, Topics.buildRequests, crId, event.request as Record<string, unknown>);
      }
    }
    return moves;
  }

  /**
   * A cancel during BUILD: the builder stops the build, but a push already under way completes. Once that has had
   * time, the branch is deleted at whatever it then holds (it is the farm's own, for this request only). An
   * orchestrator stopped meanwhile does it at its next start (resumeRetractions).
   */
  private retractLater(
    effect: Extract<Effect, { kind: 'retract-integration-branch' }>,
    afterMs = this.options.retractAfterCancelMs,
  ): void {
    const timer = setTimeout(() => {
      this.laterTimers.delete(timer);
      void (async () => {
        const tip = await remoteBranchSha(effect.repoUrl, effect.branch).catch(() => undefined);
        if (tip) await this.retractBranch(effect, tip);
      })();
    }, afterMs);
    timer.unref();
    this.laterTimers.add(timer);
  }

  /** A launch refused by a condition of the moment, tried again with backoff while its dispatch is the running one. */
  private launchLater(effect: Extract<Effect, { kind: 'launch' }>, err: unknown, attempt: number): void {
    const { task, changeRequestId } = effect;
    const waitMs = Math.min(1_000 * 2 ** (attempt - 1), 30_000);
    this.deps.log.warn('task launch waits: a condition of the moment refused it; launching again when it clears', {
      changeRequestId,
      taskId: task.id,
      dispatch: task.dispatch,
      error: errorMessage(err),
      attempt,
      waitMs,
    });
    const timer = setTimeout(() => {
      this.laterTimers.delete(timer);
      void (async () => {
        if (!(await isRunningDispatch(this.deps.store, task.id ?? '', task.dispatch ?? 0))) return; // moved on
        try {
          await this.deps.launcher.launch(task);
          this.deps.log.info('task launched after waiting', { changeRequestId, taskId: task.id, attempt });
        } catch (again) {
          if (isTemporaryLaunchError(again)) return this.launchLater(effect, again, attempt + 1);
          const error = errorMessage(again);
          this.deps.log.warn('task launch failed', { changeRequestId, taskId: task.id, error });
          await this.decideOnce(changeRequestId, {
            kind: 'launch-failed',
            taskId: task.id ?? '',
            dispatch: task.dispatch ?? 0,
            error,
          });
        }
      })().catch((e: unknown) => this.deps.log.error('launching a waiting task failed', { changeRequestId, err: e }));
    }, waitMs);
    timer.unref();
    this.laterTimers.add(timer); // cleared by stop(); the next start resumes dispatched tasks (resumeLaunches)
  }

  /** The retractions a previous process had scheduled: every request cancelled in the last hour, when due. */
  private async resumeRetractions(): Promise<void> {
    for (const cr of await recentlyCancelled(this.deps.store, RETRACT_RESUME_WINDOW_MS)) {
      const effect = { kind: 'retract-integration-branch' as const, changeRequestId: cr.id, repoUrl: cr.repoUrl };
      this.retractLater(
        { ...effect, branch: `farm/${cr.id}` },
        Math.max(0, this.options.retractAfterCancelMs - cr.agoMs),
      );
    }
  }

  private async retractBranch(effect: { changeRequestId: string; repoUrl: string; branch: string }, sha: string) {
    const retract = this.deps.retractBranch ?? deleteRemoteBranch;
    const fields = { changeRequestId: effect.changeRequestId, branch: effect.branch, commitSha: sha };
    try {
      if (await retract(effect.repoUrl, effect.branch, sha))
        this.deps.log.info('cancelled request’s branch deleted', fields);
      else this.deps.log.warn('cancelled request’s branch kept: someone moved it on since', fields);
    } catch (err) {
      this.deps.log.error('could not delete the branch of a cancelled request', { ...fields, err });
    }
  }

  /** Runs one after-commit effect. */
  private async runEffect(effect: Effect): Promise<void> {
    switch (effect.kind) {
      case 'launch': {
        const task = effect.task;
        const changeRequestId = effect.changeRequestId;
        this.deps.log.info('dispatching task', { changeRequestId, taskId: task.id, dispatch: task.dispatch });
        try {
          await this.deps.launcher.launch(task);
        } catch (err) {
          // A condition of the moment (a full disk, no process slot): the dispatch waits and is launched again once
          // it clears, still this dispatch, as long as it is the task's running one.
          if (isTemporaryLaunchError(err)) {
            this.launchLater(effect, err, 1);
            return;
          }
          // The launcher could not start it: decided as that dispatch's HARD_FAIL, so the request moves on.
          const error = errorMessage(err);
          this.deps.log.warn('task launch failed', { changeRequestId, taskId: task.id, error });
          const failed = { kind: 'launch-failed' as const, taskId: task.id ?? '', dispatch: task.dispatch ?? 0, error };
          await this.decideOnce(changeRequestId, failed);
        }
        return;
      }
      case 'stop-task':
        this.deps.log.warn('task deadline exceeded', {
          changeRequestId: effect.changeRequestId,
          taskId: effect.taskId,
        });
        await this.deps.launcher.stopTask?.(effect.taskId);
        return;
      case 'cancel-launcher':
        await this.deps.launcher.cancel(effect.changeRequestId);
        return;
      case 'retract-integration-branch':
        if (effect.commitSha) await this.retractBranch(effect, effect.commitSha);
        else this.retractLater(effect);
        return;
      case 'release-leases': {
        const released = (await this.deps.leases?.releaseForChangeRequest(effect.changeRequestId)) ?? 0;
        this.deps.log.info('change request ended', {
          changeRequestId: effect.changeRequestId,
          phase: phaseName(effect.phase),
          released,
        });
        return;
      }
    }
  }

  /**
   * Runs `fn` in one transaction in which it may write events to the outbox (the HTTP API's submissions and
   * cancels); once committed they are published by the same serialised flush as the orchestrator's own.
   * A failed publish does not undo the commit: the rows go out on a later flush.
   */
  async writeThroughOutbox<R>(fn: (tx: SqlExecutor, outbox: OutboxWriter) => Promise<R>): Promise<R> {
    const result = await this.deps.store.transaction((tx) =>
      fn(tx, (spec, key, message) => this.outbox.enqueue(tx, spec, key, message)),
    );
    await this.flushOutbox().catch(() => undefined); // logged by flushOutbox, retried by the next flush
    return result;
  }

  /** Publishes committed outbox rows in order (serialised, so events of one request keep their order). */
  flushOutbox(): Promise<void> {
    return this.outbox.flush();
  }
}
