// Every row the forge bridge keeps: the webhook inbox (delivery ids, for replays) and the link between a
// change request and the issue, pull request or review comment it came from or ended in.
import type { ForgeEvent } from '@farm/forge';
import type { SqlExecutor } from '@farm/store';

export const forgeMigrations = [
  {
    name: 'orchestrator-009-forge',
    sql: `
-- Verified webhook deliveries (and the poller's findings): a delivery id is taken once, so a replay is refused.
CREATE TABLE forge_inbox (
  delivery_id text PRIMARY KEY,
  repo text NOT NULL,
  event jsonb,
  received_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  outcome text NOT NULL DEFAULT ''
);
CREATE INDEX forge_inbox_due ON forge_inbox (next_attempt_at) WHERE processed_at IS NULL;
CREATE INDEX forge_inbox_by_age ON forge_inbox (received_at) WHERE processed_at IS NOT NULL;
-- A request's place on the forge; never pruned: the link between a request and its pull request stays.
CREATE TABLE forge_links (
  change_request_id text PRIMARY KEY,
  source_key text UNIQUE,
  repo text NOT NULL,
  origin text NOT NULL,
  issue_number int,
  pull_number int,
  pull_url text NOT NULL DEFAULT '',
  reply jsonb NOT NULL DEFAULT '{}',
  synced_phase text NOT NULL DEFAULT '',
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX forge_links_by_pull ON forge_links (repo, pull_number);
-- What was said on the forge for a request (one comment per effect, one status per phase).
CREATE TABLE forge_effects (
  change_request_id text NOT NULL,
  effect text NOT NULL,
  done_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_request_id, effect)
);
`,
  },
];

/** Where a request came from: an issue, a review (follow-up on a pull request), or a plain submission. */
export type LinkOrigin = 'issue' | 'follow-up' | 'request';

/** What a follow-up answers: the comment, where it is, and the pull request head it was made against. */
export interface FollowUpReply {
  commentId?: number;
  reviewId?: number;
  author?: string;
  path?: string;
  line?: number;
  headSha?: string;
  headBranch?: string;
  /** The request whose pull request it is. */
  parentRequestId?: string;
}

export interface ForgeLink {
  changeRequestId: string;
  sourceKey?: string;
  repo: string;
  origin: LinkOrigin;
  /** The issue a request came from; for a follow-up, its pull request's number. */
  issueNumber?: number;
  pullNumber?: number;
  pullUrl: string;
  reply: FollowUpReply;
  syncedPhase: string;
  attempts: number;
  lastError: string;
}

interface LinkRow extends Record<string, unknown> {
  change_request_id: string;
  source_key: string | null;
  repo: string;
  origin: LinkOrigin;
  issue_number: number | null;
  pull_number: number | null;
  pull_url: string;
  reply: FollowUpReply | string;
  synced_phase: string;
  attempts: number;
  last_error: string;
}

const toLink = (r: LinkRow): ForgeLink => ({
  changeRequestId: r.change_request_id,
  ...(r.source_key ? { sourceKey: r.source_key } : {}),
  repo: r.repo,
  origin: r.origin,
  ...(r.issue_number != null ? { issueNumber: Number(r.issue_number) } : {}),
  ...(r.pull_number != null ? { pullNumber: Number(r.pull_number) } : {}),
  pullUrl: r.pull_url,
  reply: typeof r.reply === 'string' ? (JSON.parse(r.reply) as FollowUpReply) : r.reply,
  syncedPhase: r.synced_phase,
  attempts: Number(r.attempts),
  lastError: r.last_error,
});

/**
 * Takes a verified delivery: false when its id was taken before (a replay). An event the farm does not act
 * on is kept as processed, so its replay is refused too.
 */
