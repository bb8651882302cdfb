import { Pool } from 'pg';
import type { SqlExecutor, SqlStore } from './store';

export function createPgStore(connectionString: string, options: { max?: number } = {}): SqlStore {
  const pool = new Pool({ connectionString, max: options.max ?? 5 });
  const query: SqlExecutor['query'] = async (sql, params) => {
    const r = await pool.query(sql, params as unknown[]);
    return { rows: r.rows };
  };
  return {
    query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async (sql, params) => ({ rows: (await client.query(sql, params as unknown[])).rows }),
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
