import http from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { errorMessage, metricsRegistry, silentLogger, type Logger } from '@farm/runtime';
import type { Principal } from '@farm/access';
import { AccessDenied, HttpError, MethodNotAllowed, RouteNotFound, badRequest } from './http-error';
import { readJsonBody, type JsonBodyOptions } from './json-body';

/** One request as a handler sees it. */
export interface EdgeRequest {
  req: http.IncomingMessage;
  /** For a handler that answers itself (an event stream). */
  res: http.ServerResponse;
  url: URL;
  method: string;
  /** The matched route's path template, e.g. `/v1/change-requests/:id`. */
  route: string;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  /** A query parameter given at most once (null when absent); given twice it is ambiguous, a 400 naming it. */
  query(name: string): string | null;
  /** The JSON body (see readJsonBody): 413 over the limit, 415 when not declared JSON, 400 when not JSON. */
  json(options?: JsonBodyOptions): Promise<unknown>;
  /** Who is calling, when the auth hook authenticated the request (undefined on routes open to anyone). */
  principal?: Principal;
}

/**
 * What a handler answers: a string body is text/plain unless a content-type is given, anything else JSON;
 * no body, no content. A handler that answered itself (a stream) returns nothing.
 */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: EdgeRequest) => Promise<Reply | void>;

/**
 * What the auth hook decides for a request: go on (as this principal, which the handler then sees), or a 401
 * (who are you?) / 403 (not you) with the reason.
 */
export type Access =
  'allow' | { principal: Principal } | { deny: 401 | 403; message: string; headers?: Record<string, string> };
export type Authorize = (request: EdgeRequest) => Access | Promise<Access>;
/** Today's policy everywhere: every request is allowed. */
export const allowAll: Authorize = () => 'allow';

export interface Route {
  method: HTTPMethod;
  /** find-my-way syntax: `/v1/leases/:id/renew`. */
  path: string;
  handler: Handler;
  /** Overrides the edge's hook for this route (e.g. /healthz open to probes). */
  authorize?: Authorize;
}

export interface HttpEdgeOptions {
  routes: Route[];
  log?: Logger;
  /** Paths outside it are not the edge's: handle() answers false and leaves them to the caller. */
  prefix?: string;
  /** Decides allow/401/403 for every route without its own; allowAll when not given. */
  authorize?: Authorize;
  /**
   * The service's typed errors as HTTP errors (status and body members); undefined leaves the error to
   * the defaults: an HttpError as it is, anything else a 500.
   */
  toHttpError?: (err: unknown, request: { method: string; path: string }) => HttpError | undefined;
  /** Called once a request is answered (route template, or undefined when none matched), e.g. for metrics. */
  onAnswered?: (answer: { method: string; route?: string; status: number }) => void;
}

/** A service's routes: handle() answers a request, or returns false when the path is not under its prefix. */
export interface HttpEdge {
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
}

/**
 * The farm's one HTTP edge: routing (find-my-way), 404 and 405 with Allow, JSON bodies with limits, the auth
 * hook and one error shape, `{"error": {"message", "field"?, ...}}`. No failure escapes as a hung request.
 */
export function createHttpEdge(options: HttpEdgeOptions): HttpEdge {
  const log = options.log ?? silentLogger;
  // Ids of any length reach the handler, which answers for them (404 rather than a router's silence).
  const router = FindMyWay({ maxParamLength: 8192 });
  const methods = new Set<HTTPMethod>();
  for (const route of options.routes) {
    router.on(route.method, route.path, () => undefined, route);
    methods.add(route.method);
  }
  const prefix = options.prefix;

  async function answer(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    matched: { route?: string },
  ): Promise<void> {
    const method = req.method ?? 'GET';
    const path = req.url?.split('?')[0] ?? '/';
    const found = methods.has(method as HTTPMethod) ? router.find(method as HTTPMethod, path) : null;
    if (!found) {
      const allow = [...methods].filter((m) => router.find(m, path));
      throw allow.length ? new MethodNotAllowed(method, url.pathname, allow) : new RouteNotFound(url.pathname);
    }
    const route = found.store as Route;
    matched.route = route.path;
    const request: EdgeRequest = {
      req,
      res,
      url,
      method,
      route: route.path,
      params: found.params as Record<string, string>,
      query: (name) => queryOnce(url, name),
      json: (o) => readJsonBody(req, o),
    };
    const access = await (route.authorize ?? options.authorize ?? allowAll)(request);
    if (access !== 'allow' && 'deny' in access) throw new AccessDenied(access.deny, access.message, access.headers);
    if (access !== 'allow') request.principal = access.principal;
    const reply = await route.handler(request);
    if (reply) send(res, reply);
  }

  return {
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (prefix && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return false;
      const method = req.method ?? 'GET';
      const matched: { route?: string } = {};
      try {
        await answer(req, res, url, matched);
      } catch (err) {
        if (res.headersSent) {
          log.error('request failed after the answer started', { method, path: url.pathname, err: errorMessage(err) });
          res.destroy();
          return true;
        }
        const httpError = options.toHttpError?.(err, { method, path: url.pathname }) ?? asHttpError(err);
        if (httpError.status >= 500) {
          log.error('request failed', { method, path: url.pathname, status: httpError.status, err: errorMessage(err) });
        } else {
          log.debug('request refused', {
            method,
            path: url.pathname,
            status: httpError.status,
            err: errorMessage(err),
          });
        }
        send(res, { status: httpError.status, body: httpError.toBody(), headers: httpError.headers });
      }
      options.onAnswered?.({ method, route: matched.route, status: res.statusCode });
      return true;
    },
  };
}

function asHttpError(err: unknown): HttpError {
  return err instanceof HttpError ? err : new HttpError(500, 'internal error; see the service log', { cause: err });
}

function queryOnce(url: URL, name: string): string | null {
  const values = url.searchParams.getAll(name);
  if (values.length > 1) throw badRequest(`${name} is given ${values.length} times; give it once`, name);
  return values[0] ?? null;
}

export function send(res: http.ServerResponse, reply: Reply): void {
  const headers: Record<string, string | number> = { ...reply.headers };
  let text: string | undefined;
  if (typeof reply.body === 'string') {
    text = reply.body;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (reply.body !== undefined) {
    text = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (text !== undefined) headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}

/** A JSON answer with a status and headers. */
export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

/** GET /metrics: the process's Prometheus registry. */
export const metricsRoute = (): Route => ({
  method: 'GET',
  path: '/metrics',
  handler: async () => ({
    status: 200,
    body: await metricsRegistry.metrics(),
    headers: { 'content-type': metricsRegistry.contentType },
  }),
});

export interface EdgeServer {
  port: number;
  /** http://<host>:<port>, 127.0.0.1 when listening on every address. */
  url: string;
  /** Stops accepting connections and waits for the requests in flight. */
  close(): Promise<void>;
}

/** Serves an edge on its own port (0 picks a free one); paths outside its prefix are 404s without a body. */
export async function serveHttpEdge(edge: HttpEdge, options: { port?: number; host?: string }): Promise<EdgeServer> {
  const server = http.createServer((req, res) => {
    void edge.handle(req, res).then((handled) => handled || res.writeHead(404).end());
  });
  const host = options.host ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections(); // keep-alive sockets would otherwise hold close() open
      }),
  };
}
