import { farm } from '@farm/proto';
import { type Logger, type RouteHandler } from '@farm/runtime';
import { decideAccess, KubernetesReviewFailed, SCOPES, type Principal, type Scope } from '@farm/access';
import { HttpError, createHttpEdge, json, metricsRoute, type EdgeRequest, type Reply } from '@farm/http-edge';
import { StoreUnavailable, type SqlStore } from '@farm/store';
import { listLessons } from '@farm/lessons';
import { apiDocument } from './api-document';
import { ApiError, badRequest, notFound } from './api-error';
import {
  parseApproveInput,
  parseCancelInput,
  parseLimit,
  parseRejectInput,
  parseResumeAfter,
} from './change-request-input';
import { recordCancel, recordPlanDecision, type PlanDecision } from './request-decisions';
import { streamTransitions, type EventStreamOptions } from './change-request-events';
import { consoleRoutes } from './console-server';
import type { Orchestrator } from './orchestrator';
import { pageRequests, type RequestListQuery, type RequestOrigin } from './request-list';
import { getRequest, requestPhase, SUBMITTED } from './request-store';
import { apiSubmitter, changeRequestSubmitter } from './submissions';
import { forgeWebhookRoutes, type ForgeWebhookDeps } from './forge/forge-webhook-route';
import { forgeView, linkFor } from './forge/forge-store';
import { authorizeByRoute, submittersFromAudit, type ApiAccess } from './api-access';
import { scopeFor } from './api-scopes';
import { tokenHttpError, tokenRoutes } from './token-api';
import { taskRoutes } from './task-api';
import { requestDiff } from './build-reports';
import type { TaskStepStreamOptions } from './task-step-events';

export interface ChangeRequestApiDeps {
  store: SqlStore;
  /** Its outbox carries submissions and cancels to the bus, after the transaction that recorded them. */
  orchestrator: Pick<Orchestrator, 'writeThroughOutbox' | 'intakeUrl'>;
  log: Logger;
  /** Every route asks its scope (api-scopes.ts) of the request's bearer token; see openApiAccess. */
  access: ApiAccess;
  events?: Partial<EventStreamOptions>;
  /** The task step streams' timing (GET .../tasks/{taskId}/events). */
  taskSteps?: Partial<TaskStepStreamOptions>;
  /**
   * `farm up`: repositories on the farm's machine are accepted (repo.url an absolute path) and this gives the
   * URL the agents use instead (a mirror the farm serves). Its FarmErrors are the caller's fault (400).
   */
  resolveLocalRepo?: (changeRequestId: string, path: string) => Promise<string>;
  /** `farm up`: the path on this machine each of these requests was submitted for (those that were). */
  localRepoPaths?: (changeRequestIds: string[]) => Promise<Map<string, string>>;
  /** Each local repository's mirror URL and the path it mirrors (`farm up`), to show lessons by path. */
  localRepoPathsByUrl?: () => Promise<Map<string, string>>;
  /** The forge's kind and web address (GET /v1/forge), when one is configured: clients link to it. */
  forgeSite?: { kind: string; webUrl: string };
  /** The forge's signed webhooks (POST /v1/forge/webhooks), when a forge and its webhook secret are set. */
  forgeWebhooks?: Omit<ForgeWebhookDeps, 'store' | 'log'>;
  /**
   * Why the farm cannot take new work now (its state cannot be written: a full disk), or undefined: a submission
   * is then refused with 503 and Retry-After rather than accepted and left waiting.
   */
  refuseNewWork?: () => string | undefined;
}

/**
 * The orchestrator's HTTP API (described in apps/orchestrator/openapi.yaml): submit, list, status, the event
 * stream and cancel of change requests, the same on Kafka and the in-process bus, and the admin routes of
 * tokens and the audit. Every route asks for a bearer token with its scope. Served beside /metrics; answers
 * every path under /v1/ (and /metrics when it asks for a token) and leaves the others to the metrics server.
 */
