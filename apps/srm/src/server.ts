import { FarmError, errorMessage, silentLogger, type Logger } from '@farm/runtime';
import { componentOnly } from '@farm/access';
import {
  AccessDenied,
  allowAll,
  BodyNotJson,
  HttpError,
  MethodNotAllowed,
  RouteNotFound,
  createHttpEdge,
  metricsRoute,
  serveHttpEdge,
  type EdgeRequest,
  type Reply,
  type Route,
} from '@farm/http-edge';
import {
  InvalidLeaseRequest,
  claimRequestSchema,
  errorToBody,
  leaseFilterSchema,
  leaseToJson,
  parseRequest,
  releaseRequestSchema,
  renewRequestSchema,
  reserveRequestSchema,
  taskCommitQuerySchema,
  taskCommitRecordSchema,
  type SrmErrorBody,
  type SymbolLeases,
  type TaskCommits,
} from '@farm/srm-client';

/** What the srm keeps: the symbol leases and the record of the tasks' commits (one database). */
export type SrmStore = SymbolLeases & TaskCommits;

export interface SrmServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Status of each typed error; anything else is a 500 the client treats as retryable. */
const STATUS: Record<string, number> = {
  InvalidLeaseRequest: 400,
  LeaseNotFound: 404,
  LeaseConflict: 409,
  LeaseLost: 410,
  // Its database is away (a restart): the client retries, a load balancer takes it out meanwhile.
  StoreUnavailable: 503,
};

function routes(leases: SrmStore, healthy: () => Promise<boolean>): Route[] {
  const ok = (body: unknown): Reply => ({ status: 200, body });
  // Its clients send JSON without always saying so; an empty body is {}.
  const body = async (r: EdgeRequest) => (await r.json({ optional: true, requireJsonType: false })) ?? {};
  return [
    {
      method: 'POST',
      path: '/v1/leases/reserve',
      handler: async (r) =>
        ok({ leases: (await leases.reserve(parseRequest(reserveRequestSchema, await body(r)))).map(leaseToJson) }),
    },
    {
      method: 'POST',
      path: '/v1/leases/:id/renew',
      handler: async (r) => {
        const req = parseRequest(renewRequestSchema, await body(r));
        return ok({ lease: leaseToJson(await leases.renew(r.params.id, req.fencingToken, req.ttlSeconds)) });
      },
    },
    {
      method: 'POST',
      path: '/v1/leases/:id/claim',
      handler: async (r) => {
        const req = parseRequest(claimRequestSchema, await body(r));
        return ok({ lease: leaseToJson(await leases.claim(r.params.id, req.fencingToken, req.commitSha)) });
      },
    },
    {
      method: 'POST',
      path: '/v1/leases/:id/release',
      handler: async (r) => {
        await leases.release(r.params.id, parseRequest(releaseRequestSchema, await body(r)).fencingToken);
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      path: '/v1/holders/:holder/release',
      handler: async (r) => ok({ released: await leases.releaseHolder(r.params.holder) }),
    },
    {
      method: 'POST',
      path: '/v1/change-requests/:id/release',
      handler: async (r) => ok({ released: await leases.releaseForChangeRequest(r.params.id) }),
    },
    {
      method: 'GET',
      path: '/v1/leases',
      handler: async (r) => {
        const filter = parseRequest(leaseFilterSchema, Object.fromEntries(r.url.searchParams));
        return ok({ leases: (await leases.liveLeases(filter)).map(leaseToJson) });
      },
    },
    {
      method: 'POST',
      path: '/v1/task-commits',
      handler: async (r) => {
        await leases.recordCommit(parseRequest(taskCommitRecordSchema, await body(r)));
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/v1/task-commits',
      handler: async (r) => {
        const query = parseRequest(taskCommitQuerySchema, Object.fromEntries(r.url.searchParams));
        return ok({ commit: (await leases.findCommit(query)) ?? null });
      },
    },
    // Ready only when the database answers, so a load balancer stops sending to a replica that cannot.
    {
      method: 'GET',
      path: '/healthz',
      handler: async () => ((await healthy()) ? { status: 200, body: 'ok' } : { status: 503, body: 'db' }),
      authorize: allowAll, // probes carry no token
    },
    { ...metricsRoute(), authorize: allowAll },
  ];
}

/** The srm's error body, `{error: {kind, message, details}}`, from which its client rebuilds the typed error. */
function srmError(err: unknown, request: { method: string; path: string }): HttpError {
  const as = (status: number, body: SrmErrorBody) =>
    new HttpError(status, body.error.message, { extra: { kind: body.error.kind, details: body.error.details } });
  const plain = (status: number, kind: string, message: string) =>
    as(status, { error: { kind, message, details: {} } });
  if (err instanceof RouteNotFound) return plain(404, 'NoSuchRoute', err.path);
  if (err instanceof MethodNotAllowed) {
    const refused = plain(405, 'MethodNotAllowed', `${request.method} ${request.path}`);
    Object.assign(refused.headers, err.headers);
    return refused;
  }
  if (err instanceof BodyNotJson)
    return as(400, errorToBody(new InvalidLeaseRequest([`body: not JSON (${err.reason})`])));
  if (err instanceof AccessDenied) {
    const denied = plain(err.status, 'AccessDenied', err.message);
    Object.assign(denied.headers, err.headers);
    return denied;
  }
  // The edge's other refusals are about the body (over the limit, cut short): a malformed request.
  if (err instanceof HttpError && err.status < 500) {
    return as(400, errorToBody(new InvalidLeaseRequest([`body: ${err.message}`])));
  }
  if (err instanceof FarmError && STATUS[err.name]) return as(STATUS[err.name], errorToBody(err));
  return plain(500, 'Internal', errorMessage(err));
}

/**
 * The srm HTTP JSON API over any SymbolLeases (PostgreSQL in a cluster, PGlite on one machine), with
 * /metrics and /healthz. Typed errors map to 400/404/409/410 with `{error: {kind, message, details}}`.
 */
export async function startSrmServer(opts: {
  leases: SrmStore;
  port: number;
  host?: string;
  log?: Logger;
  /** Readiness probe; defaults to listing one repo's leases. */
  healthy?: () => Promise<boolean>;
  /** FARM_COMPONENT_TOKEN: every call but /healthz and /metrics must carry it; without one the srm is open. */
  componentToken?: string;
}): Promise<SrmServer> {
  const log = opts.log ?? silentLogger;
  const healthy =
    opts.healthy ??
    (() =>
      opts.leases.liveLeases({ repo: '(healthz)' }).then(
        () => true,
        (err) => {
          log.warn('health check failed', { err: errorMessage(err) });
          return false;
        },
      ));
  if (!opts.componentToken) log.warn('FARM_COMPONENT_TOKEN is not set: the srm answers anyone who reaches it');
  const edge = createHttpEdge({
    routes: routes(opts.leases, healthy),
    log,
    toHttpError: srmError,
    authorize: opts.componentToken ? componentOnly(opts.componentToken) : allowAll,
  });
  const server = await serveHttpEdge(edge, { port: opts.port, host: opts.host ?? '0.0.0.0' });
  log.info('srm listening', { port: server.port });
  return server;
}
