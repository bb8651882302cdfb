import type { Logger } from './logger';
import { ConfigError, errorMessage } from './errors';
import { beginStopping } from './stopping';
import { collectProcessMetrics, serveMetrics, type HealthCheck, type RouteHandler } from './metrics';
import { portTaken, PortInUse } from './port-holder';
import net from 'node:net';

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
  const exitOnConfigError = (err: unknown): never => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  };
  // The port first: one in use is refused at once, naming who holds it, before anything starts or is announced.
  // Read without waiting: nothing of the process runs meanwhile (a configuration error stays its only line).
  const taken = metricsPort ? portTaken(metricsPort, host ?? '0.0.0.0') : undefined;
  if (taken) exitOnConfigError(taken);
  // Held while the process starts: a child it starts on an ephemeral port (farm up's git server) could otherwise
  // be given this very port by the kernel, and the process would then refuse its own port.
  const held = metricsPort ? await holdPort(metricsPort, host).catch(exitOnConfigError) : undefined;
  const service = await start()
    .catch(exitOnConfigError)
    .finally(() => held?.close());
  await held?.closed;
  const metrics =
    metricsPort === undefined
      ? undefined
      : await serveMetrics(metricsPort, log, service.routes, service.health, host, service.readiness).catch(
          exitOnConfigError,
        );
  collectProcessMetrics();
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    beginStopping(signal); // model and forge calls in flight end now; their work is redone by the next start
    service
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

/** A listener on the port, only to keep it; closed (and `closed` resolved) before the real server binds. */
async function holdPort(port: number, host?: string): Promise<{ close(): void; closed: Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUse(host ?? '0.0.0.0', port, 'FARM_METRICS_PORT') : err),
    );
    server.listen(port, host, () => resolve());
  });
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  return { close: () => server.close(() => done()), closed };
}
