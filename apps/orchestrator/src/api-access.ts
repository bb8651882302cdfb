import {
  StaticTokenAuthenticator,
  TokenAuthenticator,
  TokenStore,
  anyOf,
  bootstrapAdminPrincipal,
  decideAccess,
  emptyIsUnset,
  type Authenticator,
} from '@farm/access';
import type { Authorize, EdgeRequest } from '@farm/http-edge';
import { z } from '@farm/runtime';
import type { SqlExecutor, SqlStore } from '@farm/store';
import { scopeFor } from './api-scopes';

/** Who may use the orchestrator's HTTP surface: its tokens, and whatever else authenticates (a cluster's). */
export interface ApiAccess {
  tokens: TokenStore;
  authenticator: Authenticator;
  /** `read`: /metrics asks for a token with the read scope too; `open` (default): scrapers need none. */
  metrics?: 'open' | 'read';
}

export const apiAccessConfigSchema = z.object({
  /**
   * A token accepted as admin (subject `token:farm-admin`), e.g. from a Secret in a cluster, to create the
   * first tokens with; at least 32 characters.
   */
  FARM_ADMIN_TOKEN: z.preprocess(emptyIsUnset, z.string().min(32).optional()),
  /** `read` makes /metrics ask for a bearer token with the read scope; `open` leaves it to anyone who reaches it. */
  FARM_METRICS_ACCESS: z.enum(['open', 'read']).default('open'),
  /** Lifetime of a token created without one (seconds); unset: until revoked, or FARM_TOKEN_MAX_TTL_S when set. */
  FARM_TOKEN_TTL_S: z.preprocess(emptyIsUnset, z.coerce.number().int().min(60).optional()),
  /** The longest lifetime a token may be created with (seconds); unset: no limit. */
  FARM_TOKEN_MAX_TTL_S: z.preprocess(emptyIsUnset, z.coerce.number().int().min(60).optional()),
});
export type ApiAccessConfig = z.infer<typeof apiAccessConfigSchema>;

/** The farm's tokens on its store (migrated), FARM_ADMIN_TOKEN beside them, and any other authenticators. */
export async function openApiAccess(
  store: SqlStore,
  config: Partial<ApiAccessConfig>,
  ...more: Authenticator[]
): Promise<ApiAccess> {
  const tokens = await TokenStore.open(store, {
    defaultSeconds: config.FARM_TOKEN_TTL_S,
    maxSeconds: config.FARM_TOKEN_MAX_TTL_S,
  });
  const admin = config.FARM_ADMIN_TOKEN
    ? [new StaticTokenAuthenticator(config.FARM_ADMIN_TOKEN, bootstrapAdminPrincipal)]
    : [];
  return {
    tokens,
    authenticator: anyOf(new TokenAuthenticator(tokens), ...admin, ...more),
    metrics: config.FARM_METRICS_ACCESS,
  };
}

/** The edge's auth hook: the request's bearer token must hold the scope its route asks for (api-scopes.ts). */
export function authorizeByRoute(
  authenticator: Authenticator,
  /** Who submitted a request (the audit's `submit` subjects); with it, `submit` reads what it submitted. */
  submittersOf?: (changeRequestId: string) => Promise<string[]>,
): Authorize {
  return async (r: EdgeRequest) => {
    const header = r.req.headers.authorization;
    const scope = scopeFor(r.method, r.route);
    const decision = await decideAccess(authenticator, header, scope);
    if (!submittersOf || !('deny' in decision) || decision.deny !== 403 || !OWN_READS.has(`${r.method} ${r.route}`)) {
      return decision;
    }
    // A token that may submit follows what it submitted (`farm submit --watch`), and nothing else.
    const asSubmitter = await decideAccess(authenticator, header, 'submit');
    if ('deny' in asSubmitter || !(await submittersOf(r.params.id)).includes(asSubmitter.principal.subject)) {
      return decision;
    }
    return asSubmitter;
  };
}

/** The reads of one request that its submitter may make with the `submit` scope alone. */
const OWN_READS = new Set([
  'GET /v1/change-requests/:id',
  'GET /v1/change-requests/:id/events',
  'GET /v1/change-requests/:id/diff',
  'GET /v1/change-requests/:id/tasks/:taskId/trajectory',
  'GET /v1/change-requests/:id/tasks/:taskId/checks',
  'GET /v1/change-requests/:id/tasks/:taskId/diff',
  'GET /v1/change-requests/:id/tasks/:taskId/events',
]);

/** The subjects that submitted a request, from the audit (one, unless the same id was submitted again). */
export async function submittersFromAudit(store: SqlExecutor, changeRequestId: string): Promise<string[]> {
  const { rows } = await store.query<{ subject: string }>(
    `SELECT DISTINCT subject FROM farm_audit_events WHERE action = 'submit' AND change_request_id = $1`,
    [changeRequestId],
  );
  return rows.map((row) => row.subject);
}
