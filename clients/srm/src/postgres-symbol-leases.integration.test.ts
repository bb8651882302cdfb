import { metricsRegistry } from '@farm/runtime';
import { createPgliteStore, createPgStore, type SqlStore } from '@farm/store';
import { PostgresSymbolLeases } from './postgres-symbol-leases';
import { describeSymbolLeasesContract, describeTaskCommitsContract } from '../testing';

const openWith = (openStore: () => Promise<SqlStore>) => async () => {
  const store = await openStore();
  const leases = await PostgresSymbolLeases.open(store);
  return {
    leases,
    close: async () => {
      leases.close();
      await store.close();
    },
  };
};

// Several connections, so the racing reservations really run in parallel transactions.
describeSymbolLeasesContract(
  'symbol leases on PostgreSQL (integration, real server)',
  openWith(async () => createPgStore(process.env.DATABASE_URL!, { max: 16 })),
);
describeSymbolLeasesContract(
  'symbol leases on PGlite (one machine)',
  openWith(() => createPgliteStore()),
);

describeTaskCommitsContract('the record of task commits on PostgreSQL (integration, real server)', async () => {
  const { leases, close } = await openWith(async () => createPgStore(process.env.DATABASE_URL!))();
  return { commits: leases, close };
});
describeTaskCommitsContract('the record of task commits on PGlite (one machine)', async () => {
  const { leases, close } = await openWith(() => createPgliteStore())();
  return { commits: leases, close };
});

test('the lease metrics count grants, conflicts and live leases', async () => {
  const store = await createPgliteStore();
  const leases = await PostgresSymbolLeases.open(store);
  try {
    const req = { repo: 'r', symbols: ['a', 'b'], holder: 't1', changeRequestId: 'cr', ttlSeconds: 60 };
    const [a] = await leases.reserve(req);
    await expect(leases.reserve({ ...req, holder: 't2' })).rejects.toThrow(/held by t1/);
    await leases.claim(a.id, a.fencingToken, 'abcdef1');
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/farm_srm_lease_grants_total [1-9]/);
    expect(text).toMatch(/farm_srm_lease_conflicts_total [1-9]/);
    expect(text).toMatch(/farm_srm_lease_claims_total\{result="claimed"\} [1-9]/);
    expect(text).toContain('farm_srm_leases_active{state="CLAIMED"} 1');
    expect(text).toContain('farm_srm_leases_active{state="ACTIVE"} 1');
  } finally {
    leases.close();
    await store.close();
  }
});
