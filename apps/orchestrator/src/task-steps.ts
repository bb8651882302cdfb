import type { farm } from '@farm/proto';
import { environmentRedactor, redactStrings, type Logger, type Redactor } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';
import { orchestratorMetrics } from './metrics';

/**
 * The steps of running tasks as their agents publish them (farm.task-steps.v1: TaskStep), kept in PostgreSQL for
 * following a task live (GET .../tasks/{taskId}/events, the console). Bounded: a line is at most `lineChars`
 * (the agent's LiveSteps cut it already), a dispatch keeps its latest `perDispatch` steps, and the steps go with
 * the request's history (pruned like the task reports). The result's report stays the record of what the agent
 * did; these rows are for watching it happen.
 */
export const TASK_STEP_LIMITS = {
  lineChars: 16_000,
  perDispatch: 1_000,
  /** Rows of a dispatch past perDispatch are trimmed once every this many steps. */
  trimEvery: 50,
};

export const taskStepMigrations = [
  {
    name: 'orchestrator-011-task-steps',
    sql: `
CREATE TABLE task_steps (
  -- The stream's cursor (its event ids): increasing in the order the steps were received.
  id bigserial PRIMARY KEY,
  change_request_id text NOT NULL,
  task_id text NOT NULL,
  dispatch int NOT NULL,
  -- One run of an agent on the dispatch (a restarted agent is another run); with seq the step's identity.
  run_id text NOT NULL,
  seq int NOT NULL,
  -- The trajectory line, a JSON object, redacted by the agent and again by the orchestrator.
  line text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (task_id, dispatch, run_id, seq)
);
CREATE INDEX task_steps_by_task ON task_steps (task_id, id);
`,
  },
];

/** Why a step is not kept (it is logged and skipped: a bad step must not hold up the topic). */
export function invalidStep(step: farm.v1.ITaskStep, limits = TASK_STEP_LIMITS): string | undefined {
  if (!step.changeRequestId || !step.taskId) return 'no change request or task id';
  if (!step.runId || !step.seq) return 'no run id or sequence number';
  const line = step.line ?? '';
  if (line.length > limits.lineChars) return `a line of ${line.length} characters, more than ${limits.lineChars}`;
  try {
    const value: unknown = JSON.parse(line);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return 'the line is not a JSON object';
  } catch {
    return 'the line is not JSON';
  }
  return undefined;
}

/**
 * A step's line redacted of the secrets this process holds (the agent redacted those it held; the forge's token,
 * say, it never had), its strings one by one so that the line stays a JSON object. A line that is not JSON is
 * left to invalidStep to refuse.
 */
export function redactStepLine(line: string, redact: Redactor): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  return JSON.stringify(redactStrings(value, redact));
}

/**
 * Keeps a step of a task the farm has (a redelivered one changes nothing), redacted; every `trimEvery` steps the
 * dispatch's oldest rows beyond `perDispatch` are deleted. Returns whether it was kept.
 */
export async function recordTaskStep(
  db: SqlExecutor,
  given: farm.v1.ITaskStep,
  log: Logger,
  limits = TASK_STEP_LIMITS,
  redact: Redactor = environmentRedactor(),
): Promise<boolean> {
  const step = { ...given, line: redactStepLine(given.line ?? '', redact) };
  const invalid = invalidStep(step, limits);
  if (invalid) {
    log.warn('task step skipped', { changeRequestId: step.changeRequestId, taskId: step.taskId, reason: invalid });
    orchestratorMetrics.taskSteps.inc({ outcome: 'skipped' });
    return false;
  }
  const dispatch = step.dispatch ?? 0;
  const kept = await db.query(
    `INSERT INTO task_steps (change_request_id, task_id, dispatch, run_id, seq, line)
     SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM tasks WHERE id = $2 AND change_request_id = $1)
     ON CONFLICT DO NOTHING RETURNING id`,
    [step.changeRequestId, step.taskId, dispatch, step.runId, step.seq, step.line],
  );
  orchestratorMetrics.taskSteps.inc({ outcome: kept.rows.length ? 'kept' : 'skipped' });
  if (kept.rows.length && step.seq! % limits.trimEvery === 0) {
    await db.query(
      `DELETE FROM task_steps WHERE task_id = $1 AND dispatch = $2 AND id <= (
         SELECT id FROM task_steps WHERE task_id = $1 AND dispatch = $2 ORDER BY id DESC OFFSET $3 LIMIT 1)`,
      [step.taskId, dispatch, limits.perDispatch],
    );
  }
  return kept.rows.length > 0;
}

/** One stored step as the API gives it. */
export interface StoredStep {
  /** The cursor: the event id of the stream. */
  id: number;
  dispatch: number;
  runId: string;
  seq: number;
  /** The trajectory line, as the console's trajectory view reads it. */
  step: Record<string, unknown>;
}

/**
 * The task's steps after cursor `afterId`, oldest first, at most `limit`; redacted again as they are served
 * (rows kept before the farm held a secret it holds now).
 */
export async function readTaskSteps(
  db: SqlExecutor,
  changeRequestId: string,
  taskId: string,
  afterId: number,
  limit = 200,
  redact: Redactor = environmentRedactor(),
): Promise<StoredStep[]> {
  const rows = await db.query<{ id: string | number; dispatch: number; run_id: string; seq: number; line: string }>(
    `SELECT id, dispatch, run_id, seq, line FROM task_steps WHERE task_id = $1 AND change_request_id = $2 AND id > $3
     ORDER BY id LIMIT $4`,
    [taskId, changeRequestId, afterId, limit],
  );
  return rows.rows.map((r) => ({
    id: Number(r.id),
    dispatch: r.dispatch,
    runId: r.run_id,
    seq: r.seq,
    step: redactStrings(JSON.parse(r.line) as Record<string, unknown>, redact),
  }));
}

/** Deletes the steps of ended requests received before the retention (as pruneTaskReports); returns how many. */
export async function pruneTaskSteps(db: SqlExecutor, retentionMs: number): Promise<number> {
  const pruned = await db.query(
    `DELETE FROM task_steps s WHERE s.received_at < now() - ($1::text || ' milliseconds')::interval
     AND NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = s.change_request_id
       AND c.phase NOT IN ('DONE', 'FAILED', 'CANCELLED')) RETURNING s.id`,
    [String(retentionMs)],
  );
  return pruned.rows.length;
}