export function changeRequestApi(deps: ChangeRequestApiDeps): RouteHandler {
  const log = deps.log.child({ api: 'change-requests' });
  const { accept } = changeRequestSubmitter(deps);
  const submitBody = apiSubmitter({ ...deps, log });
  const authorize = authorizeByRoute(deps.access.authenticator, (id) => submittersFromAudit(deps.store, id));
  const edge = createHttpEdge({
    prefix: '/v1',
    log,
    authorize,
    routes: [
      { method: 'GET', path: '/v1/change-requests', handler: list },
      { method: 'POST', path: '/v1/change-requests', handler: submit },
      { method: 'GET', path: '/v1/change-requests/:id', handler: status },
      { method: 'GET', path: '/v1/change-requests/:id/events', handler: events },
      { method: 'GET', path: '/v1/change-requests/:id/diff', handler: diff },
      { method: 'POST', path: '/v1/change-requests/:id/cancel', handler: cancel },
      { method: 'POST', path: '/v1/change-requests/:id/approve', handler: (r) => decidePlan(r, 'approve') },
      { method: 'POST', path: '/v1/change-requests/:id/reject', handler: (r) => decidePlan(r, 'reject') },
      { method: 'GET', path: '/v1/lessons', handler: lessons },
      { method: 'GET', path: '/v1/whoami', handler: whoami, authorize: anyScope },
      { method: 'GET', path: '/v1/forge', handler: async () => json(200, deps.forgeSite ?? {}) },
      ...tokenRoutes({ store: deps.store, tokens: deps.access.tokens }),
      ...taskRoutes({
        store: deps.store,
        accept,
        log,
        // As authorized at first (a submitter follows its own request's tasks): a revoked token ends the stream.
        stillAllowed: async (r) => {
          const decision = await authorize(r);
          return decision === 'allow' || 'principal' in decision;
        },
        steps: deps.taskSteps,
      }),
      ...(deps.forgeWebhooks ? forgeWebhookRoutes({ ...deps.forgeWebhooks, store: deps.store, log }) : []),
    ],
    // An unexpected failure says no more than where to look.
    toHttpError: (err) =>
      tokenHttpError(err) ??
      // Kubernetes identities: the API server could not review the credential; neither 401 nor 403 would be true.
      (err instanceof KubernetesReviewFailed
        ? new ApiError(503, 'the Kubernetes API server could not review the credential; try again')
        : undefined) ??
      // PostgreSQL is down or restarting: nothing was read or recorded, and asking again shortly will do.
      (err instanceof StoreUnavailable
        ? new HttpError(503, "the farm's database is unavailable; nothing was recorded, try again shortly", {
            headers: { 'retry-after': '5' },
          })
        : undefined) ??
      (err instanceof HttpError ? undefined : new ApiError(500, 'internal error; see the orchestrator log')),
  });
  // FARM_METRICS_ACCESS=read: /metrics asks for the read scope like the API; else the metrics server answers it.
  const metrics =
    deps.access.metrics === 'read'
      ? createHttpEdge({ prefix: '/metrics', log, authorize, routes: [metricsRoute()] })
      : undefined;

  async function lessons(r: EdgeRequest): Promise<Reply> {
    const limit = parseLimit(r.query('limit'));
    const paths = await deps.localRepoPathsByUrl?.();
    // A local repository may be named by its path as well as by the URL its tasks used.
    const asked = r.query('repo') || undefined;
    const repoUrl = asked && paths ? ([...paths].find(([, p]) => p === asked)?.[0] ?? asked) : asked;
    // No repository URL holds NUL (PostgreSQL text cannot): no lessons, rather than a failed query.
    const found = repoUrl?.includes('\0') ? [] : await listLessons(deps.store, { repoUrl, limit });
    return json(200, { lessons: paths ? found.map((l) => withPath(l, paths.get(l.repoUrl))) : found });
  }

  async function list(r: EdgeRequest): Promise<Reply> {
    const query = parseListQuery(r);
    // No stored text holds NUL (PostgreSQL text cannot): nothing matches, rather than a failed query.
    if (Object.values(query).some((v) => typeof v === 'string' && v.includes('\0'))) {
      return json(200, { changeRequests: [], sources: {}, total: 0, offset: 0 });
    }
    const page = await pageRequests(deps.store, query);
    const paths = await deps.localRepoPaths?.(page.changeRequests.map((c) => c.id));
    if (paths) page.changeRequests = page.changeRequests.map((c) => withPath(c, paths.get(c.id)));
    return json(200, page);
  }

  /** Any valid token may ask who it is; the scopes it holds are the answer, not a condition. */
  async function anyScope(r: EdgeRequest) {
    let refusal;
    for (const scope of SCOPES) {
      const decision = await decideAccess(deps.access.authenticator, r.req.headers.authorization, scope);
      if ('principal' in decision) return decision;
      if (decision.deny === 401) return decision;
      refusal ??= decision;
    }
    return refusal!;
  }

  async function whoami(r: EdgeRequest): Promise<Reply> {
    const principal = r.principal as Principal;
    const scopes: Scope[] = [];
    for (const scope of SCOPES) {
      const held = principal.scopes
        ? principal.scopes.includes(scope) || principal.scopes.includes('admin')
        : !!(await deps.access.authenticator.allows?.(principal, scope));
      if (held) scopes.push(scope);
    }
    const tokenName =
      principal.via === 'token' && principal.subject.startsWith('token:') ? principal.subject.slice(6) : '';
    return json(200, { subject: principal.subject, via: principal.via, ...(tokenName ? { tokenName } : {}), scopes });
  }

  async function submit(r: EdgeRequest): Promise<Reply> {
    // Who submitted it is who authenticated, whatever the body says.
    const { changeRequestId: id, created } = await submitBody(await r.json(), (claimed) => submitter(r, claimed));
    log.info(created ? 'change request accepted' : 'change request submitted again', { changeRequestId: id });
    return json(created ? 202 : 200, { changeRequestId: id, created }, { location: `/v1/change-requests/${id}` });
  }

  async function status(r: EdgeRequest): Promise<Reply> {
    const id = requestId(r);
    const found = await getRequest(deps.store, id);
    if (!found) throw unknown(id);
    const link = await linkFor(deps.store, id);
    const path = (await deps.localRepoPaths?.([id]))?.get(id);
    const shown = path ? { ...found, request: withPath(found.request, path) } : found;
    return json(200, link ? { ...shown, forge: forgeView(link) } : shown);
  }

  async function events(r: EdgeRequest): Promise<void> {
    const id = requestId(r);
    const lastEventId = r.req.headers['last-event-id'];
    const after = parseResumeAfter(Array.isArray(lastEventId) ? lastEventId.join(', ') : lastEventId, r.query('after'));
    if (!(await requestPhase(deps.store, id))) throw unknown(id);
    // A token revoked while its stream is open ends the stream at the next poll.
    const authorization = r.req.headers.authorization;
    const stillAllowed = async () =>
      'principal' in (await decideAccess(deps.access.authenticator, authorization, scopeFor(r.method, r.route)));
    await streamTransitions({
      db: deps.store,
      changeRequestId: id,
      afterSequence: after,
      res: r.res,
      log,
      options: deps.events,
      stillAllowed,
    });
  }

  /** The request's change as its latest build merged it into the integration branch (build-reports.ts). */
  async function diff(r: EdgeRequest): Promise<Reply> {
    const id = requestId(r);
    const found = await getRequest(deps.store, id);
    if (!found) throw unknown(id);
    return json(200, await requestDiff(deps.store, id, found.request));
  }

  async function cancel(r: EdgeRequest): Promise<Reply> {
    const id = requestId(r);
    const input = parseCancelInput(await r.json({ optional: true }));
    const requestedBy = submitter(r, input.requestedBy || 'http-api');
    await recordCancel(deps.orchestrator, id, input, requestedBy);
    log.info('cancel requested', { changeRequestId: id });
    return json(202, { changeRequestId: id, cancelRequested: true });
  }

  /** A person's decision on a plan waiting for approval (see recordPlanDecision). */
  async function decidePlan(r: EdgeRequest, decision: PlanDecision): Promise<Reply> {
    const id = requestId(r);
    const body = await r.json({ optional: decision === 'approve' });
    const input = decision === 'approve' ? parseApproveInput(body) : parseRejectInput(body);
    const requestedBy = submitter(r, 'http-api');
    await recordPlanDecision(deps.orchestrator, id, decision, input, requestedBy);
    log.info(`plan ${decision === 'approve' ? 'approved' : 'rejected'}`, { changeRequestId: id, by: requestedBy });
    return json(202, { changeRequestId: id, decision });
  }

  // The web console's files, on the same port (`/`, `/console/...`): static, no data, open to all.
  const consoleFiles = consoleRoutes();
  return async (req, res) =>
    (await metrics?.handle(req, res)) || (await edge.handle(req, res)) || consoleFiles(req, res);
}

