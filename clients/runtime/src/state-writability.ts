import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Gauge } from 'prom-client';
import { errorMessage } from './errors';
import type { Logger } from './logger';
import { metricsRegistry, type HealthStatus } from './metrics';

let gauge: Gauge | undefined;
const writableGauge = () =>
  (gauge ??= new Gauge({
    name: 'farm_state_writable',
    help: 'Whether the farm can write its state directory (1) or not (0: a full disk, a read-only or lost mount)',
    registers: [metricsRegistry],
  }));

export interface StateWritability {
  /** Why the state directory cannot be written now; undefined while it can. */
  problem(): string | undefined;
  /** /healthz's part: unhealthy, with the reason, while the state cannot be written. */
  health(): HealthStatus;
  /** Probes now (the timer does every `intervalMs`). */
  probe(): void;
  stop(): void;
}

/**
 * Watches that the farm can write its state directory (its database, the bus journal, the agents' results): a
 * small file written, synced and removed every few seconds. A full disk (ENOSPC) or a lost mount makes it say why,
 * so /healthz, the `farm_state_writable` gauge and the API (which then refuses new work with 503) say so instead of
 * a farm that answers 202 and only logs warnings; it recovers by itself once a write succeeds again.
 */
export function watchStateWritable(dir: string, opts: { intervalMs?: number; log?: Logger } = {}): StateWritability {
  let problem: string | undefined;
  const file = join(dir, '.writable-probe');
  const probe = () => {
    let fd: number | undefined;
    try {
      fd = openSync(file, 'w');
      writeSync(fd, `${Date.now()}\n`);
      fsyncSync(fd);
      if (problem !== undefined) opts.log?.info('the state directory can be written again', { dir });
      problem = undefined;
    } catch (err) {
      const why = `the state directory ${dir} cannot be written: ${errorMessage(err)}`;
      if (problem !== why) opts.log?.error('the state directory cannot be written', { dir, err: errorMessage(err) });
      problem = why;
    } finally {
      if (fd !== undefined) closeSync(fd);
      try {
        rmSync(file, { force: true });
      } catch {
        // the directory itself is the problem, said above
      }
    }
    writableGauge().set(problem === undefined ? 1 : 0);
  };
  probe();
  const timer = setInterval(probe, opts.intervalMs ?? 5_000);
  timer.unref();
  return {
    problem: () => problem,
    health: () => ({ healthy: problem === undefined, reasons: problem === undefined ? [] : [problem] }),
    probe,
    stop: () => clearInterval(timer),
  };
}
