import { farm, parseTaskState, phaseName, taskStateName } from '@farm/proto';
import type { LessonCandidates } from '@farm/lessons';
import { FarmError } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';
import type { RequestState, StateUpdate } from './decider';
import { parsePhase } from './phases';
import type { TaskCostHistory } from './approval-policy';

/**
 * The SQL of the orchestrator's own tables (change_requests, tasks, processed_messages): a request's state
 * loaded and locked, a decision's updates written, and the reads of the sweep, the restart and the HTTP API.
 * Every function takes the executor it runs on, so the shell decides what shares a transaction.
 */

type Phase = farm.v1.Phase;
const P = farm.v1.Phase;

/** An event arrived before the one it builds on (topics are ordered only within themselves): retry later. */
export class NotReady extends FarmError {
  constructor(message: string) {
    super(message, { retryable: true });
  }
}

interface RequestRow extends Record<string, unknown> {
  id: string;
  phase: string;
  repo_url: string;
  base_ref: string;
  base_commit: string | null;
  check_command: string | null;
  integration_branch: string | null;
  require_approval: boolean | null;
  parallelism: number | null;
  planning_cost_usd: number | string | null;
}

interface TaskRow extends Record<string, unknown> {
  id: string;
  /** A task state's short name (taskStateName): the table keeps the text it always had. */
  status: string;
  depends_on: string;
  dispatch: number;
  task: Uint8Array;
  branch: string;
  commit_sha: string;
  cost_usd: number | string | null;
  /** jsonb: the Verification as toObject wrote it. */
  verification: object | string | null;
}

/** Records that `consumer` applied `messageId`; false when it had already (the event is then skipped). */
export async function recordProcessed(tx: SqlExecutor, consumer: string, messageId: string): Promise<boolean> {
  const fresh = await tx.query(
    'INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
    [consumer, messageId],
  );
  return fresh.rows.length > 0;
}

/**
 * The request row locked for this transaction, its tasks in id order, and (with `lessons`, while tasks may
 * start) the recent lessons of its repository, which the decider ranks for each task it starts.
 */