export async function takeDelivery(
  db: SqlExecutor,
  d: {
    deliveryId: string;
    repo: string;
    event?: ForgeEvent;
    /** Due this long from now (the repository's pace). */ delayMs?: number;
  },
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO forge_inbox (delivery_id, repo, event, processed_at, outcome, next_attempt_at)
     VALUES ($1, $2, $3::jsonb, CASE WHEN $3::jsonb IS NULL THEN now() END, CASE WHEN $3::jsonb IS NULL THEN 'ignored' ELSE '' END,
             now() + $4::float8 * interval '1 millisecond')
     ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`,
    [d.deliveryId, d.repo, d.event ? JSON.stringify(d.event) : null, d.delayMs ?? 0],
  );
  return inserted.rows.length > 0;
}

export interface InboxItem {
  deliveryId: string;
  event: ForgeEvent;
  attempts: number;
  receivedAt: Date;
}

/** Deliveries due for processing, oldest first. */
export async function dueDeliveries(db: SqlExecutor, limit: number): Promise<InboxItem[]> {
  const rows = await db.query<{
    delivery_id: string;
    event: ForgeEvent | string;
    attempts: number;
    received_at: Date | string;
  }>(
    `SELECT delivery_id, event, attempts, received_at FROM forge_inbox
     WHERE processed_at IS NULL AND next_attempt_at <= now() ORDER BY received_at LIMIT $1`,
    [limit],
  );
  return rows.rows.map((r) => ({
    deliveryId: r.delivery_id,
    event: typeof r.event === 'string' ? (JSON.parse(r.event) as ForgeEvent) : r.event,
    attempts: Number(r.attempts),
    receivedAt: new Date(r.received_at),
  }));
}

export async function finishDelivery(db: SqlExecutor, deliveryId: string, outcome: string): Promise<void> {
  await db.query(`UPDATE forge_inbox SET processed_at = now(), outcome = $2 WHERE delivery_id = $1`, [
    deliveryId,
    outcome.slice(0, 2000),
  ]);
}

/** A delivery that failed for a reason that may pass (the forge away): tried again after `delayMs`. */
export async function postponeDelivery(db: SqlExecutor, deliveryId: string, error: string, delayMs: number) {
  await db.query(
    `UPDATE forge_inbox SET attempts = attempts + 1, outcome = $2,
       next_attempt_at = now() + ($3::text || ' milliseconds')::interval WHERE delivery_id = $1`,
    [deliveryId, error.slice(0, 2000), String(delayMs)],
  );
}

/** Records a request's link in the caller's transaction; false when the source already made a request. */
export async function insertLink(
  db: SqlExecutor,
  link: Omit<ForgeLink, 'syncedPhase' | 'attempts' | 'lastError' | 'pullUrl'> & { pullUrl?: string },
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO forge_links (change_request_id, source_key, repo, origin, issue_number, pull_number, pull_url, reply)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) ON CONFLICT DO NOTHING RETURNING change_request_id`,
    [
      link.changeRequestId,
      link.sourceKey ?? null,
      link.repo,
      link.origin,
      link.issueNumber ?? null,
      link.pullNumber ?? null,
      link.pullUrl ?? '',
      JSON.stringify(link.reply),
    ],
  );
  return inserted.rows.length > 0;
}

export async function linkFor(db: SqlExecutor, changeRequestId: string): Promise<ForgeLink | undefined> {
  const rows = await db.query<LinkRow>('SELECT * FROM forge_links WHERE change_request_id = $1', [changeRequestId]);
  return rows.rows[0] && toLink(rows.rows[0]);
}

export async function linkBySource(db: SqlExecutor, sourceKey: string): Promise<ForgeLink | undefined> {
  const rows = await db.query<LinkRow>('SELECT * FROM forge_links WHERE source_key = $1', [sourceKey]);
  return rows.rows[0] && toLink(rows.rows[0]);
}

/** A link whose request is in another phase than the bridge last acted on, with that phase. */
export interface LinkToSync {
  link: ForgeLink;
  phase: string;
}

/** Links whose request moved since the bridge last acted, due now, oldest change first. */
export async function linksToSync(db: SqlExecutor, limit: number): Promise<LinkToSync[]> {
  const rows = await db.query<LinkRow & { phase: string }>(
    `SELECT l.*, c.phase FROM forge_links l JOIN change_requests c ON c.id = l.change_request_id
     WHERE c.phase <> l.synced_phase AND c.phase <> 'PHASE_UNSPECIFIED' AND l.next_attempt_at <= now()
     ORDER BY c.updated_at LIMIT $1`,
    [limit],
  );
  return rows.rows.map((r) => ({ link: toLink(r), phase: r.phase }));
}

/**
 * Requests that ended DONE on a repository of the forge without a link (submitted over the API or the bus):
 * they get a pull request too. `repoUrlPrefix` is the forge's web origin.
 */
export async function unlinkedDoneRequests(
  db: SqlExecutor,
  repoUrlPrefix: string,
  limit: number,
): Promise<{ id: string; repoUrl: string }[]> {
  const rows = await db.query<{ id: string; repo_url: string }>(
    `SELECT c.id, c.repo_url FROM change_requests c
     WHERE c.phase = 'DONE' AND c.repo_url LIKE $1 || '%' AND c.updated_at > now() - interval '7 days'
       AND NOT EXISTS (SELECT 1 FROM forge_links l WHERE l.change_request_id = c.id)
     ORDER BY c.updated_at LIMIT $2`,
    [repoUrlPrefix.replace(/[\\%_]/g, (c) => `\\${c}`), limit],
  );
  return rows.rows.map((r) => ({ id: r.id, repoUrl: r.repo_url }));
}

export async function markSynced(db: SqlExecutor, changeRequestId: string, phase: string): Promise<void> {
  await db.query(
    `UPDATE forge_links SET synced_phase = $2, attempts = 0, last_error = '' WHERE change_request_id = $1`,
    [changeRequestId, phase],
  );
}

