import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FINAL_PHASES, farm } from '@farm/proto';
import { Topics } from '@farm/bus';
import { FarmError, errorMessage, type Logger, type RouteHandler } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { listLessons } from '@farm/lessons';
import { ApiError, badRequest, notFound } from './api-error';
import {
  parseCancelInput,
  parseChangeRequestInput,
  parseLimit,
  parseResumeAfter,
  submissionDigest,
  type ChangeRequestInput,
} from './change-request-input';
import { streamTransitions, type EventStreamOptions } from './change-request-events';
import { readJsonBody, sendError, sendJson } from './http-json';
import type { Orchestrator } from './orchestrator';
import { parsePhase } from './phases';
import { getRequest, listRequests, requestPhase, SUBMITTED } from './state-queries';

export interface ChangeRequestApiDeps {
  store: SqlStore;
  /** Its outbox carries submissions and cancels to the bus, after the transaction that recorded them. */
  orchestrator: Pick<Orchestrator, 'writeThroughOutbox' | 'intakeUrl'>;
  log: Logger;
  events?: Partial<EventStreamOptions>;
  /**
   * `farm up`: repositories on the farm's machine are accepted (repo.url an absolute path) and this gives the
   * URL the agents use instead (a mirror the farm serves). Its FarmErrors are the caller's fault (400).
   */
  resolveLocalRepo?: (changeRequestId: string, path: string) => Promise<string>;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, id: string) => Promise<void>;

/**
 * The orchestrator's HTTP API (described in apps/orchestrator/openapi.yaml): submit, list, status, the event
 * stream and cancel of change requests, the same on Kafka and the in-process bus. Served beside /metrics;
 * answers every path under /v1/ and leaves the others to the metrics server.
 */