export async function loadRequestState(
  tx: SqlExecutor,
  id: string,
  settings: { lessons?: LessonCandidates; mayHoldPlans?: boolean } = {},
): Promise<RequestState> {
  const r = await tx.query<RequestRow>('SELECT * FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
  if (!r.rows.length) return { tasks: [] };
  const row = r.rows[0];
  const tasks = await tx.query<TaskRow>('SELECT * FROM tasks WHERE change_request_id = $1 ORDER BY id', [id]);
  const phase = parsePhase(row.phase);
  const mayStartTasks = phase === P.PLANNING || phase === P.AWAITING_APPROVAL || phase === P.CODING;
  return {
    lessonCandidates: settings.lessons && mayStartTasks ? await settings.lessons.of(tx, row.repo_url) : undefined,
    // The approval estimate's history, read only where a plan may be held (not on every farm's planning events).
    ...(phase === P.PLANNING && (settings.mayHoldPlans || row.require_approval)
      ? { taskCostHistory: await taskCostHistory(tx, row.repo_url) }
      : {}),
    request: {
      id: row.id,
      phase,
      repoUrl: row.repo_url,
      baseRef: row.base_ref,
      baseCommit: row.base_commit ?? '',
      checkCommand: row.check_command ?? '',
      integrationBranch: row.integration_branch ?? '',
      requireApproval: !!row.require_approval,
      parallelism: row.parallelism ?? 0,
      planningCostUsd: Number(row.planning_cost_usd ?? 0),
    },
    tasks: tasks.rows.map((t) => ({
      id: t.id,
      status: parseTaskState(t.status),
      dispatch: t.dispatch,
      dependsOn: JSON.parse(t.depends_on) as string[],
      task: farm.v1.CodingTask.decode(t.task),
      branch: t.branch ?? '',
      commitSha: t.commit_sha ? String(t.commit_sha) : '',
      costUsd: Number(t.cost_usd ?? 0),
      ...(t.verification ? { verification: verificationOf(t.verification) } : {}),
    })),
  };
}

/** How many recent successful tasks the approval estimate averages over. */
const COST_HISTORY_TASKS = 50;

/**
 * What the last successful tasks cost: of the repository when it has any, else of the whole farm; undefined
 * before the farm has finished a task.
 */
async function taskCostHistory(tx: SqlExecutor, repoUrl: string): Promise<TaskCostHistory | undefined> {
  for (const scope of ['repository', 'farm'] as const) {
    const r = await tx.query<{ mean: string | null; n: string }>(
      `SELECT avg(cost_usd) AS mean, count(*) AS n FROM (
         SELECT t.cost_usd FROM tasks t JOIN change_requests c ON c.id = t.change_request_id
         WHERE t.status = 'SUCCESS' AND ($1::text IS NULL OR c.repo_url = $1)
         ORDER BY t.finished_at DESC NULLS LAST LIMIT ${COST_HISTORY_TASKS}) recent`,
      [scope === 'repository' ? repoUrl : null],
    );
    const n = Number(r.rows[0]?.n ?? 0);
    if (n > 0) return { meanUsd: Number(r.rows[0].mean ?? 0), tasks: n, of: scope };
  }
  return undefined;
}

const verificationOf = (v: object | string) =>
  farm.v1.Verification.fromObject(typeof v === 'string' ? (JSON.parse(v) as object) : v);

/** Forgets applied-message ids older than `retentionMs` (past any redelivery); returns how many. */
export async function pruneProcessed(db: SqlExecutor, retentionMs: number): Promise<number> {
  const pruned = await db.query(
    `DELETE FROM processed_messages WHERE processed_at < now() - ($1::text || ' milliseconds')::interval
     RETURNING message_id`,
    [String(retentionMs)],
  );
  return pruned.rows.length;
}

/** A phase change as written: how long the request had been in the phase it left (for the metrics). */
export interface WrittenMove {
  changeRequestId: string;
  from: Phase;
  to: Phase;
  reason: string;
  secondsInPhase: number;
}

export interface WriteSettings {
  /** A dispatched task's deadline, from the store's clock at dispatch. */
  taskDeadlineMs: number;
}

/** Writes a decision's updates in the caller's transaction; returns the phase moves it wrote. */
export async function applyUpdates(
  tx: SqlExecutor,
  crId: string,
  updates: readonly StateUpdate[],
  settings: WriteSettings,
): Promise<WrittenMove[]> {
  const moves: WrittenMove[] = [];
  for (const u of updates) {
    const move = await applyUpdate(tx, crId, u, settings);
    if (move) moves.push(move);
  }
  return moves;
}

async function applyUpdate(
  tx: SqlExecutor,
  crId: string,
  u: StateUpdate,
  settings: WriteSettings,
): Promise<WrittenMove | undefined> {
  switch (u.kind) {
    case 'insert-request': {
      const cr = u.changeRequest;
      const inserted = await tx.query(
        `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, description, check_command, integration_branch,
           require_approval)
         VALUES ($1, 'PHASE_UNSPECIFIED', $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
        // A refused request is kept as sent, cut to sizes a status answer can show.
        [
          crId,
          clip(cr.repo?.url, 2048),
          clip(cr.repo?.baseRef || 'main', 255),
          clip(cr.title, 500),
          clip(cr.description, 100_000),
          clip(cr.checkCommand, 10_000),
          clip(cr.integrationBranch, 255),
          !!cr.requireApproval,
        ],
      );
      // Another transaction inserted it since the state was loaded: retried, it is then a duplicate.
      if (!inserted.rows.length) throw new NotReady(`change request ${crId} inserted concurrently`);
      return;
    }
    case 'move': {
      // One statement: the time in the phase left is read from the row as it was before the update.
      const cur = await tx.query<{ secs: string }>(
        `WITH before AS (SELECT updated_at FROM change_requests WHERE id = $1)
         UPDATE change_requests SET phase = $2, reason = $3, updated_at = now() WHERE id = $1
         RETURNING (SELECT EXTRACT(EPOCH FROM (now() - updated_at)) FROM before) AS secs`,
        [crId, phaseName(u.to), u.reason],
      );
      const secondsInPhase = u.from === P.PHASE_UNSPECIFIED ? 0 : Number(cur.rows[0]?.secs ?? 0);
      return { changeRequestId: crId, from: u.from, to: u.to, reason: u.reason, secondsInPhase };
    }
    case 'set-base-commit':
      await tx.query('UPDATE change_requests SET base_commit = $2 WHERE id = $1', [crId, u.baseCommit]);
      return;
    case 'insert-task':
      await tx.query(
        `INSERT INTO tasks (id, change_request_id, goal, status, task, depends_on)
         VALUES ($1, $2, $3, 'PENDING', $4, $5) ON CONFLICT (id) DO NOTHING`,
        [u.task.id, crId, u.task.goal, taskColumn(u.task), JSON.stringify(u.task.dependsOn ?? [])],
      );
      return;
    case 'add-cost':
      await tx.query('UPDATE tasks SET cost_usd = cost_usd + $2 WHERE id = $1', [u.taskId, u.costUsd]);
      return;
    case 'requeue-task':
      await tx.query(
        `UPDATE tasks SET status = 'PENDING', notes = $2, attempts = attempts + $3, task = $4 WHERE id = $1`,
        [u.taskId, u.notes, u.attempts, taskColumn(u.task)],
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
    case 'set-verification':
      await tx.query('UPDATE tasks SET verification = $2 WHERE id = $1', [u.taskId, JSON.stringify(u.verification)]);
      return;
    case 'dispatch-task':
      await tx.query(
        `UPDATE tasks SET status = 'DISPATCHED', dispatch = $2, dispatched_at = now(), task = $4,
         deadline_at = now() + ($3::text || ' milliseconds')::interval WHERE id = $1`,
        [u.taskId, u.task.dispatch, String(settings.taskDeadlineMs), taskColumn(u.task)],
      );
      return;
    case 'cancel-task':
      await tx.query(`UPDATE tasks SET status = 'CANCELLED', finished_at = now() WHERE id = $1`, [u.taskId]);
      return;
    case 'set-planning-usage':
      await tx.query(
        `UPDATE change_requests SET planning_calls = $2, planning_prompt_tokens = $3, planning_completion_tokens = $4,
         planning_total_tokens = $5, planning_cost_usd = $6, planning_model = $7, planning_priced = $8 WHERE id = $1`,
        [
          crId,
          u.usage.calls ?? 0,
          u.usage.promptTokens ?? 0,
          u.usage.completionTokens ?? 0,
          u.usage.totalTokens ?? 0,
          u.usage.costUsd ?? 0,
          u.usage.model ?? '',
          !!u.usage.priced,
        ],
      );
      return;
    case 'set-integration-branch':
      await tx.query('UPDATE change_requests SET integration_branch = $2 WHERE id = $1', [crId, u.branch]);
      return;
    case 'remove-task':
      await tx.query('DELETE FROM tasks WHERE id = $1 AND change_request_id = $2', [u.taskId, crId]);
      return;
    case 'replan-task':
      await tx.query('UPDATE tasks SET goal = $2, task = $3, depends_on = $4 WHERE id = $1', [
        u.taskId,
        u.task.goal,
        taskColumn(u.task),
        JSON.stringify(u.task.dependsOn ?? []),
      ]);
      return;
    case 'set-parallelism':
      await tx.query('UPDATE change_requests SET parallelism = $2 WHERE id = $1', [crId, u.parallelism]);
      return;
  }
}

/** The request's next PhaseTransition sequence number (1, 2, ...), counted in its row. */
export async function nextTransitionSequence(tx: SqlExecutor, crId: string): Promise<number> {
  const seq = await tx.query<{ seq: string }>('UPDATE change_requests SET seq = seq + 1 WHERE id = $1 RETURNING seq', [
    crId,
  ]);
  return Number(seq.rows[0].seq);
}

/** The ids of a request's tasks as planned (the plan an approver edits). */
export async function requestTaskIds(db: SqlExecutor, crId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM tasks WHERE change_request_id = $1 ORDER BY id', [crId]);
  return rows.rows.map((r) => r.id);
}

/** Requests in CODING (the start-up dispatch). */
export async function requestsInCoding(db: SqlExecutor): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM change_requests WHERE phase = 'CODING'`);
  return rows.rows.map((r) => r.id);
}

/**
 * Requests that have been in `phase` for longer than `limitMs` (the sweep), oldest first, at most 100. One a
 * person decided on within that time is left to the decision, which is on its way (request-decisions.ts): a plan
 * approved in the last second of its wait runs as answered, rather than failing on the timeout.
 */
export async function requestsInPhaseSince(db: SqlExecutor, phase: Phase, limitMs: number): Promise<string[]> {
  const stale = await db.query<{ id: string }>(
    `SELECT id FROM change_requests c WHERE phase = $1
     AND updated_at < now() - ($2::text || ' milliseconds')::interval
     AND NOT EXISTS (SELECT 1 FROM request_decisions d WHERE d.change_request_id = c.id
                     AND d.decided_at > now() - ($2::text || ' milliseconds')::interval)
     ORDER BY updated_at LIMIT 100`,
    [phaseName(phase), String(limitMs)],
  );
  return stale.rows.map((r) => r.id);
}

/**
 * Requests cancelled within the last `withinMs` that named no branch of their own, with how long ago (ms): a
 * `farm/<id>` of theirs that a push under way at the cancel left is the farm's to take back, also after a restart.
 */
export async function recentlyCancelled(
  db: SqlExecutor,
  withinMs: number,
): Promise<{ id: string; repoUrl: string; agoMs: number }[]> {
  const rows = await db.query<{ id: string; repo_url: string; ago_ms: string | number }>(
    `SELECT id, repo_url, (EXTRACT(EPOCH FROM (now() - updated_at)) * 1000)::bigint AS ago_ms FROM change_requests
     WHERE phase = 'CANCELLED' AND integration_branch = ''
     AND updated_at > now() - ($1::text || ' milliseconds')::interval ORDER BY updated_at LIMIT 100`,
    [String(withinMs)],
  );
  return rows.rows.map((r) => ({ id: r.id, repoUrl: r.repo_url, agoMs: Number(r.ago_ms) }));
}

/** A dispatched task of a request in CODING, with its deadline and the store's clock (ms since the epoch). */
export interface RunningTaskRow {
  id: string;
  changeRequestId: string;
  dispatch: number;
  deadlineAtMs: number;
  nowMs: number;
}

export async function runningTasks(db: SqlExecutor): Promise<RunningTaskRow[]> {
  const running = await db.query<{
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
  return running.rows.map((t) => ({
    id: t.id,
    changeRequestId: t.change_request_id,
    dispatch: t.dispatch,
    deadlineAtMs: Number(t.deadline_ms),
    nowMs: Number(t.now_ms),
  }));
}

/** Every task the store has as running, as last launched (the launcher re-attaches to them after a restart). */
/** Whether `dispatch` is still the task's running one (not finished, cancelled or re-dispatched meanwhile). */
export async function isRunningDispatch(db: SqlExecutor, taskId: string, dispatch: number): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM tasks WHERE id = $1 AND status = 'DISPATCHED' AND dispatch = $2`, [
    taskId,
    dispatch,
  ]);
  return rows.length > 0;
}

export async function dispatchedTasks(db: SqlExecutor): Promise<farm.v1.CodingTask[]> {
  const rows = await db.query<{ task: Uint8Array; dispatch: number }>(
    `SELECT task, dispatch FROM tasks WHERE status = 'DISPATCHED' ORDER BY id`,
  );
  return rows.rows.map((r) => {
    const task = farm.v1.CodingTask.decode(r.task);
    task.dispatch = Number(r.dispatch);
    return task;
  });
}

/** Requests by phase and how long the oldest of each has been in it (the state gauges, at scrape time). */
export async function requestsByPhase(db: SqlExecutor): Promise<{ phase: string; n: number; oldest: number }[]> {
  const { rows } = await db.query<{ phase: string; n: string; oldest: string }>(
    `SELECT phase, count(*) AS n, EXTRACT(EPOCH FROM (now() - min(updated_at))) AS oldest
     FROM change_requests GROUP BY phase`,
  );
  return rows.map((r) => ({ phase: r.phase, n: Number(r.n), oldest: Number(r.oldest) }));
}

/** Tasks waiting or running, by state (the partial index tasks_open keeps this cheap). */
/**
 * Open tasks by state: DISPATCHED (an agent runs it), PENDING (waiting for the farm to start it) and
 * AWAITING_APPROVAL (pending, but its request waits for a person's approval: no capacity would start it).
 */
export async function openTasksByState(db: SqlExecutor): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: string }>(
    `SELECT CASE WHEN t.status = 'PENDING' AND c.phase = 'AWAITING_APPROVAL' THEN 'AWAITING_APPROVAL' ELSE t.status END
              AS status, count(*) AS n
       FROM tasks t JOIN change_requests c ON c.id = t.change_request_id
      WHERE t.status IN ('PENDING', 'DISPATCHED') GROUP BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** A task as its column keeps it: its protobuf bytes, encoded once for this hop. */
const taskColumn = (task: farm.v1.ICodingTask) => Buffer.from(farm.v1.CodingTask.encode(task).finish());
const clip = (value: string | null | undefined, max: number) => (value ?? '').slice(0, max);

// The HTTP API's reads and its record of submissions.

/** Tokens the model was paid for, summed over every dispatch (of a task, or of all tasks of a request). */
export interface TokenTotals {
  prompt: number;
  completion: number;
  total: number;
}

export interface RequestSummary {
  id: string;
  /** A farm.v1.Phase name, or SUBMITTED: accepted by the HTTP API, not yet consumed by the orchestrator. */
  phase: string;
  title: string;
  repoUrl: string;
  /** `farm up`: the repository on its machine the request was submitted for (set by the HTTP API). */
  repoPath?: string;
  baseRef: string;
  baseCommit: string;
  reason: string;
  integrationBranch: string;
  tasksDone: number;
  tasksTotal: number;
  /** Agent attempts over all tasks and dispatches. */
  attempts: number;
  /** Its planning's and all its tasks' model tokens. */
  tokens: TokenTotals;
  /** What its planning's and all its tasks' model calls cost, in US dollars (from the price table). */
  costUsd: number;
  /** Of those, what planning took (the planner model's calls, also those whose answers could not be used). */
  planning: { calls: number; totalTokens: number; costUsd: number };
  createdAt: string;
  updatedAt: string;
}

export interface TaskSummary {
  id: string;
  goal: string;
  status: string;
  dispatch: number;
  attempts: number;
  branch: string;
  commitSha: string;
  notes: string;
  dependsOn: string[];
  tokens: TokenTotals;
  costUsd: number;
  /** As planned: the kind of change, its main file and the symbols leased for it (what an approver reads). */
  kind?: string;
  path?: string;
  symbols?: string[];
  /** The planner's estimate of the lines it adds and removes, when a planner model made one. */
  estimatedChangedLines?: number;
  /** What verified the task's change (its last result's CommitResult.verification), when it reported one. */
  verification?: Record<string, unknown>;
}

export const SUBMITTED = 'SUBMITTED';

/** A submission over the API as recorded (the digest tells a repeated submission from a different one). */
export interface ApiSubmission {
  id: string;
  digest: string;
  title: string;
  repoUrl: string;
  baseRef: string;
}

/**
 * Records an API submission inside the caller's transaction: `new` when recorded now; `same` when this id was
 * submitted with the same content; `different` when with other content; `on-bus` when a request of this id came
 * straight over the bus (the API cannot tell whether it is the same request).
 */
export async function recordApiSubmission(
  tx: SqlExecutor,
  s: ApiSubmission,
): Promise<'new' | 'same' | 'different' | 'on-bus'> {
  const inserted = await tx.query(
    `INSERT INTO api_submissions (id, digest, title, repo_url, base_ref) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [s.id, s.digest, s.title, s.repoUrl, s.baseRef],
  );
  if (!inserted.rows.length) {
    const prior = await tx.query<{ digest: string }>('SELECT digest FROM api_submissions WHERE id = $1', [s.id]);
    return prior.rows[0]?.digest === s.digest ? 'same' : 'different';
  }
  const onBus = await tx.query('SELECT 1 FROM change_requests WHERE id = $1', [s.id]);
  return onBus.rows.length ? 'on-bus' : 'new';
}

/** A request's totals: its tasks' sums plus its planning (the planner model's calls). */
export const WITH_PLANNING = (tasks: string, request: string) => `${tasks}.done, ${tasks}.total, ${tasks}.attempts,
  ${tasks}.prompt_tokens + ${request}.planning_prompt_tokens AS prompt_tokens,
  ${tasks}.completion_tokens + ${request}.planning_completion_tokens AS completion_tokens,
  ${tasks}.total_tokens + ${request}.planning_total_tokens AS total_tokens,
  ${tasks}.cost_usd + ${request}.planning_cost_usd AS cost_usd, ${request}.planning_calls,
  ${request}.planning_total_tokens, ${request}.planning_cost_usd`;

const CONSUMED = `SELECT c.id, c.phase, c.title, c.repo_url, c.base_ref, c.base_commit, c.reason, c.integration_branch,
  c.created_at, c.updated_at, ${WITH_PLANNING('s', 'c')}
  FROM change_requests c
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE t.status = 'SUCCESS') AS done, count(*) AS total,
      coalesce(sum(t.attempts), 0) AS attempts, coalesce(sum(t.prompt_tokens), 0) AS prompt_tokens,
      coalesce(sum(t.completion_tokens), 0) AS completion_tokens, coalesce(sum(t.total_tokens), 0) AS total_tokens,
      coalesce(sum(t.cost_usd), 0) AS cost_usd
    FROM tasks t WHERE t.change_request_id = c.id
  ) s ON true`;

// Accepted by the HTTP API but not yet in change_requests: shown as SUBMITTED rather than unknown.
const SUBMITTED_ONLY = `SELECT a.id, '${SUBMITTED}' AS phase, a.title, a.repo_url, a.base_ref, '' AS base_commit, '' AS reason,
  '' AS integration_branch, a.created_at, a.created_at AS updated_at, 0 AS done, 0 AS total, 0 AS attempts,
  0 AS prompt_tokens, 0 AS completion_tokens, 0 AS total_tokens, 0 AS cost_usd, 0 AS planning_calls,
  0 AS planning_total_tokens, 0 AS planning_cost_usd
  FROM api_submissions a WHERE NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = a.id)`;

const tokens = (r: Record<string, unknown>): TokenTotals => ({
  prompt: Number(r.prompt_tokens ?? 0),
  completion: Number(r.completion_tokens ?? 0),
  total: Number(r.total_tokens ?? 0),
});

/** A request as the API shows it, from a row of the list query (request-store, request-list). */
export function toSummary(r: Record<string, unknown>): RequestSummary {
  return {
    id: String(r.id),
    phase: String(r.phase),
    title: String(r.title),
    repoUrl: String(r.repo_url),
    baseRef: String(r.base_ref),
    baseCommit: String(r.base_commit),
    reason: String(r.reason),
    integrationBranch: String(r.integration_branch),
    tasksDone: Number(r.done ?? 0),
    tasksTotal: Number(r.total ?? 0),
    attempts: Number(r.attempts ?? 0),
    tokens: tokens(r),
    costUsd: Number(r.cost_usd ?? 0),
    planning: {
      calls: Number(r.planning_calls ?? 0),
      totalTokens: Number(r.planning_total_tokens ?? 0),
      costUsd: Number(r.planning_cost_usd ?? 0),
    },
    createdAt: new Date(r.created_at as string).toISOString(),
    updatedAt: new Date(r.updated_at as string).toISOString(),
  };
}

/** The most recent requests, newest first, including those accepted but not yet consumed. */
export async function listRequests(db: SqlExecutor, limit = 50): Promise<RequestSummary[]> {
  const rows = await db.query(
    `SELECT * FROM (${CONSUMED} UNION ALL ${SUBMITTED_ONLY}) r ORDER BY r.created_at DESC, r.id LIMIT $1`,
    [limit],
  );
  return rows.rows.map(toSummary);
}

export async function getRequest(
  db: SqlExecutor,
  id: string,
): Promise<{ request: RequestSummary; tasks: TaskSummary[] } | undefined> {
  // One statement, one snapshot: a request consumed between two queries would be in neither.
  const rows = await db.query(`SELECT * FROM (${CONSUMED} UNION ALL ${SUBMITTED_ONLY}) r WHERE r.id = $1`, [id]);
  if (!rows.rows.length) return undefined;
  const tasks = await db.query('SELECT * FROM tasks WHERE change_request_id = $1 ORDER BY id', [id]);
  return {
    request: toSummary(rows.rows[0]),
    tasks: tasks.rows.map((t) => ({
      ...plannedFields(t.task),
      id: String(t.id),
      goal: String(t.goal),
      status: String(t.status),
      dispatch: Number(t.dispatch),
      attempts: Number(t.attempts),
      branch: String(t.branch),
      commitSha: String(t.commit_sha),
      notes: String(t.notes),
      dependsOn: JSON.parse(String(t.depends_on)) as string[],
      tokens: tokens(t),
      costUsd: Number(t.cost_usd ?? 0),
      ...(t.verification ? { verification: t.verification as Record<string, unknown> } : {}),
    })),
  };
}

/** A task's kind, main file, symbols and size as planned, from its stored CodingTask (what is set of them). */
function plannedFields(stored: unknown): Pick<TaskSummary, 'kind' | 'path' | 'symbols' | 'estimatedChangedLines'> {
  if (!(stored instanceof Uint8Array)) return {};
  const task = farm.v1.CodingTask.decode(stored);
  return {
    ...(task.kind ? { kind: farm.v1.TaskKind[task.kind] } : {}),
    ...(task.path ? { path: task.path } : {}),
    ...(task.symbols.length ? { symbols: [...task.symbols] } : {}),
    ...(task.estimatedChangedLines ? { estimatedChangedLines: task.estimatedChangedLines } : {}),
  };
}

/** The phase a request is in (SUBMITTED when only accepted), or undefined when it is unknown. */
export async function requestPhase(db: SqlExecutor, id: string): Promise<string | undefined> {
  const rows = await db.query<{ phase: string }>(
    `SELECT phase FROM (SELECT phase, 0 AS rank FROM change_requests WHERE id = $1
     UNION ALL SELECT '${SUBMITTED}', 1 FROM api_submissions WHERE id = $1) p ORDER BY rank LIMIT 1`,
    [id],
  );
  return rows.rows[0]?.phase;
}

/** What the forge bridge takes from a recorded request: its repository, checks, texts and its tasks' notes. */
export interface RequestContext {
  repoUrl: string;
  checkCommand: string;
  title: string;
  description: string;
  /** The first line of each task's notes, in task order. */
  notes: string[];
}

export async function requestContext(db: SqlExecutor, id: string): Promise<RequestContext | undefined> {
  const rows = await db.query<{ repo_url: string; check_command: string; title: string; description: string }>(
    'SELECT repo_url, check_command, title, description FROM change_requests WHERE id = $1',
    [id],
  );
  const r = rows.rows[0];
  if (!r) return undefined;
  const notes = await db.query<{ notes: string }>(
    `SELECT notes FROM tasks WHERE change_request_id = $1 AND notes <> '' ORDER BY id`,
    [id],
  );
  return {
    repoUrl: r.repo_url,
    checkCommand: r.check_command,
    title: r.title,
    description: r.description,
    notes: notes.rows.map((n) => n.notes.split('\n')[0]!.slice(0, 300)),
  };
}
