import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sqlStoreOnPglite, type PgliteConnection } from '../src/pglite-store';
import type { SqlStore } from '../src/store';

/**
 * The jest worker's one PGlite, when the farm's test environment provides it (scripts/local-services): it is
 * started once per worker, in the worker's own realm, and shared by every test file the worker runs.
 */
declare const farmWorkerPglite: (() => Promise<PgliteConnection>) | undefined;

const adapters = new WeakMap<PgliteConnection, PgliteConnection>();

/**
 * An empty PGlite store for a unit test: a schema of its own on the jest worker's shared PGlite (starting one
 * costs about a second of CPU), or a PGlite of its own outside the farm's test environment. Closing it drops
 * the schema.
 */
export async function testPgliteStore(): Promise<SqlStore> {
  if (typeof farmWorkerPglite !== 'function') {
    const db = await PGlite.create();
    return sqlStoreOnPglite(db, { close: () => db.close() });
  }
  const worker = await farmWorkerPglite();
  // One adapter per PGlite: the stores on it share its statement queue and know which schema is set.
  const db = adapters.get(worker) ?? fromWorkerRealm(worker);
  adapters.set(worker, db);
  const schema = `test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const store = sqlStoreOnPglite(db, { schema, close: async () => undefined });
  // Queued after the store's own statements.
  return { ...store, close: async () => void (await store.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)) };
}

/**
 * The worker's PGlite lives outside the test file's realm (jest gives each file its own globals): values that
 * PGlite recognises with `instanceof` are passed as ones it recognises, and its errors are rethrown as this
 * realm's, so that `instanceof Error` holds in the code under test.
 */
function fromWorkerRealm(db: PgliteConnection): PgliteConnection {
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof Error || typeof err !== 'object' || err === null) throw err;
      throw Object.assign(new Error((err as { message?: string }).message), err);
    }
  };
  const params = (values?: unknown[]) =>
    values?.map((v) =>
      Object.prototype.toString.call(v) === '[object Date]'
        ? (v as Date).toISOString()
        : ArrayBuffer.isView(v)
          ? Buffer.from(v.buffer, v.byteOffset, v.byteLength)
          : v,
    );
  const on = (target: Pick<PgliteConnection, 'query' | 'exec'>) => ({
    query: ((sql: string, values?: unknown[]) =>
      call(() => target.query(sql, params(values)))) as PgliteConnection['query'],
    exec: ((sql: string) => call(() => target.exec(sql))) as PgliteConnection['exec'],
  });
  return { ...on(db), transaction: (fn) => call(() => db.transaction((tx) => fn(on(tx)))) };
}
