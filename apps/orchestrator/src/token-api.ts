import { InvalidTokenRequest, TokenNameTaken, TokenNotFound, queryAudit, type TokenStore } from '@farm/access';
import { HttpError, json, type EdgeRequest, type Reply, type Route } from '@farm/http-edge';
import type { SqlStore } from '@farm/store';
import { badRequest } from './api-error';
import { parseLimit } from './change-request-input';

/** The admin routes: create, list and revoke tokens, and read the audit. Their scope is in api-scopes.ts. */
export function tokenRoutes(deps: { store: SqlStore; tokens: TokenStore }): Route[] {
  const subjectOf = (r: EdgeRequest) => r.principal?.subject ?? 'anonymous';

  async function create(r: EdgeRequest): Promise<Reply> {
    const body = await r.json({ limit: 4096 });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('the body must be a JSON object: {"name", "scopes", "expiresInSeconds"?}');
    }
    const { name, scopes, expiresInSeconds, ...other } = body as Record<string, unknown>;
    const unknown = Object.keys(other)[0];
    if (unknown !== undefined) throw badRequest(`${unknown}: not a member of a token request`, unknown);
    const created = await deps.tokens.create({ name, scopes, expiresInSeconds }, subjectOf(r));
    return json(201, created, { 'cache-control': 'no-store' });
  }

  async function list(r: EdgeRequest): Promise<Reply> {
    const includeRevoked = r.query('includeRevoked');
    if (includeRevoked !== null && includeRevoked !== 'true' && includeRevoked !== 'false') {
      throw badRequest('includeRevoked: true or false', 'includeRevoked');
    }
    return json(200, { tokens: await deps.tokens.list({ includeRevoked: includeRevoked === 'true' }) });
  }

  async function revoke(r: EdgeRequest): Promise<Reply> {
    // No id or name holds NUL (PostgreSQL text cannot): no such token, rather than a failed query.
    if (r.params.id.includes('\0')) throw new TokenNotFound(encodeURIComponent(r.params.id));
    return json(200, await deps.tokens.revoke(r.params.id, subjectOf(r)));
  }

  async function audit(r: EdgeRequest): Promise<Reply> {
    const filters = {
      subject: r.query('subject') || undefined,
      action: r.query('action') || undefined,
      changeRequestId: r.query('changeRequestId') || undefined,
    };
    const before = r.query('before');
    if (before !== null && !(/^[1-9][0-9]*$/.test(before) && Number(before) <= Number.MAX_SAFE_INTEGER)) {
      throw badRequest(`before: an event id from 1 to ${Number.MAX_SAFE_INTEGER}`, 'before');
    }
    const limit = parseLimit(r.query('limit'));
    // No stored value holds NUL (PostgreSQL text cannot): nothing matches, rather than a failed query.
    if (Object.values(filters).some((v) => v?.includes('\0'))) return json(200, { events: [] });
    const events = await queryAudit(deps.store, { ...filters, before: before ?? undefined, limit });
    return json(200, { events });
  }

  return [
    { method: 'POST', path: '/v1/tokens', handler: create },
    { method: 'GET', path: '/v1/tokens', handler: list },
    { method: 'POST', path: '/v1/tokens/:id/revoke', handler: revoke },
    { method: 'GET', path: '/v1/audit', handler: audit },
  ];
}

/** The token store's typed errors as the API's answers. */
export function tokenHttpError(err: unknown): HttpError | undefined {
  if (err instanceof InvalidTokenRequest) return new HttpError(400, err.message, { field: err.field });
  if (err instanceof TokenNameTaken) return new HttpError(409, err.message, { field: 'name' });
  if (err instanceof TokenNotFound) return new HttpError(404, err.message);
  return undefined;
}
