import { createHash } from 'node:crypto';
import { farm, phaseName } from '@farm/proto';
import { Topics, encodeMessage, type EventBus, type MessageMeta, type Subscription, type TopicSpec } from '@farm/bus';
import { FarmError, type Logger } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import type { TaskLauncher } from './launcher';
import { canMove, codingOutcome, parsePhase, type TaskState } from './phases';
import { orchestratorMigrations } from './schema';
import { orchestratorMetrics } from './metrics';

const P = farm.v1.Phase;
type Phase = farm.v1.Phase;

/** An event arrived before the one it builds on (topics are ordered only within themselves): retry later. */
export class NotReady extends FarmError {
  constructor(message: string) {
    super(message, { retryable: true });
  }
}

export interface OrchestratorDeps {
  bus: EventBus;
  store: SqlStore;
  launcher: TaskLauncher;
  log: Logger;
  /** Consumer group name; one per orchestrator deployment. */
  group?: string;
}

interface RequestRow extends Record<string, unknown> {
  id: string;
  phase: string;
  seq: string | number;
}

/**
 * Follows every change request through its phases. State lives in the store; each event is applied in one
 * transaction together with its processed-message record and the events it causes (outbox), which are
 * published after commit. Tasks are launched only after the transaction that marked them dispatched.
 */
