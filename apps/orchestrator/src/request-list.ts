import type { SqlExecutor } from '@farm/store';
import { forgeView, type ForgeLink, type LinkOrigin } from './forge/forge-store';
import { SUBMITTED, toSummary, WITH_PLANNING, type RequestSummary } from './request-store';

/**
 * GET /v1/change-requests: a page of the whole history, newest first, filtered on the server (phase, repository,
 * submitter, origin, time, words of the title), paged by the id of a listed request (`before`: older than it,
 * `after`: newer), with where each request came from and its place on the forge. One statement per page: the
 * page is chosen on the light columns first, and only its rows get their tasks summed and their links read.
 */

/** Where a request came from: an issue or review on the forge, the HTTP API (and the CLI), or straight on the bus. */
export type RequestOrigin = 'forge' | 'api' | 'bus';

export interface RequestListQuery {
  limit: number;
  /** Requests older than this listed request (the previous page's `older`). */
  before?: string;
  /** Requests newer than this listed request (the next page's `newer`). */
  after?: string;
  phase?: string;
  /** Contained in the repository's URL, or in the path or URL it was submitted with (case-insensitive). */
  repo?: string;
  /** The audit's subject that submitted it (`token:ci-bot`), or a token's name (`ci-bot`). */
  submittedBy?: string;
  origin?: RequestOrigin;
  /** Created at or after, before (ms since the epoch). */
  sinceMs?: number;
  untilMs?: number;
  /** Contained in the title (case-insensitive), or the request's id. */
  q?: string;
}

/** What the list says of each request beside its summary. */
export interface RequestSource {
  origin: RequestOrigin;
  submittedBy?: string;
  forge?: Record<string, unknown>;
}

export interface RequestPage {
  changeRequests: RequestSummary[];
  sources: Record<string, RequestSource>;
  /** Pass as `before` for the next older page; absent on the oldest. */
  older?: string;
  /** Pass as `after` for the next newer page; absent on the newest. */
  newer?: string;
  /** Requests matching the filters, on every page. */
  total: number;
  /** Matching requests newer than this page's first: the page shows `offset + 1` to `offset + its length`. */
  offset: number;
}

/** Indexes that let a page of the newest requests be read without sorting the whole history. */
export const requestListMigrations = [
  {
    name: 'orchestrator-010-request-list',
    sql: `
CREATE INDEX IF NOT EXISTS change_requests_by_age ON change_requests (created_at, id);
CREATE INDEX IF NOT EXISTS api_submissions_by_age ON api_submissions (created_at, id);
`,
  },
];

