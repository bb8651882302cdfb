import { testPgliteStore } from './test-pglite-store';

describe("a unit test's PGlite store (a schema on the worker's PGlite)", () => {
  it('sees only its own tables, even while another store uses the same PGlite', async () => {
    const [a, b] = await Promise.all([testPgliteStore(), testPgliteStore()]);
    try {
      await a.query('CREATE TABLE notes (body text)');
      await b.query('CREATE TABLE notes (body text)');
      await Promise.all([
        a.query('INSERT INTO notes VALUES ($1)', ['a']),
        b.query('INSERT INTO notes VALUES ($1)', ['b']),
        a.query('INSERT INTO notes VALUES ($1)', ['a2']),
      ]);
      expect((await a.query('SELECT body FROM notes ORDER BY body')).rows).toEqual([{ body: 'a' }, { body: 'a2' }]);
      expect((await b.query('SELECT body FROM notes')).rows).toEqual([{ body: 'b' }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('rolls a failed transaction back, and its errors are errors of the test', async () => {
    const store = await testPgliteStore();
    try {
      await store.query('CREATE TABLE t (n int PRIMARY KEY, at timestamptz)');
      const failed = store.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES ($1, $2)', [1, new Date('2026-01-02T03:04:05Z')]);
        await tx.query('INSERT INTO t VALUES ($1, $2)', [1, new Date()]);
      });
      await expect(failed).rejects.toBeInstanceOf(Error);
      await expect(failed).rejects.toThrow(/duplicate key/);
      expect((await store.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 0 }]);
      await store.query('INSERT INTO t VALUES ($1, $2)', [2, new Date('2026-01-02T03:04:05Z')]);
      const [row] = (await store.query<{ at: Date }>('SELECT at FROM t')).rows;
      expect(new Date(row.at).toISOString()).toBe('2026-01-02T03:04:05.000Z');
    } finally {
      await store.close();
    }
  });
});
