import { silentLogger } from '@farm/runtime';
import { createPgliteStore } from './pglite-store';
import type { SqlStore } from './store';
import { watchStoreReachable } from './store-health';

/** Until `check` holds (the watch pings on its own interval). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 500) throw new Error('never held');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a database that goes away is said by /healthz (degraded, with since when and why) and fails /readyz', async () => {
  let up = true;
  const real = await createPgliteStore();
  // The database as the watch sees it: the real one, or one that refuses connections as a stopped server does.
  const store: SqlStore = {
    ...real,
    query: (sql: string, params?: unknown[]) =>
      up
        ? real.query(sql, params)
        : Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
  } as SqlStore;
  const watch = watchStoreReachable(store, silentLogger, 10);
  try {
    await until(() => watch.readiness().healthy);
    expect(watch.health()).toEqual({ healthy: true, reasons: [] });
    up = false;
    await until(() => !watch.readiness().healthy);
    const health = watch.health();
    expect(health.healthy).toBe(true); // a restart of this process would not bring the database back
    expect(health.reasons).toEqual([
      expect.stringMatching(
        /^degraded: the database is unavailable since \d{4}-\d\d-\d\dT.* \(connect ECONNREFUSED\): submits are refused with 503$/,
      ),
    ]);
    up = true;
    await until(() => watch.readiness().healthy);
    expect(watch.health().reasons).toEqual([]);
  } finally {
    watch.stop();
    await real.close();
  }
});
