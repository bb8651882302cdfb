import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlStore } from './store';

/** Embedded Postgres for one machine; dataDir keeps state across restarts (in memory when omitted). */
export async function createPgliteStore(dataDir?: string): Promise<SqlStore> {
  if (dataDir) mkdirSync(dataDir, { recursive: true }); // a fresh FARM_STATE_DIR
  const db = await PGlite.create(dataDir);
  // PGlite has one connection: queue statements so a transaction is not interleaved with other queries.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    query: (sql, params) =>
      serial(async () => {
        // Parameterless statements may hold several commands (migrations); exec runs them all.
        if (!params?.length && sql.includes(';')) {
          const results = await db.exec(sql);
          return { rows: (results.at(-1)?.rows ?? []) as never[] };
        }
        return { rows: (await db.query(sql, params)).rows as never[] };
      }),
    transaction: (fn) =>
      serial(() =>
        db.transaction((tx) =>
          fn({
            query: async (sql, params) => {
              if (!params?.length && sql.includes(';')) {
                const results = await tx.exec(sql);
                return { rows: (results.at(-1)?.rows ?? []) as never[] };
              }
              return { rows: (await tx.query(sql, params)).rows as never[] };
            },
          }),
        ),
      ),
    close: () => db.close(),
  };
}
