import http from 'node:http';
import { FarmError, errorMessage, metricsRegistry, silentLogger, type Logger } from '@farm/runtime';
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
  type SymbolLeases,
} from '@farm/srm-client';

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
const MAX_BODY_BYTES = 1 << 20;

type Reply = { status: number; body?: unknown; contentType?: string };
type Route = (params: string[], body: unknown, query: URLSearchParams) => Promise<Reply>;

function routes(leases: SymbolLeases, healthy: () => Promise<boolean>): [string, RegExp, Route][] {
  const ok = (body: unknown): Reply => ({ status: 200, body });
  return [
    [
      'POST',
      /^\/v1\/leases\/reserve$/,
      async (_, body) =>
        ok({ leases: (await leases.reserve(parseRequest(reserveRequestSchema, body))).map(leaseToJson) }),
    ],
    [
      'POST',
      /^\/v1\/leases\/([^/]+)\/renew$/,
      async ([id], body) => {
        const r = parseRequest(renewRequestSchema, body);
        return ok({ lease: leaseToJson(await leases.renew(id, r.fencingToken, r.ttlSeconds)) });
      },
    ],
    [
      'POST',
      /^\/v1\/leases\/([^/]+)\/claim$/,
      async ([id], body) => {
        const r = parseRequest(claimRequestSchema, body);
        return ok({ lease: leaseToJson(await leases.claim(id, r.fencingToken, r.commitSha)) });
      },
    ],
    [
      'POST',
      /^\/v1\/leases\/([^/]+)\/release$/,
      async ([id], body) => {
        await leases.release(id, parseRequest(releaseRequestSchema, body).fencingToken);
        return { status: 204 };
      },
    ],
    [
      'POST',
      /^\/v1\/holders\/([^/]+)\/release$/,
      async ([holder]) => ok({ released: await leases.releaseHolder(holder) }),
    ],
    [
      'POST',
      /^\/v1\/change-requests\/([^/]+)\/release$/,
      async ([id]) => ok({ released: await leases.releaseForChangeRequest(id) }),
    ],
    [
      'GET',
      /^\/v1\/leases$/,
      async (_, __, query) => {
        const filter = parseRequest(leaseFilterSchema, Object.fromEntries(query));
        return ok({ leases: (await leases.liveLeases(filter)).map(leaseToJson) });
      },
    ],
    // Ready only when the database answers, so a load balancer stops sending to a replica that cannot.
    ['GET', /^\/healthz$/, async () => ((await healthy()) ? { status: 200, body: 'ok' } : { status: 503, body: 'db' })],
  ];
}

/**
 * The srm HTTP JSON API over any SymbolLeases (PostgreSQL in a cluster, PGlite on one machine), with
 * /metrics and /healthz. Typed errors map to 400/404/409/410 with `{error: {kind, message, details}}`.
 */
export async function startSrmServer(opts: {
  leases: SymbolLeases;
  port: number;
  host?: string;
  log?: Logger;
  /** Readiness probe; defaults to listing one repo's leases. */
  healthy?: () => Promise<boolean>;
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
  const table = routes(opts.leases, healthy);

  const handle = async (req: http.IncomingMessage): Promise<Reply> => {
    const url = new URL(req.url ?? '/', 'http://srm');
    if (req.method === 'GET' && url.pathname === '/metrics') {
      return { status: 200, body: await metricsRegistry.metrics(), contentType: metricsRegistry.contentType };
    }
    const matches = table.filter(([, re]) => re.test(url.pathname));
    const route = matches.find(([method]) => method === req.method);
    if (!route) {
      return matches.length
        ? {
            status: 405,
            body: { error: { kind: 'MethodNotAllowed', message: `${req.method} ${url.pathname}`, details: {} } },
          }
        : { status: 404, body: { error: { kind: 'NoSuchRoute', message: url.pathname, details: {} } } };
    }
    const params = route[1].exec(url.pathname)!.slice(1).map(decodePathSegment);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    return route[2](params, body, url.searchParams);
  };

  const server = http.createServer((req, res) => {
    // Every failure is turned into an answer above; nothing is left to reject.
    void handle(req)
      .catch((err): Reply => {
        if (err instanceof FarmError && STATUS[err.name]) return { status: STATUS[err.name], body: errorToBody(err) };
        log.error('srm request failed', { method: req.method, url: req.url, err: errorMessage(err) });
        return { status: 500, body: { error: { kind: 'Internal', message: errorMessage(err), details: {} } } };
      })
      .then(({ status, body, contentType }) => {
        res.statusCode = status;
        if (body === undefined) return res.end();
        if (typeof body === 'string') {
          res.setHeader('content-type', contentType ?? 'text/plain');
          return res.end(body);
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', resolve);
  });
  const port = (server.address() as { port: number }).port;
  log.info('srm listening', { port });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections(); // keep-alive sockets would otherwise hold close() open
      }),
  };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new InvalidLeaseRequest([`body: larger than ${MAX_BODY_BYTES} bytes`]);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidLeaseRequest([`body: not JSON (${errorMessage(err)})`]);
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new InvalidLeaseRequest([`path: malformed escape in ${segment}`]);
  }
}