export class Orchestrator {
  private readonly subs: Subscription[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly group: string;

  constructor(private readonly deps: OrchestratorDeps) {
    this.group = deps.group ?? 'orchestrator';
  }

  async start(): Promise<void> {
    await migrate(this.deps.store, orchestratorMigrations);
    await this.flushOutbox(); // events a previous process committed but did not publish
    await this.dispatchPending(); // tasks a previous process marked but did not launch
    const opts = { maxAttempts: 10, retryBackoffMs: 200 };
    this.subs.push(
      await this.deps.bus.subscribe(
        Topics.changeRequests,
        this.group,
        (m, meta) => this.onChangeRequest(m, meta),
        opts,
      ),
      await this.deps.bus.subscribe(Topics.taskBundles, this.group, (m, meta) => this.onTaskBundle(m, meta), opts),
      await this.deps.bus.subscribe(Topics.commitResults, this.group, (m, meta) => this.onCommitResult(m, meta), opts),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.subs.map((s) => s.stop()));
    await this.flushing;
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
      if (parsePhase(cr.phase) !== P.PLANNING) return; // stale or duplicate bundle
      if (bundle.planningError || bundle.tasks.length === 0) {
        await this.move(tx, cr.id, P.FAILED, `planning failed: ${bundle.planningError || 'no tasks'}`);
        return;
      }
      await tx.query('UPDATE change_requests SET base_commit = $2 WHERE id = $1', [
        cr.id,
        bundle.repo?.baseCommit ?? '',
      ]);
      for (const task of bundle.tasks) {
        const b64 = Buffer.from(farm.v1.CodingTask.encode(task).finish()).toString('base64');
        await tx.query(
          `INSERT INTO tasks (id, change_request_id, goal, status, task_b64) VALUES ($1, $2, $3, 'PENDING', $4)
           ON CONFLICT (id) DO NOTHING`,
          [task.id, cr.id, task.goal, b64],
        );
      }
      await this.move(
        tx,
        cr.id,
        P.CODING,
        `${bundle.tasks.length} task(s) at ${bundle.repo?.baseCommit?.slice(0, 12)}`,
      );
    });
    await this.dispatchPending();
  }

  async onCommitResult(result: farm.v1.CommitResult, meta: MessageMeta): Promise<void> {
    await this.apply(Topics.commitResults, result, meta, async (tx) => {
      const cr = await this.load(tx, result.changeRequestId);
      const task = await tx.query<{ status: string }>(
        'SELECT status FROM tasks WHERE id = $1 AND change_request_id = $2',
        [result.taskId, cr.id],
      );
      if (!task.rows.length) throw new FarmError(`unknown task ${result.taskId} of ${cr.id}`, { retryable: false });
      const status = farm.v1.CommitStatus[result.status] as TaskState;
      if (!['SUCCESS', 'SOFT_FAIL', 'HARD_FAIL'].includes(status)) {
        throw new FarmError(`commit result of ${result.taskId} has no status`, { retryable: false });
      }
      if (['SUCCESS', 'SOFT_FAIL', 'HARD_FAIL'].includes(task.rows[0].status)) return; // already have a result
      await tx.query(
        `UPDATE tasks SET status = $2, branch = $3, commit_sha = $4, notes = $5, attempts = $6, finished_at = now() WHERE id = $1`,
        [result.taskId, status, result.branchName, result.commitSha, result.notes.join('\n'), result.attempts],
      );
      orchestratorMetrics.taskResults.inc({ status });
      const phase = parsePhase(cr.phase);
      await this.emit(tx, cr.id, phase, phase, `task ${result.taskId}: ${status}`, {
        taskId: result.taskId,
        taskStatus: result.status,
        branchName: result.branchName,
      });
      if (phase !== P.CODING) return;
      const all = await tx.query<{ status: TaskState; branch: string }>(
        'SELECT status, branch FROM tasks WHERE change_request_id = $1 ORDER BY id',
        [cr.id],
      );
      const outcome = codingOutcome(all.rows.map((r) => r.status));
      if (outcome === 'FAILED') {
        const why = result.notes.length ? `: ${result.notes.join('; ').slice(0, 500)}` : '';
        await this.move(tx, cr.id, P.FAILED, `task ${result.taskId} ${status}${why}`);
      } else if (outcome === 'BUILD') {
        await this.move(tx, cr.id, P.BUILD, 'every task succeeded');
        const full = await tx.query<{ repo_url: string; base_ref: string; base_commit: string; check_command: string }>(
          'SELECT repo_url, base_ref, base_commit, check_command FROM change_requests WHERE id = $1',
          [cr.id],
        );
        const row = full.rows[0];
        await this.enqueue(tx, Topics.buildRequests, cr.id, {
          changeRequestId: cr.id,
          repo: { url: row.repo_url, baseRef: row.base_ref, baseCommit: row.base_commit },
          branches: all.rows.map((r) => r.branch),
          checkCommand: row.check_command,
        });
      }
    });
  }

  /** Launches tasks marked PENDING in a CODING request; marking them first means no task starts twice. */
  async dispatchPending(): Promise<void> {
    const claimed = await this.deps.store.transaction(async (tx) => {
      const rows = await tx.query<{ id: string; task_b64: string }>(
        `UPDATE tasks SET status = 'DISPATCHED', dispatched_at = now()
         WHERE status = 'PENDING' AND change_request_id IN (SELECT id FROM change_requests WHERE phase = 'CODING')
         RETURNING id, task_b64`,
      );
      return rows.rows;
    });
    for (const row of claimed) {
      const task = farm.v1.CodingTask.decode(Buffer.from(row.task_b64, 'base64'));
      this.deps.log.info('dispatching task', { changeRequestId: task.changeRequestId, taskId: task.id });
      await this.deps.launcher.launch(task);
    }
  }

  /** Applies one event exactly once: skipped when its id was already recorded by this consumer. */
  private async apply<T>(spec: TopicSpec<T>, message: T, meta: MessageMeta, fn: (tx: SqlExecutor) => Promise<void>) {
    const id = createHash('sha256').update(spec.name).update(encodeMessage(spec, message)).digest('hex');
    await this.deps.store.transaction(async (tx) => {
      const fresh = await tx.query(
        'INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
        [this.group, id],
      );
      if (!fresh.rows.length) {
        this.deps.log.info('duplicate event ignored', { topic: meta.topic, position: meta.position });
        return;
      }
      await fn(tx);
    });
    await this.flushOutbox();
  }

  private async load(tx: SqlExecutor, id: string): Promise<RequestRow> {
    const r = await tx.query<RequestRow>('SELECT id, phase, seq FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
    if (!r.rows.length) throw new NotReady(`change request ${id} not received yet`);
    return r.rows[0];
  }

  private async move(tx: SqlExecutor, id: string, to: Phase, reason: string): Promise<void> {
    const cur = await tx.query<{ phase: string }>('SELECT phase FROM change_requests WHERE id = $1', [id]);
    const from = parsePhase(cur.rows[0].phase);
    if (!canMove(from, to)) throw new FarmError(`illegal move ${phaseName(from)} -> ${phaseName(to)} for ${id}`);
    await tx.query('UPDATE change_requests SET phase = $2, reason = $3, updated_at = now() WHERE id = $1', [
      id,
      phaseName(to),
      reason,
    ]);
    orchestratorMetrics.transitions.inc({ to: phaseName(to) });
    await this.emit(tx, id, from, to, reason);
    this.deps.log.info('phase transition', { changeRequestId: id, from: phaseName(from), to: phaseName(to), reason });
  }

  /** Writes a PhaseTransition with the request's next sequence number to the outbox. */
  private async emit(
    tx: SqlExecutor,
    id: string,
    from: Phase,
    to: Phase,
    reason: string,
    task: Partial<farm.v1.IPhaseTransition> = {},
  ): Promise<void> {
    const seq = await tx.query<{ seq: string }>(
      'UPDATE change_requests SET seq = seq + 1 WHERE id = $1 RETURNING seq',
      [id],
    );
    await this.enqueue(tx, Topics.phaseTransitions, id, {
      changeRequestId: id,
      fromPhase: from,
      toPhase: to,
      sequence: Number(seq.rows[0].seq),
      reason,
      atMs: Date.now(),
      ...task,
    });
  }

  private async enqueue<T>(tx: SqlExecutor, spec: TopicSpec<T>, key: string, message: Record<string, unknown>) {
    const payload = encodeMessage(spec, message).toString('base64');
    await tx.query('INSERT INTO outbox (topic, msg_key, payload_b64) VALUES ($1, $2, $3)', [spec.name, key, payload]);
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