export async function postponeSync(db: SqlExecutor, changeRequestId: string, error: string, delayMs: number) {
  await db.query(
    `UPDATE forge_links SET attempts = attempts + 1, last_error = $2,
       next_attempt_at = now() + ($3::text || ' milliseconds')::interval WHERE change_request_id = $1`,
    [changeRequestId, error.slice(0, 2000), String(delayMs)],
  );
}

export async function setPullRequest(db: SqlExecutor, changeRequestId: string, pull: { number: number; url: string }) {
  await db.query('UPDATE forge_links SET pull_number = $2, pull_url = $3 WHERE change_request_id = $1', [
    changeRequestId,
    pull.number,
    pull.url,
  ]);
}

/** Whether `effect` was done for the request; `markEffect` records it once it is. */
export async function effectDone(db: SqlExecutor, changeRequestId: string, effect: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM forge_effects WHERE change_request_id = $1 AND effect = $2', [
    changeRequestId,
    effect,
  ]);
  return rows.rows.length > 0;
}

export async function markEffect(db: SqlExecutor, changeRequestId: string, effect: string): Promise<void> {
  await db.query('INSERT INTO forge_effects (change_request_id, effect) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    changeRequestId,
    effect,
  ]);
}

/** The pull request link of a request that opened one (its own, or for a follow-up, the one it answers). */
export async function requestOfPull(db: SqlExecutor, repo: string, pullNumber: number): Promise<ForgeLink | undefined> {
  const rows = await db.query<LinkRow>(
    `SELECT * FROM forge_links WHERE repo = $1 AND pull_number = $2 AND origin <> 'follow-up'
     ORDER BY created_at LIMIT 1`,
    [repo, pullNumber],
  );
  return rows.rows[0] && toLink(rows.rows[0]);
}

/**
 * The requests of a conversation, with their phases: an issue's (`on` issue), or a pull request's follow-ups
 * and the request that opened it (`on` pull). GitLab numbers issues and merge requests apart; GitHub and Gitea
 * share the numbering, and the event says which the number is.
 */
export async function requestsOnConversation(
  db: SqlExecutor,
  repo: string,
  number: number,
  on: 'issue' | 'pull',
): Promise<{ changeRequestId: string; phase: string }[]> {
  const where =
    on === 'issue'
      ? `l.origin = 'issue' AND l.issue_number = $2`
      : `((l.origin = 'follow-up' AND l.issue_number = $2) OR l.pull_number = $2)`;
  const rows = await db.query<{ change_request_id: string; phase: string | null }>(
    `SELECT l.change_request_id, c.phase FROM forge_links l LEFT JOIN change_requests c ON c.id = l.change_request_id
     WHERE l.repo = $1 AND ${where} ORDER BY l.created_at`,
    [repo, number],
  );
  return rows.rows.map((r) => ({ changeRequestId: r.change_request_id, phase: r.phase ?? '' }));
}

/** The effect a decision comment left (in the decision's transaction), so a retried delivery only answers. */
export const decisionEffect = (decision: 'approve' | 'reject', sourceKey: string) =>
  `decision:${decision}:${sourceKey}`;

/** The decision a comment made, if it made one: its request and what it decided. */
export async function decisionOf(
  db: SqlExecutor,
  sourceKey: string,
): Promise<{ changeRequestId: string; decision: 'approve' | 'reject' } | undefined> {
  const rows = await db.query<{ change_request_id: string; effect: string }>(
    'SELECT change_request_id, effect FROM forge_effects WHERE effect = ANY($1::text[]) LIMIT 1',
    [[decisionEffect('approve', sourceKey), decisionEffect('reject', sourceKey)]],
  );
  const row = rows.rows[0];
  if (!row) return undefined;
  return {
    changeRequestId: row.change_request_id,
    decision: row.effect.startsWith('decision:approve:') ? 'approve' : 'reject',
  };
}

/** Processed deliveries older than the retention (a replay older than that is taken again). */
export async function pruneInbox(db: SqlExecutor, retentionMs: number): Promise<number> {
  const pruned = await db.query(
    `DELETE FROM forge_inbox WHERE processed_at IS NOT NULL
     AND received_at < now() - ($1::text || ' milliseconds')::interval RETURNING delivery_id`,
    [String(retentionMs)],
  );
  return pruned.rows.length;
}

/** A request's place on the forge as the status API shows it. */
export function forgeView(link: ForgeLink): Record<string, unknown> {
  return {
    repo: link.repo,
    origin: link.origin,
    ...(link.origin === 'issue' && link.issueNumber ? { issue: link.issueNumber } : {}),
    ...(link.pullNumber ? { pullRequest: { number: link.pullNumber, url: link.pullUrl } } : {}),
    ...(link.lastError ? { lastError: link.lastError } : {}),
  };
}
