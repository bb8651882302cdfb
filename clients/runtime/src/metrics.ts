import http from 'node:http';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { errorMessage } from './errors';
import { PortInUse } from './port-holder';
import type { Logger } from './logger';

/** One registry per process; every component registers its farm_<component>_* metrics on it. */
export const metricsRegistry = new Registry();
let defaultsCollected = false;

export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'farm_' });
  // prom-client names three gauges *_total (a counter's suffix: promtool refuses them); their by-type gauges
  // (farm_nodejs_active_handles{type}, ...) stay, and sum() gives the totals.
  for (const what of ['handles', 'requests', 'resources'])
    metricsRegistry.removeSingleMetric(`farm_nodejs_active_${what}_total`);
}

/** Extra routes a service serves beside /metrics; returns false when the request is not its own. */
export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>;

/**
 * Whether a process can do its work; /healthz answers 503 with the reasons when it cannot. Reasons of a healthy
 * process say how it is degraded (e.g. still probing its sandbox): 200, with them after `ok`.
 */
export interface HealthStatus {
  healthy: boolean;
  reasons: string[];
}

export type HealthCheck = () => HealthStatus | Promise<HealthStatus>;

/**
 * Serves GET /metrics (Prometheus text format), GET /healthz (200 `ok`, or 503 with the health check's
 * reasons as JSON), GET /readyz (the same, with the readiness check's reasons added) and the service's own
 * routes. Port 0 picks a free port; every address unless `host` says.
 */
export async function serveMetrics(
  port: number,
  log?: Logger,
  routes?: RouteHandler,
  health?: HealthCheck,
  host = '0.0.0.0',
  readiness?: HealthCheck,
  /** The setting that chooses the port, named when it is in use. */
  portSetting = 'FARM_METRICS_PORT',
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    if (routes) {
      const handled = await routes(req, res).catch((err) => {
        // A route that failed without answering would leave the client hanging: answer 500 for it.
        log?.error('route failed', { method: req.method, url: req.url, err: errorMessage(err) });
        if (res.headersSent) res.destroy();
        else {
          res.statusCode = 500;
          res.end();
        }
        return true;
      });
      if (handled) return;
    }
    if (req.url === '/metrics') {
      res.setHeader('content-type', metricsRegistry.contentType);
      res.end(await metricsRegistry.metrics());
    } else if (req.url === '/healthz' || req.url === '/readyz') {
      const checks = req.url === '/readyz' ? [health, readiness] : [health];
      const results = await Promise.all(checks.map((c) => (c ? c() : { healthy: true, reasons: [] })));
      const status = { healthy: results.every((r) => r.healthy), reasons: results.flatMap((r) => r.reasons) };
      if (status.healthy) res.end(status.reasons.length ? `ok (${status.reasons.join('; ')})` : 'ok');
      else {
        res.statusCode = 503;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(status));
      }
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUse(host, port, portSetting) : err),
    );
    server.listen(port, host, resolve);
  });
  const actual = (server.address() as { port: number }).port;
  log?.info('metrics listening', { port: actual, host });
  return {
    port: actual,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections(); // long-lived ones (event streams) would otherwise hold the close up
      }),
  };
}
