// The decision races of request-decisions.test.ts on PostgreSQL (a schema of its own; the server the jest
// global set-up starts unless DATABASE_URL is given), where the transactions of concurrent decisions overlap:
// what keeps the second one out is the database (the decision row's key and its lock), not a queue.
import { queryAudit } from '@farm/access';
import type { SqlStore } from '@farm/store';
import { storeInOwnSchema } from '../testing';
import {
  decisionRaceFarm,
  planContenders,
  planRaceExpectation,
  raceProblems,
  type DecisionRaceFarm,
} from '../testing/decision-race';
import { ApiError } from './api-error';
import { recordPlanDecision, type PlanDecision } from './request-decisions';

let store: SqlStore;
let dropSchema: () => Promise<void>;
let race: DecisionRaceFarm;

beforeAll(async () => {
  ({ store, drop: dropSchema } = await storeInOwnSchema('decisions'));
  race = await decisionRaceFarm(store);
});
afterAll(async () => {
  await race.close();
  await store.close();
  await dropSchema();
});

test('approve, an edited approve, reject and cancel sent at once on a waiting plan, many times: one applies each time', async () => {
  const problems: string[] = [];
  for (let round = 0; round < 40; round++) {
    const id = await race.planned({ requireApproval: true });
    problems.push(...raceProblems(await race.race(id, await planContenders(race, id, round)), planRaceExpectation(id)));
  }
  expect(problems).toEqual([]);
});

test('cancels sent at once on a running request, many times: one applies each time', async () => {
  const problems: string[] = [];
  for (let round = 0; round < 20; round++) {
    const id = await race.planned({ requireApproval: false });
    const contenders = await Promise.all(
      ['cas', 'cy', 'cat', 'cid'].map(async (name) => ({
        decision: 'cancel' as const,
        body: { reason: `${name} says stop` },
        ...(await race.person(name)),
      })),
    );
    problems.push(...raceProblems(await race.race(id, contenders), () => ({ phase: 'CANCELLED' })));
  }
  expect(problems).toEqual([]);
});

test('while the first decision is still in its transaction, the others wait for it and are then refused', async () => {
  const id = await race.planned({ requireApproval: true });
  const decisions: PlanDecision[] = ['approve', 'reject', 'approve', 'reject', 'approve', 'reject'];
  // Each transaction stays open a while after taking its decision, so that they surely overlap.
  const held = () => async (tx: { query(sql: string): Promise<unknown> }) =>
    void (await tx.query('SELECT pg_sleep(0.2)'));
  const settled = await Promise.allSettled(
    decisions.map((decision, i) =>
      recordPlanDecision(
        race.orchestrator,
        id,
        decision,
        { reason: `decision ${i}`, removeTasks: [], goals: {} },
        `token:person-${i}`,
        held(),
      ),
    ),
  );
  const taken = settled.filter((s) => s.status === 'fulfilled');
  const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  expect(taken).toHaveLength(1);
  expect(refused.map((e) => (e instanceof ApiError ? e.status : String(e)))).toEqual([409, 409, 409, 409, 409]);
  const events = (await queryAudit(store, { changeRequestId: id })).filter((e) => e.action !== 'submit');
  expect(events).toHaveLength(1);
  for (const e of refused) expect((e as Error).message).toContain(`by ${events[0].subject} at `);
});
