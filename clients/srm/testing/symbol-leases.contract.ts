/**
 * What every SymbolLeases must do, as scenarios; run against PostgreSQL, PGlite and the HTTP client over the
 * real service, so all three give the same answers and the same typed errors.
 */
import { randomUUID } from 'node:crypto';
import { InvalidLeaseRequest, LeaseConflict, LeaseLost, LeaseNotFound } from '../src/errors';
import type { Lease, ReserveRequest, SymbolLeases } from '../src/lease';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Past a 1 s lease, judged by the database clock; the only wait in these tests. */
const pastExpiry = () => sleep(1200);
const SHA = 'c0ffee1234567890c0ffee1234567890c0ffee12';

async function refusal(p: Promise<unknown>): Promise<Error> {
  const outcome = await p.then(
    () => undefined,
    (err: Error) => err,
  );
  if (!outcome) throw new Error('expected the call to be refused');
  return outcome;
}

export function describeSymbolLeasesContract(
  name: string,
  open: () => Promise<{ leases: SymbolLeases; close(): Promise<void> }>,
): void {
  describe(name, () => {
    let leases: SymbolLeases;
    let close: () => Promise<void>;
    beforeAll(async () => ({ leases, close } = await open()));
    afterAll(() => close());

    // Each scenario works in a repo of its own, so they share the database without cleaning it.
    let repo: string;
    beforeEach(() => {
      repo = `https://git.example.com/${randomUUID()}.git`;
    });
    const reserve = (holder: string, symbols: string[], extra: Partial<ReserveRequest> = {}) =>
      leases.reserve({ repo, symbols, holder, changeRequestId: 'cr-1', ttlSeconds: 60, ...extra });

    test('32 tasks racing for one symbol: exactly one gets it, the others learn who holds it', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 32 }, (_, i) => reserve(`cr-1/task-${i}`, ['src/calc.ts#add'])),
      );
      const granted = outcomes.flatMap((o) => (o.status === 'fulfilled' ? o.value : []));
      expect(granted).toHaveLength(1);
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(refused).toHaveLength(31);
      for (const err of refused) {
        expect(err).toBeInstanceOf(LeaseConflict);
        expect(err).toMatchObject({ symbol: 'src/calc.ts#add', holder: granted[0].holder, retryable: false });
      }
      expect(await leases.liveLeases({ repo })).toEqual([granted[0]]);
    });

    test('tasks racing for overlapping symbols in any order: one gets them all, none gets a part', async () => {
      const sets = [
        ['a', 'b', 'c'],
        ['c', 'b', 'a'],
        ['b', 'c'],
        ['c', 'a'],
      ];
      const outcomes = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) => reserve(`cr-1/task-${i}`, sets[i % sets.length])),
      );
      const winners = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(winners).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof LeaseConflict)).toHaveLength(15);
      expect(await leases.liveLeases({ repo })).toEqual(winners[0]);
    });

    test('a holder whose lease expired cannot claim it, and a new holder can reserve the symbol', async () => {
      const [old] = await reserve('cr-1/slow-task', ['add'], { ttlSeconds: 1 });
      await pastExpiry();
      const [fresh] = await reserve('cr-1/next-task', ['add']);
      expect(BigInt(fresh.fencingToken)).toBeGreaterThan(BigInt(old.fencingToken));

      const err = await refusal(leases.claim(old.id, old.fencingToken, SHA));
      expect(err).toBeInstanceOf(LeaseLost);
      expect(err).toMatchObject({ leaseId: old.id, reason: 'expired', retryable: false });
      expect(await leases.liveLeases({ repo })).toEqual([fresh]);
    });

    test('an expired lease cannot be claimed even when nobody else took the symbol', async () => {
      const [lease] = await reserve('cr-1/task', ['add'], { ttlSeconds: 1 });
      await pastExpiry();
      expect(await refusal(leases.claim(lease.id, lease.fencingToken, SHA))).toBeInstanceOf(LeaseLost);
      expect(await refusal(leases.renew(lease.id, lease.fencingToken, 60))).toBeInstanceOf(LeaseLost);
      expect(await leases.liveLeases({ repo })).toEqual([]);
    });

    test('after a re-grant, the previous fencing token is refused', async () => {
      const [first] = await reserve('cr-1/task', ['add'], { ttlSeconds: 1 });
      await pastExpiry();
      const [second] = await reserve('cr-1/task', ['add']); // the same task, restarted
      expect(second.id).not.toBe(first.id);
      expect(BigInt(second.fencingToken)).toBeGreaterThan(BigInt(first.fencingToken));

      // One call at a time: a second call started up front could reject before anything awaits it.
      for (const call of [
        () => leases.claim(second.id, first.fencingToken, SHA),
        () => leases.renew(second.id, first.fencingToken, 60),
      ]) {
        expect(await refusal(call())).toMatchObject({ name: 'LeaseLost', reason: 'stale_token' });
      }
      expect(await leases.claim(second.id, second.fencingToken, SHA)).toMatchObject({
        state: 'CLAIMED',
        commitSha: SHA,
      });
    });

    test('renewing extends a lease past its first expiry', async () => {
      const [lease] = await reserve('cr-1/task', ['add'], { ttlSeconds: 1 });
      const renewed = await leases.renew(lease.id, lease.fencingToken, 60);
      expect(renewed.expiresAt.getTime()).toBeGreaterThan(lease.expiresAt.getTime());
      expect(renewed.fencingToken).toBe(lease.fencingToken);
      await pastExpiry();

      expect(await refusal(reserve('cr-1/other', ['add']))).toBeInstanceOf(LeaseConflict);
      const claimed = await leases.claim(lease.id, lease.fencingToken, SHA);
      expect(claimed).toMatchObject({ state: 'CLAIMED', commitSha: SHA });
    });

    test('a claimed lease keeps blocking the symbol until it is released', async () => {
      const [lease] = await reserve('cr-1/task', ['add'], { ttlSeconds: 1 });
      await leases.claim(lease.id, lease.fencingToken, SHA);
      await pastExpiry(); // claimed leases do not expire: the branch is not merged yet
      expect(await refusal(reserve('cr-2/task', ['add']))).toMatchObject({ holder: 'cr-1/task' });
      expect(await leases.claim(lease.id, lease.fencingToken, SHA)).toMatchObject({ state: 'CLAIMED' });

      await leases.release(lease.id, lease.fencingToken);
      expect(await reserve('cr-2/task', ['add'])).toHaveLength(1);
    });

    test('release is idempotent and frees the symbol', async () => {
      const [lease] = await reserve('cr-1/task', ['add']);
      await leases.release(lease.id, lease.fencingToken);
      await leases.release(lease.id, lease.fencingToken);
      await leases.release(lease.id);
      expect(await leases.liveLeases({ repo })).toEqual([]);
      expect(await refusal(leases.claim(lease.id, lease.fencingToken, SHA))).toMatchObject({ reason: 'released' });

      const [next] = await reserve('cr-1/other', ['add']);
      expect(await refusal(leases.release(next.id, lease.fencingToken))).toMatchObject({ reason: 'stale_token' });
      expect(await refusal(leases.release('no-such-lease'))).toBeInstanceOf(LeaseNotFound);
      expect(await leases.liveLeases({ repo })).toEqual([next]);
    });

    test('releasing a change request frees the leases of all its tasks and only those', async () => {
      const changeRequestId = `cr-${randomUUID()}`;
      await reserve(`${changeRequestId}/a`, ['add', 'sub'], { changeRequestId });
      const [b] = await reserve(`${changeRequestId}/b`, ['mul'], { changeRequestId });
      await leases.claim(b.id, b.fencingToken, SHA);
      const other = await reserve('cr-other/a', ['div'], { changeRequestId: 'cr-other' });
      expect((await leases.liveLeases({ changeRequestId })).map((l) => l.symbol)).toEqual(['add', 'mul', 'sub']);

      expect(await leases.releaseForChangeRequest(changeRequestId)).toBe(3);
      expect(await leases.releaseForChangeRequest(changeRequestId)).toBe(0);
      expect(await leases.liveLeases({ repo })).toEqual(other);
      expect(await reserve('cr-3/a', ['add', 'sub', 'mul'])).toHaveLength(3);
    });

    test("releasing a holder frees that task's leases", async () => {
      const task = `cr-1/${randomUUID()}`; // holders span repos: keep this one to this test
      await reserve(task, ['add', 'sub']);
      const other = await reserve('cr-1/b', ['mul']);
      expect(await leases.releaseHolder(task)).toBe(2);
      expect(await leases.liveLeases({ repo })).toEqual(other);
      expect(await leases.liveLeases({ holder: task })).toEqual([]);
    });

    test('a reservation that conflicts on one symbol leaves nothing behind', async () => {
      await reserve('cr-1/holder', ['sub']);
      const err = await refusal(reserve('cr-2/task', ['add', 'sub', 'mul']));
      expect(err).toBeInstanceOf(LeaseConflict);
      expect(err).toMatchObject({ repo, symbol: 'sub', holder: 'cr-1/holder' });
      expect(err.message).toContain('cr-1/holder');
      expect(await leases.liveLeases({ repo, holder: 'cr-2/task' })).toEqual([]);
      expect(await reserve('cr-3/task', ['add', 'mul'])).toHaveLength(2);
    });

    test('the same task reserving again gets its own leases back, with the same tokens', async () => {
      const first = await reserve('cr-1/task', ['add', 'sub'], { ttlSeconds: 1 });
      const again = await reserve('cr-1/task', ['sub', 'add', 'mul']);
      const bySymbol = (ls: Lease[]) => Object.fromEntries(ls.map((l) => [l.symbol, l.fencingToken]));
      expect(bySymbol(again)).toMatchObject(bySymbol(first));
      await pastExpiry(); // extended to the new ttl
      expect(await leases.liveLeases({ repo, holder: 'cr-1/task' })).toHaveLength(3);
    });

    test('malformed requests are refused with every problem named', async () => {
      const err = await refusal(
        leases.reserve({ repo, symbols: [], holder: '', changeRequestId: 'cr', ttlSeconds: 0 }),
      );
      expect(err).toBeInstanceOf(InvalidLeaseRequest);
      expect(err.message).toMatch(/symbols.*holder.*ttlSeconds/);
      expect(await refusal(leases.renew('x', 'not-a-token', 10))).toBeInstanceOf(InvalidLeaseRequest);
      expect(await refusal(leases.claim('x', '1', 'not a sha'))).toBeInstanceOf(InvalidLeaseRequest);
    });
  });
}