// Every request once: those consumed as the orchestrator has them, those only accepted as SUBMITTED.
const LISTED = `SELECT c.id, c.phase, c.title, c.repo_url, c.base_ref, c.base_commit, c.reason, c.integration_branch,
    c.created_at, c.updated_at, true AS consumed, c.planning_calls, c.planning_prompt_tokens,
    c.planning_completion_tokens, c.planning_total_tokens, c.planning_cost_usd
  FROM change_requests c
  UNION ALL
  SELECT a.id, '${SUBMITTED}', a.title, a.repo_url, a.base_ref, '', '', '', a.created_at, a.created_at, false,
    0, 0, 0, 0, 0
  FROM api_submissions a WHERE NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = a.id)`;

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function pageRequests(db: SqlExecutor, q: RequestListQuery): Promise<RequestPage> {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (q.phase) where.push(`r.phase = ${p(q.phase)}`);
  if (q.repo) {
    const pattern = p(like(q.repo));
    where.push(`(r.repo_url ILIKE ${pattern} OR r.given_url ILIKE ${pattern})`);
  }
  if (q.submittedBy) {
    const who = p(q.submittedBy);
    where.push(`EXISTS (SELECT 1 FROM farm_audit_events e WHERE e.action = 'submit' AND e.change_request_id = r.id
      AND e.subject IN (${who}, 'token:' || ${who}))`);
  }
  if (q.origin) where.push(`r.origin = ${p(q.origin)}`);
  if (q.sinceMs !== undefined) where.push(`r.created_at >= to_timestamp(${p(q.sinceMs / 1000)}::float8)`);
  if (q.untilMs !== undefined) where.push(`r.created_at < to_timestamp(${p(q.untilMs / 1000)}::float8)`);
  if (q.q) where.push(`(r.title ILIKE ${p(like(q.q))} OR r.id = ${p(q.q)})`);
  const filters = where.length ? where.join(' AND ') : 'true';

  // Paged from listed requests: their places in the order, (created_at, id); an unknown one lists nothing.
  const at = (id: string) => `(SELECT l.created_at, l.id FROM listed l WHERE l.id = ${p(id)})`;
  const before = q.before === undefined ? undefined : at(q.before);
  const after = q.after === undefined ? undefined : at(q.after);
  // Newest first, unless only `after` is given: then the page right above it, read upwards.
  const toOlder = q.before !== undefined || q.after === undefined;
  const onPage = [
    before ? `(r.created_at, r.id) < ${before}` : 'true',
    after ? `(r.created_at, r.id) > ${after}` : 'true',
  ].join(' AND ');
  // Whether anything matches on the other side of the cursor (the page the user came from).
  const across = toOlder ? (before ? `>= ${before}` : undefined) : `<= ${after!}`;
  const beyond = across ? `EXISTS (SELECT 1 FROM r WHERE ${filters} AND (r.created_at, r.id) ${across})` : 'false';
  const order = toOlder ? 'DESC' : 'ASC';
  // Where the page is in the whole list: the matches above the cursor (all newer than `before`; newer than
  // `after`, of which the page itself is the lowest part).
  const aboveCursor = before
    ? `(SELECT count(*) FROM r WHERE ${filters} AND (r.created_at, r.id) >= ${before})`
    : after
      ? `(SELECT count(*) FROM r WHERE ${filters} AND (r.created_at, r.id) > ${after})`
      : '0';
  const limit = p(q.limit + 1);

  // One row at least, whose `beyond` holds also when the page is empty.
  const result = await db.query(
    `WITH listed AS (${LISTED}),
     r AS (
       SELECT l.*, s.repo_url AS given_url,
         CASE WHEN f.origin IN ('issue', 'follow-up') THEN 'forge' WHEN s.id IS NOT NULL THEN 'api' ELSE 'bus' END AS origin
       FROM listed l
       LEFT JOIN api_submissions s ON s.id = l.id
       LEFT JOIN forge_links f ON f.change_request_id = l.id
     ),
     page AS (SELECT * FROM r WHERE ${filters} AND ${onPage} ORDER BY r.created_at ${order}, r.id ${order} LIMIT ${limit})
     SELECT page.*, b.beyond, b.total AS matching, b.above, ${WITH_PLANNING('t', 'page')},
       (SELECT e.subject FROM farm_audit_events e WHERE e.action = 'submit' AND e.change_request_id = page.id
        ORDER BY e.id LIMIT 1) AS submitted_by,
       f.repo AS link_repo, f.origin AS link_origin, f.issue_number, f.pull_number, f.pull_url, f.last_error
     FROM (SELECT ${beyond} AS beyond, (SELECT count(*) FROM r WHERE ${filters}) AS total, ${aboveCursor} AS above) b
     LEFT JOIN page ON true
     LEFT JOIN LATERAL (
       SELECT count(*) FILTER (WHERE t.status = 'SUCCESS') AS done, count(*) AS total,
         coalesce(sum(t.attempts), 0) AS attempts, coalesce(sum(t.prompt_tokens), 0) AS prompt_tokens,
         coalesce(sum(t.completion_tokens), 0) AS completion_tokens, coalesce(sum(t.total_tokens), 0) AS total_tokens,
         coalesce(sum(t.cost_usd), 0) AS cost_usd
       FROM tasks t WHERE page.consumed AND t.change_request_id = page.id
     ) t ON true
     LEFT JOIN forge_links f ON f.change_request_id = page.id
     ORDER BY page.created_at ${order}, page.id ${order}`,
    params,
  );
  const rows = result.rows.filter((r) => r.id !== null);
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  if (!toOlder) shown.reverse();
  const beyondCursor = result.rows[0]?.beyond === true;
  const above = Number(result.rows[0]?.above ?? 0);
  const page: RequestPage = {
    changeRequests: shown.map(toSummary),
    sources: Object.fromEntries(shown.map((r) => [String(r.id), sourceOf(r)])),
    total: Number(result.rows[0]?.matching ?? 0),
    offset: toOlder ? above : Math.max(0, above - shown.length),
  };
  const first = shown[0]?.id as string | undefined;
  const last = shown.at(-1)?.id as string | undefined;
  if (toOlder) {
    if (more) page.older = last;
    if (beyondCursor) page.newer = first ?? q.before;
  } else {
    if (more) page.newer = first;
    if (beyondCursor) page.older = last ?? q.after;
  }
  return page;
}

function sourceOf(r: Record<string, unknown>): RequestSource {
  const link: ForgeLink | undefined =
    typeof r.link_repo === 'string'
      ? {
          changeRequestId: String(r.id),
          repo: r.link_repo,
          origin: r.link_origin as LinkOrigin,
          ...(r.issue_number != null ? { issueNumber: Number(r.issue_number) } : {}),
          ...(r.pull_number != null ? { pullNumber: Number(r.pull_number) } : {}),
          pullUrl: String(r.pull_url ?? ''),
          reply: {},
          syncedPhase: '',
          attempts: 0,
          lastError: String(r.last_error ?? ''),
        }
      : undefined;
  return {
    origin: r.origin as RequestOrigin,
    ...(typeof r.submitted_by === 'string' ? { submittedBy: r.submitted_by } : {}),
    ...(link ? { forge: forgeView(link) } : {}),
  };
}
