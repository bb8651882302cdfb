import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SqlExecutor } from '@farm/store';

export interface RequestSummary {
  id: string;
  phase: string;
  title: string;
  repoUrl: string;
  baseRef: string;
  baseCommit: string;
  reason: string;
  integrationBranch: string;
  tasksDone: number;
  tasksTotal: number;
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
}

const SUMMARY = `SELECT c.id, c.phase, c.title, c.repo_url, c.base_ref, c.base_commit, c.reason, c.integration_branch,
  c.created_at, c.updated_at,
  (SELECT count(*) FROM tasks t WHERE t.change_request_id = c.id AND t.status = 'SUCCESS') AS done,
  (SELECT count(*) FROM tasks t WHERE t.change_request_id = c.id) AS total
  FROM change_requests c`;

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
    tasksDone: Number(r.done),
    tasksTotal: Number(r.total),
    createdAt: new Date(r.created_at as string).toISOString(),
    updatedAt: new Date(r.updated_at as string).toISOString(),
  };
}

export async function listRequests(db: SqlExecutor, limit = 50): Promise<RequestSummary[]> {
  const rows = await db.query(`${SUMMARY} ORDER BY c.created_at DESC LIMIT $1`, [limit]);
  return rows.rows.map(toSummary);
}

export async function getRequest(
  db: SqlExecutor,
  id: string,
): Promise<{ request: RequestSummary; tasks: TaskSummary[] } | undefined> {
  const rows = await db.query(`${SUMMARY} WHERE c.id = $1`, [id]);
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
    })),
  };
}

/** GET /v1/change-requests and /v1/change-requests/<id>, served beside /metrics for `farm status` and `farm list`. */
export function stateRoutes(db: SqlExecutor) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const match = /^\/v1\/change-requests(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match || req.method !== 'GET') return false;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!match[1]) {
      send(200, { changeRequests: await listRequests(db, Number(url.searchParams.get('limit') ?? 50)) });
    } else {
      const found = await getRequest(db, decodeURIComponent(match[1]));
      if (found) send(200, found);
      else send(404, { error: `no change request ${match[1]}` });
    }
    return true;
  };
}
