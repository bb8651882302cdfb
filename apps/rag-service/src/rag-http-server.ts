import { DEFAULT_SEARCH_LIMIT, type RagApi } from '@farm/rag';
import { FarmError, errorMessage, silentLogger, z, type Logger } from '@farm/runtime';
import { componentOnly } from '@farm/access';
import {
  AccessDenied,
  HttpError,
  MethodNotAllowed,
  allowAll,
  RouteNotFound,
  createHttpEdge,
  json,
  metricsRoute,
  serveHttpEdge,
  type EdgeRequest,
  type Route,
} from '@farm/http-edge';
import { ragMetrics } from './metrics';

const sha = z.string().regex(/^[0-9a-fA-F]{40}$/, { message: 'must be a 40-hex commit sha' });
const repo = z.string().trim().min(1).max(2048);
const indexBody = z
  .object({
    repoUrl: repo,
    commit: sha,
    /** Branch or tag the commit is on; without it the remote's default branch is fetched. */
    ref: z.string().trim().min(1).max(1024).optional(),
  })
  .strict();
const snippetsBody = z
  .object({ repo, commit: sha, blobIds: z.array(z.string().regex(/^[0-9a-fA-F]{40}$/)).max(5000) })
  .strict();
const searchBody = z
  .object({
    repo,
    commit: sha,
    query: z.string().trim().min(1).max(8000),
    limit: z.number().int().min(1).max(200).default(DEFAULT_SEARCH_LIMIT),
  })
  .strict();

/** A request that is refused as given (the edge's refusals included): `kind` bad_request, never retryable. */
function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw new HttpError(400, r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
}

/**
 * `{error: {message, kind, retryable}}`: the farm's typed errors say whether trying again can help, and the
 * status says the same over HTTP (503 retryable, 422 a request that cannot succeed as given).
 */
function ragError(err: unknown): HttpError {
  if (err instanceof RouteNotFound) return refused(404, `no route ${err.path}`);
  if (err instanceof MethodNotAllowed) {
    return new HttpError(405, `${err.path} takes ${err.allow.join(', ')}`, {
      extra: { kind: 'bad_request', retryable: false },
      headers: err.headers,
    });
  }
  if (err instanceof AccessDenied) {
    return new HttpError(err.status, err.message, {
      extra: { kind: 'unauthorized', retryable: false },
      headers: err.headers,
    });
  }
  if (err instanceof HttpError) return refused(err.status, err.message, err.headers);
  if (err instanceof FarmError) {
    return new HttpError(err.retryable ? 503 : 422, err.message, {
      extra: { kind: err.name, retryable: err.retryable },
    });
  }
  return new HttpError(500, errorMessage(err), { extra: { kind: 'internal', retryable: true } });
}

const refused = (status: number, message: string, headers?: Record<string, string>) =>
  new HttpError(status, message, { extra: { kind: 'bad_request', retryable: false }, headers });

export interface RagHttpServer {
  url: string;
  port: number;
  /** Stops accepting requests and waits for those in flight (an index run may take a while). */
  close(): Promise<void>;
}

/**
 * The rag-service's HTTP JSON API over a `RagApi`:
 *   POST /v1/index {repoUrl, commit, ref?}      → IndexResult (synchronous; concurrent calls for a commit share a run)
 *   POST /v1/snippets {repo, commit, blobIds}  → {chunks}
 *   POST /v1/search {repo, commit, query, limit?} → {results}
 *   GET /metrics, GET /healthz (open; the others ask for FARM_COMPONENT_TOKEN when the service has one)
 * Errors are `{error: {message, kind, retryable}}`: 400 bad input, 422 a request that cannot succeed as
 * given (e.g. unknown commit), 503 a retryable failure (git or the index backend unreachable).
 */
export async function startRagHttpServer(opts: {
  rag: RagApi;
  port?: number;
  host?: string;
  log?: Logger;
  /** FARM_COMPONENT_TOKEN: every call but /healthz and /metrics must carry it; without one the service is open. */
  componentToken?: string;
}): Promise<RagHttpServer> {
  const log = opts.log ?? silentLogger;
  const { rag } = opts;

  // Its clients send JSON without always saying so.
  const body = (r: EdgeRequest) => r.json({ requireJsonType: false });
  const routes: Route[] = [
    {
      method: 'POST',
      path: '/v1/index',
      handler: async (r) => {
        const req = parse(indexBody, await body(r));
        const stop = ragMetrics.indexSeconds.startTimer();
        try {
          const result = await rag.indexRepo({ repoUrl: req.repoUrl, commit: req.commit, ref: req.ref ?? req.commit });
          stop({ outcome: result.indexed ? 'indexed' : 'already_indexed' });
          if (result.indexed) ragMetrics.indexChunks.inc(result.chunks);
          return json(200, result);
        } catch (err) {
          stop({ outcome: 'failed' });
          throw err;
        }
      },
    },
    {
      method: 'POST',
      path: '/v1/snippets',
      handler: async (r) => {
        const req = parse(snippetsBody, await body(r));
        return json(200, { chunks: await rag.snippetsByBlobIds(req.repo, req.commit, req.blobIds) });
      },
    },
    {
      method: 'POST',
      path: '/v1/search',
      handler: async (r) => {
        const req = parse(searchBody, await body(r));
        const stop = ragMetrics.searchSeconds.startTimer();
        try {
          return json(200, { results: await rag.search(req.repo, req.commit, req.query, req.limit) });
        } finally {
          stop();
        }
      },
    },
    { method: 'GET', path: '/healthz', handler: async () => ({ status: 200, body: 'ok' }), authorize: allowAll },
    { ...metricsRoute(), authorize: allowAll },
  ];
  if (!opts.componentToken) log.warn('FARM_COMPONENT_TOKEN is not set: the rag-service answers anyone who reaches it');
  const edge = createHttpEdge({
    routes,
    log,
    authorize: opts.componentToken ? componentOnly(opts.componentToken) : allowAll,
    toHttpError: ragError,
    onAnswered: ({ route, status }) => ragMetrics.requests.inc({ route: route ?? 'other', status }),
  });
  const server = await serveHttpEdge(edge, { port: opts.port, host: opts.host ?? '127.0.0.1' });
  log.info('rag-service listening', { port: server.port });
  return server;
}
