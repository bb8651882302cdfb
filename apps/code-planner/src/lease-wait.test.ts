// Two requests on the same symbol: the later one waits for the lease (asked again with the bus's backoff), is
// planned once the earlier one's leases go, and fails naming the holder only past its wait. Real bus semantics
// (the in-process bus's redelivery) and the real srm store (PGlite).
import { InProcessBus, Topics } from '@farm/bus';
import { type farm } from '@farm/proto';
import { silentLogger } from '@farm/runtime';
import { PostgresSymbolLeases } from '@farm/srm-client';
import { createPgliteStore, type SqlStore } from '@farm/store';
import { startCodePlanner } from './code-planner';
import { srmReserver } from './srm-reserver';

const REPO = 'https://git.example.com/team/app.git';
const planOf = (id: string) =>
  Topics.plans.type.fromObject({
    changeRequestId: id,
    repo: { url: REPO, baseRef: 'main' },
    items: [{ itemId: 'mul', goal: 'Add multiply', symbolHints: ['multiply'] }],
  });

let store: SqlStore;
let leases: PostgresSymbolLeases;
beforeAll(async () => {
  store = await createPgliteStore();
  leases = await PostgresSymbolLeases.open(store);
});
afterAll(async () => {
  leases.close();
  await store.close();
});

async function plannerOn(bus: InProcessBus, leaseWaitMs: number) {
  const bundles: farm.v1.ITaskBundle[] = [];
  await bus.subscribe(Topics.taskBundles, 'test', async (b) => void bundles.push(b));
  const planner = await startCodePlanner({
    bus,
    log: silentLogger,
    resolveRef: async () => 'a'.repeat(40),
    locateSymbols: async (_repo, symbols) => new Map(symbols.map((s) => [s, ['calc.py']])),
    leases: srmReserver(leases),
    leaseWaitMs,
  });
  return { bundles, planner };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
};

test('the later request waits for the symbol and is planned with its own lease once the earlier one releases it', async () => {
  const bus = new InProcessBus();
  const { bundles, planner } = await plannerOn(bus, 10 * 60_000);
  try {
    await bus.publish(Topics.plans, planOf('cr-first'));
    await until(() => bundles.length === 1);
    await bus.publish(Topics.plans, planOf('cr-later'));
    // It is not failed for the overlap: no bundle at all while the first request holds multiply.
    await new Promise((r) => setTimeout(r, 1500));
    expect(bundles.map((b) => b.changeRequestId)).toEqual(['cr-first']);

    expect(await leases.releaseForChangeRequest('cr-first')).toBe(1); // its build integrated it
    await until(() => bundles.length === 2);
    const later = bundles[1];
    expect([later.changeRequestId, later.planningError ?? '']).toEqual(['cr-later', '']);
    const [lease] = await leases.liveLeases({ changeRequestId: 'cr-later' });
    expect(later.tasks![0].reservedLeases).toEqual([
      expect.objectContaining({ id: lease.id, symbol: 'multiply', fencingToken: lease.fencingToken }),
    ]);
  } finally {
    await planner.stop();
    await bus.close();
    await leases.releaseForChangeRequest('cr-later');
  }
});

test('past its wait the later request fails, naming the symbol and who holds it', async () => {
  const bus = new InProcessBus();
  const { bundles, planner } = await plannerOn(bus, 1_000);
  try {
    await bus.publish(Topics.plans, planOf('cr-holder'));
    await until(() => bundles.length === 1);
    await bus.publish(Topics.plans, planOf('cr-waiter'));
    await until(() => bundles.length === 2);
    expect(bundles[1].changeRequestId).toBe('cr-waiter');
    expect(bundles[1].planningError).toMatch(/symbol multiply of .* is held by cr-holder for longer than 1 s/);
    expect(await leases.liveLeases({ changeRequestId: 'cr-waiter' })).toEqual([]);
  } finally {
    await planner.stop();
    await bus.close();
    await leases.releaseForChangeRequest('cr-holder');
  }
});
