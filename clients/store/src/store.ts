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

/** Applies each named migration once, in order, recording it in farm_migrations. */
export async function migrate(store: SqlStore, migrations: { name: string; sql: string }[]): Promise<void> {
  await store.query(
    'CREATE TABLE IF NOT EXISTS farm_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const m of migrations) {
    await store.transaction(async (tx) => {
      // The lock serialises concurrent start-ups of several replicas on one database.
      await tx.query('LOCK TABLE farm_migrations IN EXCLUSIVE MODE');
      const done = await tx.query('SELECT 1 FROM farm_migrations WHERE name = $1', [m.name]);
      if (done.rows.length) return;
      await tx.query(m.sql);
      await tx.query('INSERT INTO farm_migrations (name) VALUES ($1)', [m.name]);
    });
  }
}
