import type { IncomingMessage, ServerResponse } from 'node:http';
import { listLessons } from '@farm/lessons';
import type { SqlExecutor } from '@farm/store';

/**
 * GET /v1/lessons?repo=<url>&limit=<n>: the lessons the farm keeps, newest first (all repositories without
 * `repo`), for `farm lessons`. Served beside the other /v1 routes of the orchestrator's HTTP API.
 */
export function lessonsRoutes(db: SqlExecutor) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.replace(/\/+$/, '') !== '/v1/lessons' || req.method !== 'GET') return false;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const limitParam = url.searchParams.get('limit');
    const limit = limitParam === null ? 50 : Number(limitParam);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      send(400, { error: { message: 'limit must be a whole number from 1 to 500', field: 'limit' } });
      return true;
    }
    const repoUrl = url.searchParams.get('repo') || undefined;
    send(200, { lessons: await listLessons(db, { repoUrl, limit }) });
    return true;
  };
}
