import type { Logger } from './logger';
import { ConfigError, errorMessage } from './errors';
import { beginStopping } from './stopping';
import { collectProcessMetrics, serveMetrics, type HealthCheck, type RouteHandler } from './metrics';

export interface RunningService {
  stop(): Promise<void>;
  routes?: RouteHandler;
  /** What /healthz reports (e.g. the bus's consumers); always healthy when omitted. */
  health?: HealthCheck;
  /**
   * What /readyz reports besides /healthz: a condition under which the process should get no traffic but a
   * restart cannot help (a readiness probe, not a liveness probe).
   */
  readiness?: HealthCheck;
}

/**
 * Runs a long-lived process: starts it, serves /metrics, and on SIGTERM/SIGINT stops consuming, lets the
 * current work finish and exits 0. A configuration error exits 78 with the message, without a stack.
 */
export async function runService(
  log: Logger,
  metricsPort: number | undefined,
  start: () => Promise<RunningService>,
  /** The address /metrics and the routes listen on; every address when omitted. */
  host?: string,
): Promise<void> {
  // The port first: one in use is refused at once, naming who holds it, before anything starts or is announced.
  // Until the service is up its routes answer 503 and /healthz says it is starting.
  let service: RunningService | undefined;
  const exitOnConfigError = (err: unknown): never => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  };
  const metrics =
    metricsPort === undefined
      ? undefined
      : await serveMetrics(
          metricsPort,
          log,
          async (req, res) => {
            if (service) return service.routes ? service.routes(req, res) : false;
            if (/^\/(metrics|healthz|readyz)(\?|$)/.test(req.url ?? '')) return false;
            res.statusCode = 503;
            res.setHeader('retry-after', '2');
            res.end('starting\n');
            return true;
          },
          () =>
            service
              ? (service.health?.() ?? { healthy: true, reasons: [] })
              : { healthy: false, reasons: ['starting'] },
          host,
          () => service?.readiness?.() ?? { healthy: true, reasons: [] },
        ).catch(exitOnConfigError);
  try {
    service = await start();
  } catch (err) {
    await metrics?.close();
    exitOnConfigError(err);
  }
  collectProcessMetrics();
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    beginStopping(signal); // model and forge calls in flight end now; their work is redone by the next start
    service!
      .stop()
      .then(() => metrics?.close())
      .then(
        () => process.exit(0),
        (err) => {
          log.error('shutdown failed', { err: errorMessage(err) });
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  log.info('started');
}
