import { mkdirSync } from 'node:fs';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlExecutor, SqlStore } from './store';

/** Embedded Postgres for one machine; dataDir keeps state across restarts (in memory when omitted). */
export async function createPgliteStore(dataDir?: string): Promise<SqlStore> {
  if (dataDir) mkdirSync(dataDir, { recursive: true }); // a fresh FARM_STATE_DIR
  // Loaded when a store opens, not on import: a process that only reaches this module (an agent) skips it.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dataDir);
  return sqlStoreOnPglite(db, { close: () => db.close() });
}

/** What the store uses of a PGlite. */
export type PgliteConnection = Pick<PGlite, 'query' | 'exec'> & {
  transaction<T>(fn: (tx: Pick<Transaction, 'query' | 'exec'>) => Promise<T>): Promise<T>;
};

interface Connection {
  /** The tail of the statements queued on it. */
  queue: Promise<unknown>;
  /** The schema its search_path was last set to by a store in a schema. */
  schema?: string;
}
const connections = new WeakMap<PgliteConnection, Connection>();

/**
 * A SqlStore over one PGlite connection. With `schema`, its statements run in that schema (created if need
 * be), so that several stores can share one PGlite without seeing each other's tables.
 */
export function sqlStoreOnPglite(db: PgliteConnection, options: { close(): Promise<void>; schema?: string }): SqlStore {
  // PGlite has one connection: queue statements so a transaction is not interleaved with other queries.
  const connection = connections.get(db) ?? { queue: Promise.resolve() };
  connections.set(db, connection);
  const { schema } = options;
  let schemaCreated = false;
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const inSchema = async () => {
      if (schema && connection.schema !== schema) {
        if (!schemaCreated) await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        schemaCreated = true;
        await db.exec(`SET search_path TO ${schema}`);
        connection.schema = schema;
      }
      return fn();
    };
    const run = connection.queue.then(inSchema, inSchema);
    connection.queue = run.catch(() => undefined);
    return run;
  };
  const executor = (on: Pick<Transaction, 'query' | 'exec'>): SqlExecutor => ({
    query: async (sql, params) => {
      // Parameterless statements may hold several commands (migrations); exec runs them all.
      if (!params?.length && sql.includes(';')) {
        const results = await on.exec(sql);
        return { rows: (results.at(-1)?.rows ?? []) as never[] };
      }
      return { rows: (await on.query(sql, params)).rows as never[] };
    },
  });
  const direct = executor(db);
  return {
    query: (sql, params) => serial(() => direct.query(sql, params)),
    transaction: (fn) => serial(() => db.transaction((tx) => fn(executor(tx)))),
    close: options.close,
  };
}
