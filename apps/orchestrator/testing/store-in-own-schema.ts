import { randomUUID } from 'node:crypto';
import { createPgStore, type SqlStore } from '@farm/store';

/** A schema of its own in the test database (DATABASE_URL), so row counts see only one test file's writes. */
export async function storeInOwnSchema(prefix: string): Promise<{ store: SqlStore; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = createPgStore(process.env.DATABASE_URL!);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    store: createPgStore(url.toString()),
    async drop() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}
