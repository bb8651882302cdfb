import { createHash } from 'node:crypto';
import { farm, phaseName } from '@farm/proto';
import { Topics, encodeMessage, type EventBus, type MessageMeta, type Subscription, type TopicSpec } from '@farm/bus';
import { FarmError, errorMessage, type Logger } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import { reportForAgent, type TaskLauncher } from './launcher';
import { canMove, codingOutcome, parsePhase, readyTasks, type TaskState } from './phases';
import { orchestratorMigrations } from './schema';
import { afterResult, beforeDispatch, type TaskAccountingSettings } from './task-accounting';
import { measureStateFrom, orchestratorMetrics } from './metrics';

const P = farm.v1.Phase;
/** Failed steps whose SOFT_FAIL another dispatch would only repeat at a cost. */
const NOT_RETRIED_STEPS = new Set(['budget', 'review']);
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
  /** The request cost cap and the lessons given to tasks. */
  accounting: TaskAccountingSettings;
}

export const DEFAULT_ORCHESTRATOR_OPTIONS: OrchestratorOptions = {
  parallelism: 4,
  taskDeadlineMs: 30 * 60_000,
  maxDispatches: 2,
  deadlineCheckMs: 5_000,
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
}

/** Writes one event to the outbox inside the caller's transaction. */
export type OutboxWriter = <T>(spec: TopicSpec<T>, key: string, message: T | Record<string, unknown>) => Promise<void>;

/** A transaction plus the side effects it decided, which run only after it committed. */
type Unit = SqlExecutor & { after: (() => Promise<void>)[] };

interface RequestRow extends Record<string, unknown> {
  id: string;
  phase: string;
}

interface TaskRow extends Record<string, unknown> {
  id: string;
  status: TaskState;
  depends_on: string;
  dispatch: number;
  task_b64: string;
  branch: string;
  commit_sha: string;
}