export function changeRequestApi(deps: ChangeRequestApiDeps): RouteHandler {
  const log = deps.log.child({ api: 'change-requests' });
  const routes: { pattern: RegExp; methods: Record<string, Route> }[] = [
    { pattern: /^\/v1\/change-requests$/, methods: { GET: list, POST: submit } },
    { pattern: /^\/v1\/change-requests\/([^/]+)$/, methods: { GET: status } },
    { pattern: /^\/v1\/change-requests\/([^/]+)\/events$/, methods: { GET: events } },
    { pattern: /^\/v1\/change-requests\/([^/]+)\/cancel$/, methods: { POST: cancel } },
    { pattern: /^\/v1\/lessons$/, methods: { GET: lessons } },
  ];

  async function lessons(_req: IncomingMessage, res: ServerResponse, url: URL) {
    const repoUrl = queryParam(url, 'repo') || undefined;
    const limit = parseLimit(queryParam(url, 'limit'));
    // No repository URL holds NUL (PostgreSQL text cannot): no lessons, rather than a failed query.
    const lessons = repoUrl?.includes('\0') ? [] : await listLessons(deps.store, { repoUrl, limit });
    sendJson(res, 200, { lessons });
  }

  async function list(_req: IncomingMessage, res: ServerResponse, url: URL) {
    const changeRequests = await listRequests(deps.store, parseLimit(queryParam(url, 'limit')));
    sendJson(res, 200, { changeRequests });
  }

  async function submit(req: IncomingMessage, res: ServerResponse) {
    const input = parseChangeRequestInput(await readJsonBody(req), {
      localRepos: !!deps.resolveLocalRepo,
      urlCredentials: true, // taken off or refused by the intake below, with its own reason
    });
    // Credentials in the URL are split off (or refused) before anything is recorded or published.
    const intake = deps.orchestrator.intakeUrl(input.repo.url);
    if (intake.refusal) throw badRequest(intake.refusal, 'repo.url');
    input.repo.url = intake.url;
    const id = input.changeRequestId ?? randomUUID();
    let url = input.repo.url;
    if (deps.resolveLocalRepo && !/^https?:/.test(url)) {
      try {
        url = await deps.resolveLocalRepo(id, url);
      } catch (err) {
        if (err instanceof FarmError && !err.retryable) throw badRequest(err.message, 'repo.url');
        throw err;
      }
    }
    const created = await recordSubmission({ ...input, changeRequestId: id }, url);
    log.info(created ? 'change request accepted' : 'change request submitted again', { changeRequestId: id });
    sendJson(res, created ? 202 : 200, { changeRequestId: id, created }, { location: `/v1/change-requests/${id}` });
  }

  /** Records the submission and its ChangeRequest event in one transaction; false when it was already there. */
  async function recordSubmission(
    input: ChangeRequestInput & { changeRequestId: string },
    agentUrl = input.repo.url,
  ): Promise<boolean> {
    const id = input.changeRequestId;
    const digest = submissionDigest(input);
    return deps.orchestrator.writeThroughOutbox(async (tx, outbox) => {
      const inserted = await tx.query(
        `INSERT INTO api_submissions (id, digest, title, repo_url, base_ref) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [id, digest, input.title, input.repo.url, input.repo.baseRef],
      );
      if (!inserted.rows.length) {
        const prior = await tx.query<{ digest: string }>('SELECT digest FROM api_submissions WHERE id = $1', [id]);
        if (prior.rows[0]?.digest === digest) return false;
        throw new ApiError(409, `change request ${id} was already submitted with different content`, 'changeRequestId');
      }
      // Submitted straight to the bus before: the API cannot tell whether it is the same request.
      const onBus = await tx.query('SELECT 1 FROM change_requests WHERE id = $1', [id]);
      if (onBus.rows.length) {
        throw new ApiError(409, `change request ${id} already exists (submitted through the bus)`, 'changeRequestId');
      }
      await outbox(Topics.changeRequests, id, {
        changeRequestId: id,
        title: input.title,
        description: input.description,
        requestedBy: input.requestedBy,
        checkCommand: input.checkCommand,
        repo: { ...input.repo, url: agentUrl },
        createdAtMs: input.createdAtMs ?? Date.now(),
      });
      return true;
    });
  }

  async function status(_req: IncomingMessage, res: ServerResponse, _url: URL, id: string) {
    const found = await getRequest(deps.store, id);
    if (!found) throw unknown(id);
    sendJson(res, 200, found);
  }

  async function events(req: IncomingMessage, res: ServerResponse, url: URL, id: string) {
    const lastEventId = req.headers['last-event-id'];
    const after = parseResumeAfter(
      Array.isArray(lastEventId) ? lastEventId.join(', ') : lastEventId,
      queryParam(url, 'after'),
    );
    if (!(await requestPhase(deps.store, id))) throw unknown(id);
    await streamTransitions({
      db: deps.store,
      changeRequestId: id,
      afterSequence: after,
      res,
      log,
      options: deps.events,
    });
  }

  async function cancel(req: IncomingMessage, res: ServerResponse, _url: URL, id: string) {
    const input = parseCancelInput(await readJsonBody(req, { optional: true }));
    await deps.orchestrator.writeThroughOutbox(async (tx, outbox) => {
      const phase = await requestPhase(tx, id);
      if (!phase) throw unknown(id);
      if (phase !== SUBMITTED && FINAL_PHASES.has(parsePhase(phase))) {
        throw new ApiError(409, `change request ${id} is already ${phase}; there is nothing to cancel`);
      }
      // A SUBMITTED request is cancelled too: the orchestrator retries the command until the request arrives.
      await outbox(Topics.control, id, {
        changeRequestId: id,
        action: farm.v1.ControlAction.CANCEL,
        reason: input.reason,
        requestedBy: input.requestedBy || 'http-api',
      });
    });
    log.info('cancel requested', { changeRequestId: id });
    sendJson(res, 202, { changeRequestId: id, cancelRequested: true });
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return false;
    try {
      const route = routes.find((r) => r.pattern.test(url.pathname));
      if (!route) throw notFound(`no such resource: ${url.pathname}`);
      const handler = route.methods[req.method ?? 'GET'];
      if (!handler) {
        const allow = Object.keys(route.methods).join(', ');
        sendError(res, new ApiError(405, `${req.method} is not allowed on ${url.pathname}; use ${allow}`), { allow });
        return true;
      }
      await handler(req, res, url, pathId(url.pathname, route.pattern));
    } catch (err) {
      if (res.headersSent) {
        log.error('request failed after the answer started', { path: url.pathname, err: errorMessage(err) });
        res.destroy();
      } else if (err instanceof ApiError) {
        sendError(res, err);
      } else {
        log.error('request failed', { method: req.method, path: url.pathname, err: errorMessage(err) });
        sendError(res, new ApiError(500, 'internal error; see the orchestrator log'));
      }
    }
    return true;
  };
}

const unknown = (id: string) => notFound(`no change request ${id}`);

/** The id in the path; one that no request can have (not valid percent-encoding, NUL) is a 404. */
function pathId(pathname: string, pattern: RegExp): string {
  const raw = pattern.exec(pathname)?.[1];
  if (raw === undefined) return '';
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw notFound(`no change request ${raw}`);
  }
  // PostgreSQL text cannot hold NUL, so no stored id has one; asking would fail the query.
  if (id.includes('\0')) throw notFound(`no change request ${raw}`);
  return id;
}

/** A query parameter given at most once; given twice it is ambiguous, a 400 naming it. */
function queryParam(url: URL, name: string): string | null {
  const values = url.searchParams.getAll(name);
  if (values.length > 1) throw badRequest(`${name} is given ${values.length} times; give it once`, name);
  return values[0] ?? null;
}