const ORIGINS: readonly RequestOrigin[] = ['forge', 'api', 'bus'];

/** The list's query: each parameter checked against openapi.yaml (a time as RFC 3339), or a 400 naming it. */
function parseListQuery(r: EdgeRequest): RequestListQuery {
  const query: RequestListQuery = { limit: parseLimit(r.query('limit')) };
  const text = (name: 'before' | 'after' | 'repo' | 'submittedBy' | 'q') => {
    const value = r.query(name);
    if (value !== null && value !== '') query[name] = value;
  };
  for (const name of ['before', 'after', 'repo', 'submittedBy', 'q'] as const) text(name);
  // An enum or a time given empty is not one (schemathesis checks that it is refused): only texts may be empty.
  const phase = r.query('phase');
  if (phase !== null) {
    if (apiDocument().parameter('/v1/change-requests', 'get', 'phase').check(phase).length) {
      throw badRequest(`phase: one of ${Object.keys(farm.v1.Phase).join(', ')} or ${SUBMITTED}`, 'phase');
    }
    query.phase = phase;
  }
  const origin = r.query('origin');
  if (origin !== null) {
    if (!ORIGINS.includes(origin as RequestOrigin)) throw badRequest(`origin: one of ${ORIGINS.join(', ')}`, 'origin');
    query.origin = origin as RequestOrigin;
  }
  for (const [name, key] of [
    ['since', 'sinceMs'],
    ['until', 'untilMs'],
  ] as const) {
    const value = r.query(name);
    if (value === null) continue;
    const ms = rfc3339(value);
    if (ms === undefined) throw badRequest(`${name}: a date and time as RFC 3339 has it (2025-01-31T09:00:00Z)`, name);
    query[key] = ms;
  }
  return query;
}

