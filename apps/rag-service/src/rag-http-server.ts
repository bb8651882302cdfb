import http from 'node:http';
import { DEFAULT_SEARCH_LIMIT, type RagApi } from '@farm/rag';
import { FarmError, errorMessage, metricsRegistry, silentLogger, z, type Logger } from '@farm/runtime';
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

const MAX_BODY_BYTES = 1 << 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw new HttpError(400, r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw new HttpError(400, `body is not JSON: ${errorMessage(err)}`);
  }
}

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
 *   GET /metrics, GET /healthz
 * Errors are `{error: {message, kind, retryable}}`: 400 bad input, 422 a request that cannot succeed as
 * given (e.g. unknown commit), 503 a retryable failure (git or the index backend unreachable).
 */
export async function startRagHttpServer(opts: {
  rag: RagApi;
  port?: number;
  host?: string;
  log?: Logger;
}): Promise<RagHttpServer> {
  const log = opts.log ?? silentLogger;
  const { rag } = opts;

  const routes: Record<string, (body: unknown) => Promise<unknown>> = {
    '/v1/index': async (body) => {
      const req = parse(indexBody, body);
      const stop = ragMetrics.indexSeconds.startTimer();
      try {
        const result = await rag.indexRepo({ repoUrl: req.repoUrl, commit: req.commit, ref: req.ref ?? req.commit });
        stop({ outcome: result.indexed ? 'indexed' : 'already_indexed' });
        if (result.indexed) ragMetrics.indexChunks.inc(result.chunks);
        return result;
      } catch (err) {
        stop({ outcome: 'failed' });
        throw err;
      }
    },
    '/v1/snippets': async (body) => {
      const req = parse(snippetsBody, body);
      return { chunks: await rag.snippetsByBlobIds(req.repo, req.commit, req.blobIds) };
    },
    '/v1/search': async (body) => {
      const req = parse(searchBody, body);
      const stop = ragMetrics.searchSeconds.startTimer();
      try {
        return { results: await rag.search(req.repo, req.commit, req.query, req.limit) };
      } finally {
        stop();
      }
    },
  };

  const send = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type });
    res.end(type === 'application/json' ? JSON.stringify(body) : String(body));
  };

  const server = http.createServer(async (req, res) => {
    const route = (req.url ?? '/').split('?')[0];
    let status = 200;
    try {
      if (req.method === 'GET' && route === '/healthz') return send(res, 200, 'ok', 'text/plain');
      if (req.method === 'GET' && route === '/metrics')
        return send(res, 200, await metricsRegistry.metrics(), metricsRegistry.contentType);
      const handler = routes[route];
      if (!handler) throw new HttpError(404, `no route ${route}`);
      if (req.method !== 'POST') throw new HttpError(405, `${route} takes POST`);
      send(res, 200, await handler(await readJson(req)));
    } catch (err) {
      let kind = 'internal';
      let retryable = true;
      if (err instanceof HttpError) {
        status = err.status;
        kind = 'bad_request';
        retryable = false;
      } else if (err instanceof FarmError) {
        // The farm's typed errors say whether trying again can help; the status says the same over HTTP.
        status = err.retryable ? 503 : 422;
        kind = err.name;
        retryable = err.retryable;
      } else {
        status = 500;
      }
      if (status >= 500) log.error('request failed', { route, status, err });
      else log.warn('request refused', { route, status, err: errorMessage(err) });
      send(res, status, { error: { message: errorMessage(err), kind, retryable } });
    } finally {
      ragMetrics.requests.inc({
        route: routes[route] || route === '/metrics' || route === '/healthz' ? route : 'other',
        status,
      });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  const host = opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1';
  log.info('rag-service listening', { port });
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
