import { farm, failedStepName } from '@farm/proto';
import { environmentRedactor, redactStrings, type Redactor } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';

/**
 * What the agents reported of each dispatch of a task (farm.v1.TaskReport on its CommitResult: the bounded,
 * redacted trajectory and the committed diff), kept for the API and the console: a Job's files are gone when
 * it ends, so the farm keeps what the result carried. One row per task and dispatch; rows go with the
 * orchestrator's database like its tasks.
 */
export const taskReportMigrations = [
  {
    name: 'orchestrator-006-task-reports',
    sql: `
CREATE TABLE task_reports (
  task_id text NOT NULL,
  dispatch int NOT NULL,
  change_request_id text NOT NULL,
  -- The CommitResult as the agent (or the launcher, on its behalf) published it, report included.
  result bytea NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, dispatch)
);
CREATE INDEX task_reports_by_request ON task_reports (change_request_id);
-- The open-tasks gauge (running agents, for the console's health page) reads only these.
CREATE INDEX tasks_open ON tasks (status) WHERE status IN ('PENDING', 'DISPATCHED');
`,
  },
];

/** Keeps a result of a task's dispatch; the first one of a dispatch wins (a redelivery changes nothing). */
export async function recordTaskReport(db: SqlExecutor, result: farm.v1.ICommitResult): Promise<void> {
  if (!result.taskId) return;
  await db.query(
    `INSERT INTO task_reports (task_id, dispatch, change_request_id, result) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [result.taskId, result.dispatch ?? 0, result.changeRequestId ?? '', farm.v1.CommitResult.encode(result).finish()],
  );
}

/** One dispatch's account as the API gives it. */
export interface DispatchReport {
  dispatch: number;
  status: string;
  failedStep: string;
  receivedAt: string;
  attempts: number;
  steps: number;
  model: string;
  tokens: { prompt: number; completion: number; total: number };
  costUsd: number;
  reviews: { round: number; approved: boolean; objections: string[] }[];
  notes: string[];
  /** The trajectory's lines (JSON objects), in order. */
  events: Record<string, unknown>[];
  eventsOmitted: number;
  diff: string;
  diffTruncated: boolean;
}

/**
 * The reports of a task of request `changeRequestId`, by dispatch, redacted as they are served (the API, the
 * console, `farm eval`, every export): a report kept before the farm held a secret it holds now is clean too.
 */
export async function taskReports(
  db: SqlExecutor,
  changeRequestId: string,
  taskId: string,
  redact: Redactor = environmentRedactor(),
): Promise<DispatchReport[]> {
  const rows = await db.query<{ dispatch: number; result: Uint8Array; received_at: Date | string }>(
    `SELECT dispatch, result, received_at FROM task_reports WHERE change_request_id = $1 AND task_id = $2
     ORDER BY dispatch`,
    [changeRequestId, taskId],
  );
  return rows.rows.map((row) =>
    redactStrings(dispatchReport(row.dispatch, farm.v1.CommitResult.decode(row.result), row.received_at), redact),
  );
}

/** Pure: a stored result as the API shows it. A line that is not a JSON object (never written so) is skipped. */
export function dispatchReport(
  dispatch: number,
  result: farm.v1.CommitResult,
  receivedAt: Date | string,
): DispatchReport {
  const report = farm.v1.TaskReport.create(result.report ?? {});
  const events = (report.trajectory ?? []).flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return value && typeof value === 'object' && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
  const usage = result.tokenUsage;
  return {
    dispatch,
    status: farm.v1.CommitStatus[result.status] ?? 'COMMIT_STATUS_UNSPECIFIED',
    failedStep: failedStepName(result.failedStep),
    receivedAt: new Date(receivedAt).toISOString(),
    attempts: result.attempts,
    steps: result.steps,
    model: result.model,
    tokens: {
      prompt: Number(usage?.promptTokens ?? 0),
      completion: Number(usage?.completionTokens ?? 0),
      total: Number(usage?.totalTokens ?? 0),
    },
    costUsd: result.costUsd,
    reviews: result.reviews.map((r) => ({
      round: r.round ?? 0,
      approved: r.approved ?? false,
      objections: [...(r.objections ?? [])],
    })),
    notes: [...result.notes],
    events,
    eventsOmitted: report.trajectoryOmitted ?? 0,
    diff: report.diff ?? '',
    diffTruncated: report.diffTruncated ?? false,
  };
}

/** One run of the repository's checks, from a trajectory's `check` line. */
export interface CheckRun {
  dispatch: number;
  attempt: number;
  ok: boolean;
  steps: {
    name: string;
    run: string;
    ok: boolean;
    exitCode: number | null;
    timedOut: boolean;
    durationMs: number;
    output: string;
  }[];
}

/** Pure: the check runs of a task's dispatches, in order. */
export function checkRuns(reports: DispatchReport[]): CheckRun[] {
  return reports.flatMap((r) =>
    r.events
      .filter((e) => e.event === 'check')
      .map((e) => ({
        dispatch: r.dispatch,
        attempt: Number(e.attempt ?? 0),
        ok: e.ok === true,
        steps: (Array.isArray(e.steps) ? (e.steps as Record<string, unknown>[]) : []).map((s) => ({
          name: String(s.name ?? ''),
          run: String(s.run ?? ''),
          ok: s.ok === true,
          exitCode: typeof s.exitCode === 'number' ? s.exitCode : null,
          timedOut: s.timedOut === true,
          durationMs: Number(s.durationMs ?? 0),
          output: String(s.output ?? ''),
        })),
      })),
  );
}

/**
 * Deletes the reports of ended requests received longer ago than the retention (a request's history, like its
 * sent events: the outbox's retention); a running request keeps all of its reports.
 */
export async function pruneTaskReports(db: SqlExecutor, retentionMs: number): Promise<number> {
  const pruned = await db.query(
    `DELETE FROM task_reports r WHERE r.received_at < now() - ($1::text || ' milliseconds')::interval
     AND NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = r.change_request_id
       AND c.phase NOT IN ('DONE', 'FAILED', 'CANCELLED')) RETURNING r.task_id`,
    [String(retentionMs)],
  );
  return pruned.rows.length;
}
