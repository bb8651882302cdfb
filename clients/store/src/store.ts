/** The relational state the orchestrator (and later the srm) keep: PostgreSQL in a cluster, PGlite on one machine. */
export interface SqlExecutor {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[] }>;
}

export interface SqlStore extends SqlExecutor {
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A change of the schema, applied once. */
export interface Migration {
  name: string;
  sql: string;
  /** A change of rows SQL cannot say (a redaction in the farm's own code), in the same transaction, after `sql`. */
  data?: (tx: SqlExecutor) => Promise<void>;
}

/** Applies each named migration once, in order, recording it in farm_migrations. */
export async function migrate(store: SqlStore, migrations: Migration[]): Promise<void> {
  await store.query(
    'CREATE TABLE IF NOT EXISTS farm_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const m of migrations) {
    await store.transaction(async (tx) => {
      // The lock serialises concurrent start-ups of several replicas on one database.
      await tx.query('LOCK TABLE farm_migrations IN EXCLUSIVE MODE');
      const done = await tx.query('SELECT 1 FROM farm_migrations WHERE name = $1', [m.name]);
      if (done.rows.length) return;
      if (m.sql.trim()) await tx.query(m.sql);
      await m.data?.(tx);
      await tx.query('INSERT INTO farm_migrations (name) VALUES ($1)', [m.name]);
    });
  }
}
