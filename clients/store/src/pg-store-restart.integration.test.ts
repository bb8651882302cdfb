// A PostgreSQL of the test's own, stopped and started under a live pool (never the shared one).
import { silentLogger } from '@farm/runtime';
import { startPostgres, type LocalPostgres } from '../../../scripts/local-services/postgres';
import { StoreUnavailable } from './connection-errors';
import { createPgStore } from './pg-store';

let pg: LocalPostgres;
beforeAll(async () => {
  pg = await startPostgres({ log: silentLogger });
}, 120_000);
afterAll(() => pg?.stop());

test('a restart of PostgreSQL is survived: failures meanwhile are retryable, then the pool reconnects', async () => {
  const store = createPgStore(pg.url, { log: silentLogger, max: 3 });
  try {
    await store.query('CREATE TABLE restart_items (id text PRIMARY KEY)');
    // Three idle connections in the pool: each one's end is an 'error' event, which ended the process before.
    await Promise.all(['a', 'b', 'c'].map((id) => store.query('INSERT INTO restart_items VALUES ($1)', [id])));
    await pg.halt('fast'); // connections are ended by the server, as on a restart

    const query = await store.query('SELECT 1').catch((e: unknown) => e);
    expect(query).toBeInstanceOf(StoreUnavailable);
    expect(query).toMatchObject({ retryable: true });
    const tx = await store
      .transaction((t) => t.query('INSERT INTO restart_items VALUES ($1)', ['during']))
      .catch((e: unknown) => e);
    expect(tx).toBeInstanceOf(StoreUnavailable);

    await pg.resume();
    // A statement error is still itself, not a connection problem.
    await expect(store.query('INSERT INTO restart_items VALUES ($1)', ['a'])).rejects.toThrow(/duplicate key/);
    await store.transaction((t) => t.query('INSERT INTO restart_items VALUES ($1)', ['after']));
    const { rows } = await store.query<{ id: string }>('SELECT id FROM restart_items ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(['a', 'after', 'b', 'c']);
  } finally {
    await store.close();
  }
}, 120_000);
