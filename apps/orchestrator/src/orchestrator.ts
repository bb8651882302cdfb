import { createHash } from 'node:crypto';
import { encodeTaskBase64, farm, parseTaskState, phaseName, taskStateName } from '@farm/proto';
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
import { FarmError, errorMessage, type Logger } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import { reportForAgent, type TaskLauncher } from './launcher';
import {
  decide,
  expireDeadlines,
  InvalidEvent,
  tasksToDispatch,
  type Decision,
  type DeciderEvent,
  type Effect,
  type RequestState,
  type StateUpdate,
} from './decider';
import { parsePhase } from './phases';
import { orchestratorMigrations } from './schema';
import { afterResult, beforeDispatch, type DispatchGate, type TaskAccountingSettings } from './task-accounting';
import { measureStateFrom, orchestratorMetrics } from './metrics';

const P = farm.v1.Phase;
const S = farm.v1.CommitStatus;
type Phase = farm.v1.Phase;

/** An event arrived before the one it builds on (topics are ordered only within themselves): retry later. */
export class NotReady extends FarmError {
  constructor(message: string) {
    super(message, { retryable: true });
  }
}

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
}

export const DEFAULT_ORCHESTRATOR_OPTIONS: OrchestratorOptions = {
  parallelism: 4,
  taskDeadlineMs: 30 * 60_000,
  maxDispatches: 2,
  deadlineCheckMs: 5_000,
  planningDeadlineMs: 15 * 60_000,
  buildDeadlineMs: 2 * 3600_000,
  accounting: { requestMaxCostUsd: 0, lessons: true, lessonsPerTask: 3 },
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

/** Writes one event to the outbox inside the caller's transaction. */
export type OutboxWriter = <T>(spec: TopicSpec<T>, key: string, message: T | Record<string, unknown>) => Promise<void>;

interface RequestRow extends Record<string, unknown> {
  id: string;
  phase: string;
  repo_url: string;
  base_ref: string;
  base_commit: string | null;
  check_command: string | null;
}

interface TaskRow extends Record<string, unknown> {
  id: string;
  /** A task state's short name (taskStateName): the table keeps the text it always had. */
  status: string;
  depends_on: string;
  dispatch: number;
  task_b64: string;
  branch: string;
  commit_sha: string;
}

/**
 * Follows every change request through RECEIVED -> PLANNING -> CODING -> BUILD -> DONE (or FAILED /
 * CANCELLED). The rules are the pure decider's (decider.ts); this class is its shell. State lives in the store; each event is applied in one transaction together with its
 * processed-message record and the events it causes (outbox), published after commit. Tasks are launched
 * only after the transaction that marked them dispatched, so none starts twice, also across restarts.
 */
export class Orchestrator {
  private readonly subs: Subscription[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly group: string;
  private readonly options: OrchestratorOptions;
  private deadlineTimer?: NodeJS.Timeout;

  constructor(private readonly deps: OrchestratorDeps) {
    this.group = deps.group ?? 'orchestrator';
    this.options = { ...DEFAULT_ORCHESTRATOR_OPTIONS, ...deps.options };
  }

  async start(): Promise<void> {
    await migrate(this.deps.store, orchestratorMigrations);
    measureStateFrom(this.deps.store);
    await this.flushOutbox(); // events a previous process committed but did not publish
    await this.dispatchReady(); // tasks ready but not started when a previous process stopped
    const opts = { maxAttempts: 10, retryBackoffMs: 200 };
    const bus = this.deps.bus;
    this.subs.push(
      await bus.subscribe(Topics.changeRequests, this.group, (m, meta) => this.onChangeRequest(m, meta), opts),
      await bus.subscribe(Topics.taskBundles, this.group, (m, meta) => this.onTaskBundle(m, meta), opts),
      await bus.subscribe(Topics.commitResults, this.group, (m, meta) => this.onCommitResult(m, meta), opts),
      await bus.subscribe(Topics.buildResults, this.group, (m, meta) => this.onBuildResult(m, meta), opts),
      await bus.subscribe(Topics.control, this.group, (m, meta) => this.onControl(m, meta), opts),
      await bus.subscribeRaw(DEAD_LETTER_TOPIC, this.group, (raw) => this.onDeadLetter(raw)),
    );
    this.deadlineTimer = setInterval(() => {
      this.expireDeadlines().catch((err) => this.deps.log.error('deadline check failed', { err }));
      // Rows a failed flush left behind (e.g. the broker was away) go out without waiting for the next event.
      this.flushOutbox().catch(() => undefined); // logged by flushOutbox
    }, this.options.deadlineCheckMs);
    this.deadlineTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.deadlineTimer);
    await Promise.all(this.subs.map((s) => s.stop()));
    await this.flushing.catch(() => undefined);
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
    await this.apply(Topics.commitResults, result, meta, result.changeRequestId, { kind: 'commit-result', result });
  }

  async onBuildResult(build: farm.v1.BuildResult, meta: MessageMeta): Promise<void> {
    await this.apply(Topics.buildResults, build, meta, build.changeRequestId, { kind: 'build-result', build });
  }

  async onControl(cmd: farm.v1.ControlCommand, meta: MessageMeta): Promise<void> {
    if (cmd.action !== farm.v1.ControlAction.CANCEL) {
      throw new InvalidEvent(`unknown control action ${cmd.action}`);
    }
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
    ];
    for (const [phase, limitMs] of limits) {
      const stale = await this.deps.store.query<{ id: string }>(
        `SELECT id FROM change_requests WHERE phase = $1
         AND updated_at < now() - ($2::text || ' milliseconds')::interval ORDER BY updated_at LIMIT 100`,
        [phaseName(phase), String(limitMs)],
      );
      for (const row of stale.rows) {
        await this.decideOnce(row.id, { kind: 'phase-expired', phase, limitMs });
      }
    }
  }

  /** Tasks past their deadline count as a failed attempt (re-dispatched while dispatches are left). */
  async expireDeadlines(): Promise<void> {
    await this.expirePhases();
    const running = await this.deps.store.query<{
      id: string;
      change_request_id: string;
      dispatch: number;
      deadline_ms: string;
      now_ms: string;
    }>(
      `SELECT t.id, t.change_request_id, t.dispatch, EXTRACT(EPOCH FROM t.deadline_at) * 1000 AS deadline_ms,
         EXTRACT(EPOCH FROM now()) * 1000 AS now_ms
       FROM tasks t JOIN change_requests c ON c.id = t.change_request_id
       WHERE t.status = 'DISPATCHED' AND t.deadline_at IS NOT NULL AND c.phase = 'CODING'`,
    );
    if (!running.rows.length) return;
    const effects = expireDeadlines(
      running.rows.map((t) => ({
        id: t.id,
        changeRequestId: t.change_request_id,
        dispatch: t.dispatch,
        deadlineAtMs: Number(t.deadline_ms),
      })),
      Number(running.rows[0].now_ms), // the store's clock, which also set the deadlines
      this.options,
    );
    for (const effect of effects) await this.runEffect(effect);
  }

  /** Starts what is ready now, for every request in CODING (start-up and after each change). */
  async dispatchReady(): Promise<void> {
    const effects: Effect[] = [];
    await this.deps.store.transaction(async (tx) => {
      const coding = await tx.query<{ id: string }>(`SELECT id FROM change_requests WHERE phase = 'CODING'`);
      for (const cr of coding.rows) {
        const state = await this.loadState(tx, cr.id);
        await this.dispatchFrom(tx, state, effects);
      }
      // Marked DISPATCHED by a process that died before launching: their deadline will re-dispatch them.
    });
    await this.flushOutbox();
    for (const effect of effects) await this.runEffect(effect);
  }

  /** Applies one event exactly once: skipped when its id was already recorded by this consumer. */
  private async apply<T>(spec: TopicSpec<T>, message: T, meta: MessageMeta, crId: string, event: DeciderEvent) {
    const id = createHash('sha256').update(spec.name).update(encodeMessage(spec, message)).digest('hex');
    const applied = await this.decideOnce(crId, event, id);
    if (!applied) this.deps.log.info('duplicate event ignored', { topic: meta.topic, position: meta.position });
  }

  /**
   * Decides one event in one transaction and runs its effects once committed; with a message id, at most once
   * (false when that id was seen before). Events other than a new change request need the request's row.
   */
  private async decideOnce(crId: string, event: DeciderEvent, messageId?: string): Promise<boolean> {
    const effects: Effect[] = [];
    let applied = true;
    await this.deps.store.transaction(async (tx) => {
      if (messageId) {
        const fresh = await tx.query(
          'INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
          [this.group, messageId],
        );
        if (!fresh.rows.length) {
          applied = false;
          return;
        }
      }
      const state = await this.loadState(tx, crId);
      if (!state.request && (event.kind === 'dead-letter' || event.kind === 'phase-expired')) return;
      // Only a new change request may arrive before its request row exists.
      if (!state.request && event.kind !== 'change-request') {
        throw new NotReady(`change request ${crId} not received yet`);
      }
      const decision = decide(state, event, this.options);
      await this.write(tx, crId, decision);
      effects.push(...decision.effects);
      if (decision.dispatchReady) await this.dispatchFrom(tx, decision.state, effects);
    });
    await this.flushOutbox();
    for (const effect of effects) await this.runEffect(effect); // only reached when the transaction committed
    return applied;
  }

  /** Gates each ready task (cost cap, lessons: they read the store) and dispatches them. */
  private async dispatchFrom(tx: SqlExecutor, state: RequestState, effects: Effect[]): Promise<void> {
    const crId = state.request?.id ?? '';
    const gates = new Map<string, DispatchGate>();
    for (const task of tasksToDispatch(state, this.options)) {
      gates.set(task.id, await beforeDispatch(tx, crId, task, this.options.accounting));
    }
    if (!gates.size) return;
    const decision = decide(state, { kind: 'dispatch-ready', gates }, this.options);
    await this.write(tx, crId, decision);
    effects.push(...decision.effects);
  }

  /** The request row locked for this transaction, and its tasks. */
  private async loadState(tx: SqlExecutor, id: string): Promise<RequestState> {
    const r = await tx.query<RequestRow>('SELECT * FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
    if (!r.rows.length) return { tasks: [] };
    const row = r.rows[0];
    const tasks = await tx.query<TaskRow>('SELECT * FROM tasks WHERE change_request_id = $1 ORDER BY id', [id]);
    return {
      request: {
        id: row.id,
        phase: parsePhase(row.phase),
        repoUrl: row.repo_url,
        baseRef: row.base_ref,
        baseCommit: row.base_commit ?? '',
        checkCommand: row.check_command ?? '',
      },
      tasks: tasks.rows.map((t) => ({
        id: t.id,
        status: parseTaskState(t.status),
        dispatch: t.dispatch,
        dependsOn: JSON.parse(t.depends_on) as string[],
        task: farm.v1.CodingTask.decode(Buffer.from(t.task_b64, 'base64')),
        branch: t.branch ?? '',
        commitSha: t.commit_sha ? String(t.commit_sha) : '',
      })),
    };
  }

  /** Writes a decision's updates, then its events to the outbox, in the caller's transaction. */
  private async write(tx: SqlExecutor, crId: string, decision: Decision): Promise<void> {
    for (const update of decision.updates) await this.writeUpdate(tx, crId, update);
    for (const event of decision.events) {
      if (event.kind === 'transition') await this.emit(tx, crId, event.fields);
      else if (event.kind === 'accepted-request')
        await this.enqueue(tx, Topics.acceptedRequests, crId, event.request as Record<string, unknown>);
      else await this.enqueue(tx, Topics.buildRequests, crId, event.request as Record<string, unknown>);
    }
  }

  private async writeUpdate(tx: SqlExecutor, crId: string, u: StateUpdate): Promise<void> {
    switch (u.kind) {
      case 'insert-request': {
        const cr = u.changeRequest;
        const inserted = await tx.query(
          `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, description, check_command)
           VALUES ($1, 'PHASE_UNSPECIFIED', $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
          // A refused request is kept as sent, cut to sizes a status answer can show.
          [
            crId,
            clip(cr.repo?.url, 2048),
            clip(cr.repo?.baseRef || 'main', 255),
            clip(cr.title, 500),
            clip(cr.description, 100_000),
            clip(cr.checkCommand, 10_000),
          ],
        );
        // Another transaction inserted it since the state was loaded: retried, it is then a duplicate.
        if (!inserted.rows.length) throw new NotReady(`change request ${crId} inserted concurrently`);
        return;
      }
      case 'move':
        return this.move(tx, crId, u.from, u.to, u.reason);
      case 'set-base-commit':
        await tx.query('UPDATE change_requests SET base_commit = $2 WHERE id = $1', [crId, u.baseCommit]);
        return;
      case 'insert-task':
        await tx.query(
          `INSERT INTO tasks (id, change_request_id, goal, status, task_b64, depends_on)
           VALUES ($1, $2, $3, 'PENDING', $4, $5) ON CONFLICT (id) DO NOTHING`,
          [u.task.id, crId, u.task.goal, encodeTaskBase64(u.task), JSON.stringify(u.task.dependsOn ?? [])],
        );
        return;
      case 'account-result':
        await afterResult(tx, u.result, this.options.accounting);
        orchestratorMetrics.taskResults.inc({ status: taskStateName(u.status) });
        return;
      case 'requeue-task':
        await tx.query(
          `UPDATE tasks SET status = 'PENDING', notes = $2, attempts = attempts + $3, task_b64 = $4 WHERE id = $1`,
          [u.taskId, u.notes, u.attempts, encodeTaskBase64(u.task)],
        );
        return;
      case 'finish-task':
        await tx.query(
          `UPDATE tasks SET status = $2, branch = $3, commit_sha = $4, notes = $5, attempts = attempts + $6, finished_at = now()
           WHERE id = $1`,
          [u.taskId, taskStateName(u.status), u.branch, u.commitSha, u.notes, u.attempts],
        );
        return;
      case 'add-tokens':
        await tx.query(
          `UPDATE tasks SET prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3,
           total_tokens = total_tokens + $4 WHERE id = $1`,
          [u.taskId, u.usage.promptTokens ?? 0, u.usage.completionTokens ?? 0, u.usage.totalTokens ?? 0],
        );
        return;
      case 'dispatch-task':
        await tx.query(
          `UPDATE tasks SET status = 'DISPATCHED', dispatch = $2, dispatched_at = now(), task_b64 = $4,
           deadline_at = now() + ($3::text || ' milliseconds')::interval WHERE id = $1`,
          [u.taskId, u.task.dispatch, String(this.options.taskDeadlineMs), encodeTaskBase64(u.task)],
        );
        return;
      case 'cancel-task':
        await tx.query(`UPDATE tasks SET status = 'CANCELLED', finished_at = now() WHERE id = $1`, [u.taskId]);
        return;
      case 'set-integration-branch':
        await tx.query('UPDATE change_requests SET integration_branch = $2 WHERE id = $1', [crId, u.branch]);
        return;
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
          // The launcher could not start it: report it as the agent would, so the state machine moves on.
          await reportForAgent(
            this.deps.bus,
            { id: task.id ?? '', changeRequestId, dispatch: task.dispatch ?? 0 },
            S.HARD_FAIL,
            farm.v1.FailedStep.STEP_LAUNCH,
            [`launcher failed: ${errorMessage(err)}`],
          );
        }
        return;
      }
      case 'report-for-agent': {
        const ids = { changeRequestId: effect.task.changeRequestId, taskId: effect.task.id };
        if (effect.failedStep === farm.v1.FailedStep.STEP_COST_CAP) {
          this.deps.log.warn('task not started: cost cap', { ...ids, reason: effect.notes[0] });
        }
        await reportForAgent(this.deps.bus, effect.task, effect.status, effect.failedStep, effect.notes);
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

  /** Writes a phase change the decider allowed; metrics and log as it happens. */
  private async move(tx: SqlExecutor, id: string, from: Phase, to: Phase, reason: string): Promise<void> {
    const cur = await tx.query<{ secs: string }>(
      'SELECT EXTRACT(EPOCH FROM (now() - updated_at)) AS secs FROM change_requests WHERE id = $1',
      [id],
    );
    if (from !== P.PHASE_UNSPECIFIED)
      orchestratorMetrics.phaseSeconds.observe({ phase: phaseName(from) }, Number(cur.rows[0].secs));
    await tx.query('UPDATE change_requests SET phase = $2, reason = $3, updated_at = now() WHERE id = $1', [
      id,
      phaseName(to),
      reason,
    ]);
    orchestratorMetrics.transitions.inc({ to: phaseName(to) });
    this.deps.log.info('phase transition', { changeRequestId: id, from: phaseName(from), to: phaseName(to), reason });
  }

  /** Writes a PhaseTransition with the request's next sequence number to the outbox. */
  private async emit(tx: SqlExecutor, id: string, fields: farm.v1.IPhaseTransition): Promise<void> {
    const seq = await tx.query<{ seq: string }>(
      'UPDATE change_requests SET seq = seq + 1 WHERE id = $1 RETURNING seq',
      [id],
    );
    await this.enqueue(tx, Topics.phaseTransitions, id, {
      changeRequestId: id,
      sequence: Number(seq.rows[0].seq),
      atMs: Date.now(),
      ...fields,
    });
  }

  private async enqueue<T>(tx: SqlExecutor, spec: TopicSpec<T>, key: string, message: Record<string, unknown>) {
    const payload = encodeMessage(spec, message).toString('base64');
    await tx.query('INSERT INTO outbox (topic, msg_key, payload_b64) VALUES ($1, $2, $3)', [spec.name, key, payload]);
  }

  /**
   * Runs `fn` in one transaction in which it may write events to the outbox (the HTTP API's submissions and
   * cancels); once committed they are published by the same serialised flush as the orchestrator's own.
   * A failed publish does not undo the commit: the rows go out on a later flush.
   */
  async writeThroughOutbox<R>(fn: (tx: SqlExecutor, outbox: OutboxWriter) => Promise<R>): Promise<R> {
    const result = await this.deps.store.transaction((tx) =>
      fn(tx, (spec, key, message) => this.enqueue(tx, spec, key, message as Record<string, unknown>)),
    );
    await this.flushOutbox().catch(() => undefined); // logged by flushOutbox, retried by the next flush
    return result;
  }

  /** Publishes committed outbox rows in order; serialised so events of one request keep their order. */
  flushOutbox(): Promise<void> {
    const run = this.flushing.then(async () => {
      const rows = await this.deps.store.query<{ id: string; topic: string; msg_key: string; payload_b64: string }>(
        'SELECT id, topic, msg_key, payload_b64 FROM outbox WHERE published_at IS NULL ORDER BY id',
      );
      for (const row of rows.rows) {
        await this.deps.bus.publishRaw(row.topic, Buffer.from(row.payload_b64, 'base64'), {
          key: row.msg_key,
          headers: { 'content-type': 'application/x-protobuf' },
        });
        await this.deps.store.query('UPDATE outbox SET published_at = now() WHERE id = $1', [row.id]);
      }
    });
    this.flushing = run.catch((err) => this.deps.log.error('outbox flush failed; retried on the next event', { err }));
    return run;
  }
}

const clip = (value: string | null | undefined, max: number) => (value ?? '').slice(0, max);
