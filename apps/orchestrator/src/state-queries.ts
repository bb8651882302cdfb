import type { SqlExecutor } from '@farm/store';

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
  baseRef: string;
  baseCommit: string;
  reason: string;
  integrationBranch: string;
  tasksDone: number;
  tasksTotal: number;
  /** Agent attempts over all tasks and dispatches. */
  attempts: number;
  tokens: TokenTotals;
  /** What the model calls of all its tasks cost, in US dollars (from the agents' price table). */
  costUsd: number;
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
}

export const SUBMITTED = 'SUBMITTED';

const CONSUMED = `SELECT c.id, c.phase, c.title, c.repo_url, c.base_ref, c.base_commit, c.reason, c.integration_branch,
  c.created_at, c.updated_at, s.done, s.total, s.attempts, s.prompt_tokens, s.completion_tokens, s.total_tokens,
  s.cost_usd
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
  0 AS prompt_tokens, 0 AS completion_tokens, 0 AS total_tokens, 0 AS cost_usd
  FROM api_submissions a WHERE NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = a.id)`;

const tokens = (r: Record<string, unknown>): TokenTotals => ({
  prompt: Number(r.prompt_tokens ?? 0),
  completion: Number(r.completion_tokens ?? 0),
  total: Number(r.total_tokens ?? 0),
});

function toSummary(r: Record<string, unknown>): RequestSummary {
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
    })),
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