/** An RFC 3339 date-time (what JSON Schema's `date-time` is) as ms since the epoch, or undefined. */
export function rfc3339(text: string): number | undefined {
  const m =
    /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|([+-])([01]\d|2[0-3]):([0-5]\d))$/.exec(
      text,
    );
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, frac, , sign, oh, om] = m;
  const day = new Date(0);
  day.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  // A day the month does not have (February 30th) is no date.
  if (day.getUTCMonth() !== Number(mo) - 1) return undefined;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000 : 0;
  const ms = Number(h) * 3_600_000 + Number(mi) * 60_000 + Number(sec) * 1000 + Math.floor(Number(frac ?? 0) * 1000);
  return day.getTime() + ms - offset;
}

/** The authenticated subject; the body's claim only where no principal is known (never on this API's routes). */
const submitter = (r: EdgeRequest, claimed: string) => r.principal?.subject ?? claimed;

const unknown = (id: string) => notFound(`no change request ${id}`);

/** The id in the path; one that no request can have (NUL: PostgreSQL text cannot hold it) is a 404. */
function requestId(r: EdgeRequest): string {
  const id = r.params.id;
  if (id.includes('\0')) throw unknown(encodeURIComponent(id));
  return id;
}

/** A request as the API shows it: with the user's own path when it was submitted for a repository on this machine. */
const withPath = <T extends object>(summary: T, path: string | undefined): T & { repoPath?: string } =>
  path ? { ...summary, repoPath: path } : summary;
