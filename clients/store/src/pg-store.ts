import type { Pool } from 'pg';
import { createLogger, type Logger } from '@farm/runtime';
import { asStoreError, isConnectionError } from './connection-errors';
import type { SqlExecutor, SqlStore } from './store';

/**
 * PostgreSQL through a pool. A restart of the server is survived: a dropped idle connection is logged (it
 * would otherwise be an unhandled 'error' event that ends the process) and the pool opens a new one on the
 * next query; statements that fail because the connection did are StoreUnavailable, retryable, so the bus
 * redelivers the message that ran them.
 */
export function createPgStore(connectionString: string, options: { max?: number; log?: Logger } = {}): SqlStore {
  const log = options.log ?? createLogger('store');
  // pg is loaded with the first statement, not on import: a process that only reaches this module skips it.
  let opened: Promise<Pool> | undefined;
  const openPool = () =>
    (opened ??= import('pg').then(({ Pool }) => {
      const pool = new Pool({ connectionString, max: options.max ?? 5, connectionTimeoutMillis: 10_000 });
      pool.on('error', (err) =>
        log.warn('database connection lost; the pool reconnects on the next query', { err: err.message }),
      );
      return pool;
    }));
  const query: SqlExecutor['query'] = async (sql, params) => {
    const pool = await openPool();
    try {
      const r = await pool.query(sql, params as unknown[]);
      return { rows: r.rows };
    } catch (err) {
      throw asStoreError(err);
    }
  };
  return {
    query,
    async transaction(fn) {
      const client = await (await openPool()).connect().catch((err: unknown) => {
        throw asStoreError(err);
      });
      // A checked-out client reports a dropped connection on itself, not on the pool.
      const onError = (err: Error) => log.warn('database connection lost during a transaction', { err: err.message });
      client.on('error', onError);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async (sql, params) => ({ rows: (await client.query(sql, params as unknown[])).rows }),
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        if (isConnectionError(err)) broken = err as Error;
        else await client.query('ROLLBACK').catch((rollbackErr: Error) => (broken = rollbackErr));
        throw asStoreError(err);
      } finally {
        client.off('error', onError);
        client.release(broken); // a broken connection is closed, not handed out again
      }
    },
    close: async () => (await openPool()).end(),
  };
}
