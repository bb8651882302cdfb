import type { SqlExecutor } from '@farm/store';

/** What the audit records: submissions, cancels and the life of tokens. */
export type AuditAction = 'submit' | 'cancel' | 'approve' | 'reject' | 'token.create' | 'token.revoke';

export interface AuditEvent {
  id: string;
  at: string;
  /** The principal's subject, e.g. `token:ci-bot`. */
  subject: string;
  action: AuditAction;
  changeRequestId?: string;
  /** What it acted on beyond the request: a token's id and name, a cancel's reason. Never a secret. */
  detail: Record<string, unknown>;
}

/** Records one event; given the transaction that does the action, so both are kept or neither. */
export async function recordAudit(
  db: SqlExecutor,
  event: { subject: string; action: AuditAction; changeRequestId?: string; detail?: Record<string, unknown> },
): Promise<void> {
  await db.query('INSERT INTO farm_audit_events (subject, action, change_request_id, detail) VALUES ($1, $2, $3, $4)', [
    event.subject,
    event.action,
    event.changeRequestId ?? null,
    JSON.stringify(event.detail ?? {}),
  ]);
}

export interface AuditQuery {
  subject?: string;
  action?: string;
  changeRequestId?: string;
  /** Events older than this id (the previous page's last id): newest first, page by page. */
  before?: string;
  limit?: number;
}

/** The newest events matching every given filter, newest first. */
export async function queryAudit(db: SqlExecutor, q: AuditQuery = {}): Promise<AuditEvent[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (q.subject) add('subject = ?', q.subject);
  if (q.action) add('action = ?', q.action);
  if (q.changeRequestId) add('change_request_id = ?', q.changeRequestId);
  if (q.before) add('id < ?', q.before);
  params.push(Math.min(Math.max(q.limit ?? 100, 1), 1000));
  const { rows } = await db.query<{
    id: string | number;
    at: Date | string;
    subject: string;
    action: AuditAction;
    change_request_id: string | null;
    detail: Record<string, unknown> | string;
  }>(
    `SELECT id, at, subject, action, change_request_id, detail FROM farm_audit_events
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    id: String(r.id),
    at: new Date(r.at).toISOString(),
    subject: r.subject,
    action: r.action,
    ...(r.change_request_id ? { changeRequestId: r.change_request_id } : {}),
    detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail,
  }));
}
