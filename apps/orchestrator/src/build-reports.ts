import { farm } from '@farm/proto';
import { environmentRedactor, type Redactor } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';

/**
 * What the builds of a request reported (farm.v1.BuildResult: status, branch, commit and the diff of the
 * integration branch against where the build started), kept for the API and the console: the request's change
 * for review, as task_reports keeps each task's. The latest build of a request is the one shown.
 */
export const buildReportMigrations = [
  {
    name: 'orchestrator-012-build-reports',
    sql: `
CREATE TABLE build_reports (
  id bigserial PRIMARY KEY,
  change_request_id text NOT NULL,
  -- The BuildResult as the build (or the builder, for one that ended without reporting) published it.
  result bytea NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX build_reports_by_request ON build_reports (change_request_id, id);
`,
  },
];

/** Keeps a build's result; a redelivered one (the same bytes for the request) is kept once. */
export async function recordBuildReport(db: SqlExecutor, build: farm.v1.IBuildResult): Promise<void> {
  if (!build.changeRequestId) return;
  const bytes = farm.v1.BuildResult.encode(build).finish();
  await db.query(
    `INSERT INTO build_reports (change_request_id, result)
     SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM build_reports WHERE change_request_id = $1 AND result = $2)`,
    [build.changeRequestId, bytes],
  );
}

/** The request's change as its latest build merged it, as GET /v1/change-requests/{id}/diff answers. */
export interface RequestDiff {
  changeRequestId: string;
  branch: string;
  baseCommit: string;
  commitSha: string;
  buildStatus: string;
  diff: string;
  truncated: boolean;
}

export async function requestDiff(
  db: SqlExecutor,
  changeRequestId: string,
  request: { integrationBranch: string; baseCommit: string },
  redact: Redactor = environmentRedactor(),
): Promise<RequestDiff> {
  const rows = await db.query<{ result: Uint8Array }>(
    'SELECT result FROM build_reports WHERE change_request_id = $1 ORDER BY id DESC LIMIT 1',
    [changeRequestId],
  );
  const build = rows.rows[0] ? farm.v1.BuildResult.decode(rows.rows[0].result) : undefined;
  return {
    changeRequestId,
    branch: build?.integrationBranch || request.integrationBranch,
    baseCommit: request.baseCommit,
    commitSha: build?.commitSha ?? '',
    buildStatus: build ? (farm.v1.BuildStatus[build.status] ?? String(build.status)) : '',
    diff: redact(build?.diff ?? ''), // as served: redacted again, like the task reports
    truncated: build?.diffTruncated ?? false,
  };
}

/** Deletes the build reports of ended requests received before the retention; returns how many. */
export async function pruneBuildReports(db: SqlExecutor, retentionMs: number): Promise<number> {
  const pruned = await db.query(
    `DELETE FROM build_reports b WHERE b.received_at < now() - ($1::text || ' milliseconds')::interval
     AND NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = b.change_request_id
       AND c.phase NOT IN ('DONE', 'FAILED', 'CANCELLED')) RETURNING b.id`,
    [String(retentionMs)],
  );
  return pruned.rows.length;
}
