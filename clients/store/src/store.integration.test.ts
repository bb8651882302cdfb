import { createPgliteStore } from './pglite-store';
import { createPgStore } from './pg-store';
import { migrate, type SqlStore } from './store';

const scenarios = (name: string, open: () => Promise<SqlStore>) =>
  describe(name, () => {
    let store: SqlStore;
    beforeAll(async () => {
      store = await open();
      await store
        .query("DROP TABLE IF EXISTS store_test_items; DELETE FROM farm_migrations WHERE name = 'store-test-1'")
        .catch(() => undefined);
    });
    afterAll(() => store.close());

    test('migrations apply once and a failed transaction leaves nothing behind', async () => {
      const migrations = [
        { name: 'store-test-1', sql: 'CREATE TABLE store_test_items (id text PRIMARY KEY, n int NOT NULL)' },
      ];
      await migrate(store, migrations);
      await migrate(store, migrations); // second run is a no-op rather than "table exists"
      await store.transaction(async (tx) => {
        await tx.query('INSERT INTO store_test_items VALUES ($1, $2)', ['a', 1]);
      });
      await expect(
        store.transaction(async (tx) => {
          await tx.query('INSERT INTO store_test_items VALUES ($1, $2)', ['b', 2]);
          await tx.query('INSERT INTO store_test_items VALUES ($1, $2)', ['a', 3]); // duplicate key
        }),
      ).rejects.toThrow(/duplicate key/);
      const { rows } = await store.query<{ id: string; n: number }>('SELECT id, n FROM store_test_items ORDER BY id');
      expect(rows).toEqual([{ id: 'a', n: 1 }]);
    });
  });

scenarios('PGlite store (one machine)', () => createPgliteStore());
scenarios('PostgreSQL store (integration, real server)', async () => createPgStore(process.env.DATABASE_URL!));
