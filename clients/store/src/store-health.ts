import { errorMessage, type HealthStatus, type Logger } from '@farm/runtime';
import type { SqlStore } from './store';

/** What a process says of its database: reachable, or away since when and why. */
export interface StoreHealth {
  /** Healthy all the same (restarting the process cannot bring the database back), with the outage as a reason. */
  health(): HealthStatus;
  /** Not ready while the database is away: nothing can be recorded. */
  readiness(): HealthStatus;
  stop(): void;
}

/**
 * Asks the database `SELECT 1` every `intervalMs`, so /healthz says when it is away (submits then get 503) rather
 * than answering a bare `ok` through an outage. The state changes are logged once each.
 */
export function watchStoreReachable(store: SqlStore, log: Logger, intervalMs = 5_000): StoreHealth {
  let away: { since: Date; why: string } | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const ping = async () => {
    try {
      await store.query('SELECT 1');
      if (away) log.info('the database is reachable again', { awayMs: Date.now() - away.since.getTime() });
      away = undefined;
    } catch (err) {
      if (!away)
        log.warn('the database is unavailable: submits are refused until it is back', { err: errorMessage(err) });
      away = { since: away?.since ?? new Date(), why: errorMessage(err) };
    }
    if (!stopped) (timer = setTimeout(() => void ping(), intervalMs)).unref();
  };
  void ping();
  const reason = () =>
    away
      ? [`the database is unavailable since ${away.since.toISOString()} (${away.why}): submits are refused with 503`]
      : [];
  return {
    health: () => ({ healthy: true, reasons: reason().map((r) => `degraded: ${r}`) }),
    readiness: () => ({ healthy: !away, reasons: reason() }),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
