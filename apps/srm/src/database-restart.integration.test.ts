// The srm on a PostgreSQL of the test's own, restarted while an agent claims its lease (never the shared one).
import { silentLogger } from '@farm/runtime';
import { createPgStore } from '@farm/store';
import { HttpSymbolLeases, PostgresSymbolLeases } from '@farm/srm-client';
import { startPostgres, type LocalPostgres } from '../../../scripts/local-services/postgres';
import { startSrmServer } from './server';

let pg: LocalPostgres;
beforeAll(async () => {
  pg = await startPostgres({ log: silentLogger });
}, 120_000);
afterAll(() => pg?.stop());

test("the srm survives a restart of its database, and an agent's claim made meanwhile succeeds once it is back", async () => {
  const store = createPgStore(pg.url, { log: silentLogger });
  const leases = await PostgresSymbolLeases.open(store, silentLogger);
  const srm = await startSrmServer({ leases, port: 0, host: '127.0.0.1', log: silentLogger });
  const agent = new HttpSymbolLeases(srm.url, { retryForMs: 60_000 });
  const healthz = async () => (await fetch(`${srm.url}/healthz`)).status;
  try {
    const [lease] = await agent.reserve({
      repo: 'http://git/calc.git',
      symbols: ['calc.multiply'],
      holder: 'task-1',
      changeRequestId: 'cr-1',
      ttlSeconds: 600,
    });
    await pg.halt('fast');
    expect(await healthz()).toBe(503); // the srm is up and says its database is not
    const direct = await fetch(`${srm.url}/v1/leases?holder=task-1`);
    expect([direct.status, ((await direct.json()) as { error: { kind: string } }).error.kind]).toEqual([
      503,
      'StoreUnavailable',
    ]);
    let settled = false;
    const claim = agent.claim(lease.id, lease.fencingToken, 'abc1234').finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 1_500)); // answered 503 meanwhile, and tried again
    expect(settled).toBe(false);
    await pg.resume();
    expect(await claim).toMatchObject({ id: lease.id, state: 'CLAIMED', commitSha: 'abc1234' });
    expect(await healthz()).toBe(200);
  } finally {
    await srm.close();
    leases.close();
    await store.close();
  }
}, 120_000);