/**
 * Follows every change request through RECEIVED -> PLANNING -> CODING -> BUILD -> DONE (or FAILED /
 * CANCELLED). State lives in the store; each event is applied in one transaction together with its
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
    await this.apply(Topics.changeRequests, cr, meta, async (tx) => {
      if (!cr.repo?.url || !cr.title) {
        throw new FarmError(`change request ${cr.changeRequestId} needs repo.url and title`, { retryable: false });
      }
      const inserted = await tx.query(
        `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, description, check_command)
         VALUES ($1, 'PHASE_UNSPECIFIED', $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [cr.changeRequestId, cr.repo.url, cr.repo.baseRef || 'main', cr.title, cr.description, cr.checkCommand],
      );
      if (!inserted.rows.length) return; // the same request submitted twice
      await this.move(tx, cr.changeRequestId, P.RECEIVED, 'change request received');
      await this.move(tx, cr.changeRequestId, P.PLANNING, 'planning started');
    });
  }

  async onTaskBundle(bundle: farm.v1.TaskBundle, meta: MessageMeta): Promise<void> {
    await this.apply(Topics.taskBundles, bundle, meta, async (tx) => {
      const cr = await this.load(tx, bundle.changeRequestId);
      if (parsePhase(cr.phase) !== P.PLANNING) return; // stale, duplicate, or cancelled meanwhile
      if (bundle.planningError || bundle.tasks.length === 0) {
        await this.finish(tx, cr.id, P.FAILED, `planning failed: ${bundle.planningError || 'no tasks'}`);
        return;
      }
      await tx.query('UPDATE change_requests SET base_commit = $2 WHERE id = $1', [
        cr.id,
        bundle.repo?.baseCommit ?? '',
      ]);
      for (const task of bundle.tasks) {
        await tx.query(
          `INSERT INTO tasks (id, change_request_id, goal, status, task_b64, depends_on)
           VALUES ($1, $2, $3, 'PENDING', $4, $5) ON CONFLICT (id) DO NOTHING`,
          [task.id, cr.id, task.goal, encodeTask(task), JSON.stringify(task.dependsOn)],
        );
      }
      const base = bundle.repo?.baseCommit?.slice(0, 12);
      await this.move(tx, cr.id, P.CODING, `${bundle.tasks.length} task(s) at ${base}`);
      await this.scheduleReady(tx, cr.id);
    });
  }

  async onCommitResult(result: farm.v1.CommitResult, meta: MessageMeta): Promise<void> {
    await this.apply(Topics.commitResults, result, meta, async (tx) => {
      const cr = await this.load(tx, result.changeRequestId);
      const rows = await tx.query<TaskRow>('SELECT * FROM tasks WHERE id = $1 AND change_request_id = $2 FOR UPDATE', [
        result.taskId,
        cr.id,
      ]);
      if (!rows.rows.length) throw new FarmError(`unknown task ${result.taskId} of ${cr.id}`, { retryable: false });
      const task = rows.rows[0];
      const status = S[result.status] as TaskState;
      if (!['SUCCESS', 'SOFT_FAIL', 'HARD_FAIL'].includes(status)) {
        throw new FarmError(`commit result of ${result.taskId} has no status`, { retryable: false });
      }
      // Only the running dispatch's result counts; a late one from an earlier dispatch is ignored.
      if (task.status !== 'DISPATCHED' || (result.dispatch && result.dispatch !== task.dispatch)) return;
      // The task's cost adds to its request's; a success leaves a lesson for later tasks on the repository.
      await afterResult(tx, result, this.options.accounting);
      orchestratorMetrics.taskResults.inc({ status });
      const phase = parsePhase(cr.phase);
      const notes = result.notes.join('\n');
      // A task stopped by its budget or its reviewer would only spend again: it is not re-dispatched.
      const retry =
        status === 'SOFT_FAIL' &&
        !NOT_RETRIED_STEPS.has(result.failedStep) &&
        task.dispatch < this.options.maxDispatches &&
        phase === P.CODING;
      if (retry) {
        // Back to PENDING, carrying what went wrong so the next agent starts from it.
        const again = farm.v1.CodingTask.decode(Buffer.from(task.task_b64, 'base64'));
        again.priorNotes = [...again.priorNotes, `dispatch ${task.dispatch}: ${notes}`.slice(0, 4000)];
        await tx.query(
          `UPDATE tasks SET status = 'PENDING', notes = $2, attempts = attempts + $3, task_b64 = $4 WHERE id = $1`,
          [task.id, notes, result.attempts, encodeTask(again)],
        );
      } else {
        await tx.query(
          `UPDATE tasks SET status = $2, branch = $3, commit_sha = $4, notes = $5, attempts = attempts + $6, finished_at = now()
           WHERE id = $1`,
          [task.id, status, result.branchName, result.commitSha, notes, result.attempts],
        );
      }
      // Tokens add up over every dispatch of the task: each one was paid for.
      const usage = result.tokenUsage;
      await tx.query(
        `UPDATE tasks SET prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3,
         total_tokens = total_tokens + $4 WHERE id = $1`,
        [task.id, usage?.promptTokens ?? 0, usage?.completionTokens ?? 0, usage?.totalTokens ?? 0],
      );
      await this.taskEvent(tx, cr.id, phase, task.id, retry ? 'PENDING' : status, {
        reason: `task ${task.id}: ${status}${retry ? ', re-dispatching with its notes' : ''}${notes ? ` (${firstLine(notes)})` : ''}`,
        taskStatus: result.status,
        branchName: result.branchName,
      });
      if (phase !== P.CODING) return;
      if (status === 'HARD_FAIL') {
        await this.finish(tx, cr.id, P.FAILED, `task ${task.id} HARD_FAIL: ${firstLine(notes)}`);
        return;
      }
      await this.advanceCoding(tx, cr.id, retry ? undefined : `task ${task.id} ${status}: ${firstLine(notes)}`);
    });
  }

  async onBuildResult(build: farm.v1.BuildResult, meta: MessageMeta): Promise<void> {
    await this.apply(Topics.buildResults, build, meta, async (tx) => {
      const cr = await this.load(tx, build.changeRequestId);
      if (parsePhase(cr.phase) !== P.BUILD) return;
      await tx.query('UPDATE change_requests SET integration_branch = $2 WHERE id = $1', [
        cr.id,
        build.integrationBranch,
      ]);
      if (build.status === farm.v1.BuildStatus.BUILD_PASSED) {
        await this.finish(tx, cr.id, P.DONE, `build passed on ${build.integrationBranch}`);
      } else if (build.status === farm.v1.BuildStatus.MERGE_CONFLICT) {
        await this.finish(tx, cr.id, P.FAILED, `merge conflict in ${build.conflictingPaths.join(', ')}`);
      } else {
        await this.finish(tx, cr.id, P.FAILED, `build failed: ${firstLine(build.notes.join('\n'))}`);
      }
    });
  }

  async onControl(cmd: farm.v1.ControlCommand, meta: MessageMeta): Promise<void> {
    if (cmd.action !== farm.v1.ControlAction.CANCEL) {
      throw new FarmError(`unknown control action ${cmd.action}`, { retryable: false });
    }
    await this.apply(Topics.control, cmd, meta, async (tx) => {
      const cr = await this.load(tx, cmd.changeRequestId);
      if (!canMove(parsePhase(cr.phase), P.CANCELLED)) return; // already final
      await this.finish(
        tx,
        cr.id,
        P.CANCELLED,
        `cancelled${cmd.requestedBy ? ` by ${cmd.requestedBy}` : ''}${cmd.reason ? `: ${cmd.reason}` : ''}`,
      );
    });
  }

  /** Tasks past their deadline count as a failed attempt (re-dispatched while dispatches are left). */
  async expireDeadlines(): Promise<void> {
    const overdue = await this.deps.store.query<{ id: string; change_request_id: string; dispatch: number }>(
      `SELECT t.id, t.change_request_id, t.dispatch FROM tasks t JOIN change_requests c ON c.id = t.change_request_id
       WHERE t.status = 'DISPATCHED' AND t.deadline_at < now() AND c.phase = 'CODING'`,
    );
    for (const t of overdue.rows) {
      this.deps.log.warn('task deadline exceeded', { changeRequestId: t.change_request_id, taskId: t.id });
      await this.deps.launcher.stopTask?.(t.id);
      await reportForAgent(
        this.deps.bus,
        { id: t.id, changeRequestId: t.change_request_id, dispatch: t.dispatch },
        S.SOFT_FAIL,
        'deadline',
        [`no result within the task deadline of ${Math.round(this.options.taskDeadlineMs / 1000)} s`],
      );
    }
  }

  /** Starts what is ready now, for every request in CODING (start-up and after each change). */
  async dispatchReady(): Promise<void> {
    const after: Unit['after'] = [];
    await this.deps.store.transaction(async (tx) => {
      const coding = await tx.query<{ id: string }>(`SELECT id FROM change_requests WHERE phase = 'CODING'`);
      const unit = Object.assign(Object.create(tx) as SqlExecutor, { after });
      for (const cr of coding.rows) await this.scheduleReady(unit, cr.id);
      // Marked DISPATCHED by a process that died before launching: their deadline will re-dispatch them.
    });
    await this.flushOutbox();
    for (const effect of after) await effect();
  }

  private async scheduleReady(tx: Unit, crId: string): Promise<void> {
    const tasks = await tx.query<TaskRow>('SELECT * FROM tasks WHERE change_request_id = $1 ORDER BY id', [crId]);
    const ready = readyTasks(
      tasks.rows.map((t) => ({ id: t.id, status: t.status, dependsOn: JSON.parse(t.depends_on) as string[] })),
      this.options.parallelism,
    );
    for (const id of ready) {
      const row = tasks.rows.find((t) => t.id === id)!;
      const task = farm.v1.CodingTask.decode(Buffer.from(row.task_b64, 'base64'));
      task.dispatch = row.dispatch + 1;
      // A task that waited for another starts from that one's commit, so serialised edits build on each other.
      const base = [...(JSON.parse(row.depends_on) as string[])]
        .reverse()
        .map((d) => tasks.rows.find((t) => t.id === d))
        .find((t) => t?.commit_sha);
      if (base) task.repo = { ...task.repo, baseRef: base.branch, baseCommit: String(base.commit_sha) };
      // The request's cost cap, and the lessons of earlier tasks on the repository.
      const gate = await beforeDispatch(tx, crId, task, this.options.accounting);
      if (gate.start) task.lessons = (gate.task.lessons ?? []).map((l) => farm.v1.Lesson.fromObject(l));
      // The task as launched (base, lessons) is kept, so a restarted farm launches exactly this one.
      await tx.query(
        `UPDATE tasks SET status = 'DISPATCHED', dispatch = $2, dispatched_at = now(), task_b64 = $4,
         deadline_at = now() + ($3::text || ' milliseconds')::interval WHERE id = $1`,
        [id, task.dispatch, String(this.options.taskDeadlineMs), encodeTask(task)],
      );
      await this.taskEvent(tx, crId, P.CODING, id, 'DISPATCHED', {
        reason: `task ${id}: dispatched (${task.dispatch})`,
      });
      tx.after.push(async () => {
        if (!gate.start) {
          this.deps.log.warn('task not started: cost cap', { changeRequestId: crId, taskId: id, reason: gate.reason });
          await reportForAgent(
            this.deps.bus,
            { id, changeRequestId: crId, dispatch: task.dispatch },
            S.HARD_FAIL,
            'cost-cap',
            [gate.reason],
          );
          return;
        }
        this.deps.log.info('dispatching task', { changeRequestId: crId, taskId: id, dispatch: task.dispatch });
        try {
          await this.deps.launcher.launch(task);
        } catch (err) {
          // The launcher could not start it: report it as the agent would, so the state machine moves on.
          await reportForAgent(
            this.deps.bus,
            { id, changeRequestId: crId, dispatch: task.dispatch },
            S.HARD_FAIL,
            'launch',
            [`launcher failed: ${errorMessage(err)}`],
          );
        }
      });
    }
  }

  /** After a task result: BUILD when all succeeded, FAILED when one failed for good, else start what is ready. */
  private async advanceCoding(tx: Unit, crId: string, failure?: string): Promise<void> {
    const all = await tx.query<TaskRow>('SELECT * FROM tasks WHERE change_request_id = $1 ORDER BY id', [crId]);
    const outcome = codingOutcome(all.rows.map((r) => r.status));
    if (outcome === 'FAILED') {
      await this.finish(tx, crId, P.FAILED, failure ?? 'a task failed');
    } else if (outcome === 'BUILD') {
      await this.move(tx, crId, P.BUILD, 'every task succeeded');
      const cr = await tx.query<{ repo_url: string; base_ref: string; base_commit: string; check_command: string }>(
        'SELECT repo_url, base_ref, base_commit, check_command FROM change_requests WHERE id = $1',
        [crId],
      );
      const row = cr.rows[0];
      await this.enqueue(tx, Topics.buildRequests, crId, {
        changeRequestId: crId,
        repo: { url: row.repo_url, baseRef: row.base_ref, baseCommit: row.base_commit },
        branches: all.rows.map((r) => r.branch),
        checkCommand: row.check_command,
      });
    } else {
      await this.scheduleReady(tx, crId);
    }
  }

  /** Moves to a final phase; stops what still runs and frees the request's leases once committed. */
  private async finish(tx: Unit, crId: string, to: Phase, reason: string): Promise<void> {
    await this.move(tx, crId, to, reason);
    const stopped = await tx.query<{ id: string }>(
      `UPDATE tasks SET status = 'CANCELLED', finished_at = now() WHERE change_request_id = $1 AND status IN ('PENDING', 'DISPATCHED') RETURNING id`,
      [crId],
    );
    for (const t of stopped.rows)
      await this.taskEvent(tx, crId, to, t.id, 'CANCELLED', { reason: `task ${t.id}: cancelled` });
    tx.after.push(async () => {
      if (stopped.rows.length) await this.deps.launcher.cancel(crId);
      const released = (await this.deps.leases?.releaseForChangeRequest(crId)) ?? 0;
      this.deps.log.info('change request ended', { changeRequestId: crId, phase: phaseName(to), released });
    });
  }

  /** Applies one event exactly once: skipped when its id was already recorded by this consumer. */
  private async apply<T>(spec: TopicSpec<T>, message: T, meta: MessageMeta, fn: (tx: Unit) => Promise<void>) {
    const id = createHash('sha256').update(spec.name).update(encodeMessage(spec, message)).digest('hex');
    const after: Unit['after'] = [];
    await this.deps.store.transaction(async (tx) => {
      const fresh = await tx.query(
        'INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
        [this.group, id],
      );
      if (!fresh.rows.length) {
        this.deps.log.info('duplicate event ignored', { topic: meta.topic, position: meta.position });
        return;
      }
      await fn(Object.assign(Object.create(tx) as SqlExecutor, { after }));
    });
    await this.flushOutbox();
    for (const effect of after) await effect(); // only reached when the transaction committed
  }

  private async load(tx: SqlExecutor, id: string): Promise<RequestRow> {
    const r = await tx.query<RequestRow>('SELECT id, phase FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
    if (!r.rows.length) throw new NotReady(`change request ${id} not received yet`);
    return r.rows[0];
  }

  private async move(tx: SqlExecutor, id: string, to: Phase, reason: string): Promise<void> {
    const cur = await tx.query<{ phase: string; secs: string }>(
      'SELECT phase, EXTRACT(EPOCH FROM (now() - updated_at)) AS secs FROM change_requests WHERE id = $1',
      [id],
    );
    const from = parsePhase(cur.rows[0].phase);
    if (from !== P.PHASE_UNSPECIFIED)
      orchestratorMetrics.phaseSeconds.observe({ phase: phaseName(from) }, Number(cur.rows[0].secs));
    if (!canMove(from, to))
      throw new FarmError(`illegal move ${phaseName(from)} -> ${phaseName(to)} for ${id}`, { retryable: false });
    await tx.query('UPDATE change_requests SET phase = $2, reason = $3, updated_at = now() WHERE id = $1', [
      id,
      phaseName(to),
      reason,
    ]);
    orchestratorMetrics.transitions.inc({ to: phaseName(to) });
    await this.emit(tx, id, { fromPhase: from, toPhase: to, reason });
    this.deps.log.info('phase transition', { changeRequestId: id, from: phaseName(from), to: phaseName(to), reason });
  }

  private taskEvent(
    tx: SqlExecutor,
    crId: string,
    phase: Phase,
    taskId: string,
    state: TaskState,
    fields: Partial<farm.v1.IPhaseTransition>,
  ): Promise<void> {
    return this.emit(tx, crId, { fromPhase: phase, toPhase: phase, taskId, taskState: state, ...fields });
  }

  /** Writes a PhaseTransition with the request's next sequence number to the outbox. */
  private async emit(tx: SqlExecutor, id: string, fields: Partial<farm.v1.IPhaseTransition>): Promise<void> {
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

const encodeTask = (task: farm.v1.ICodingTask) =>
  Buffer.from(farm.v1.CodingTask.encode(task).finish()).toString('base64');
const firstLine = (s: string) =>
  s
    .split('\n')
    .find((l) => l.trim())
    ?.slice(0, 300) ?? '';
