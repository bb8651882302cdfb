// Decisions people make on a request (approve, approve edited, reject, cancel), sent at the same instant through
// the HTTP API on PGlite: one applies and is answered 202, the others 409 saying which one did; the audit holds
// that one only. PGlite runs one transaction at a time, so this shows the rules, not the locking: the same races
// on PostgreSQL, where transactions do overlap, are in request-decisions.integration.test.ts.
import { farm } from '@farm/proto';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import {
  decisionRaceFarm,
  planContenders,
  planRaceExpectation,
  raceProblems,
  type DecisionRaceFarm,
} from '../testing/decision-race';
import { DEFAULT_ORCHESTRATOR_OPTIONS } from './orchestrator';
import { decisionRefusal } from './request-decisions';

let store: SqlStore;
let race: DecisionRaceFarm;

beforeAll(async () => {
  store = await testPgliteStore();
  // A short approval timeout, for the sweep below; nothing else here waits that long.
  race = await decisionRaceFarm(store, { approval: { ...DEFAULT_ORCHESTRATOR_OPTIONS.approval, timeoutMs: 60_000 } });
});
afterAll(async () => {
  await race.close();
  await store.close();
});

test('approve, an edited approve, reject and cancel sent at once on a waiting plan: one applies, the rest are 409s naming it', async () => {
  const problems: string[] = [];
  const winners = new Set<string>();
  for (let round = 0; round < 12; round++) {
    const id = await race.planned({ requireApproval: true });
    expect((await race.request(id)).phase).toBe('AWAITING_APPROVAL');
    const outcome = await race.race(id, await planContenders(race, id, round));
    problems.push(...raceProblems(outcome, planRaceExpectation(id)));
    for (const a of outcome.answers)
      if (a.status === 202) winners.add(`${a.contender.decision} ${a.contender.subject}`);
  }
  expect(problems).toEqual([]);
  expect(winners.size).toBe(4); // each of the four won a round
});

test('cancels sent at once on a running request: one applies, the rest are told who cancelled it and when', async () => {
  const problems: string[] = [];
  for (let round = 0; round < 5; round++) {
    const id = await race.planned({ requireApproval: false });
    expect((await race.request(id)).phase).toBe('CODING');
    const contenders = await Promise.all(
      ['cas', 'cy', 'cat'].map(async (name) => ({
        decision: 'cancel' as const,
        body: { reason: `${name} says stop` },
        ...(await race.person(name)),
      })),
    );
    const outcome = await race.race(id, contenders);
    problems.push(...raceProblems(outcome, () => ({ phase: 'CANCELLED' })));
  }
  expect(problems).toEqual([]);
});

test('a cancel after the approval applied is a second decision that applies too; afterwards nothing does', async () => {
  const id = await race.planned({ requireApproval: true });
  const ann = { decision: 'approve' as const, body: {}, ...(await race.person('ann')) };
  const cas = { decision: 'cancel' as const, body: { reason: 'changed my mind' }, ...(await race.person('cas')) };
  expect((await race.send(id, ann)).status).toBe(202);
  // Not applied yet: the approval holds the plan, so a cancel now would be a second decision on it.
  const early = await race.send(id, cas);
  expect([early.status, early.message]).toEqual([
    409,
    expect.stringMatching(new RegExp(`approved by ${ann.subject} at .* and is being started: cancel it once`)),
  ]);
  await race.applyDecisions(id);
  expect((await race.request(id)).phase).toBe('CODING');
  expect((await race.send(id, cas)).status).toBe(202);
  const again = await race.send(id, cas);
  expect([again.status, again.message]).toEqual([
    409,
    expect.stringMatching(new RegExp(`already cancelled by ${cas.subject} at .*: it is being cancelled`)),
  ]);
  await race.applyDecisions(id);
  const late = await race.send(id, ann);
  expect([late.status, late.message]).toEqual([
    409,
    expect.stringMatching(/is CANCELLED, not waiting for approval \(cancelled by token:cas-.* at .*\)/),
  ]);
  expect((await race.send(id, cas)).message).toMatch(/already cancelled by .*: it is CANCELLED; there is nothing/);
  expect(await race.audit(id)).toEqual([
    { action: 'approve', subject: ann.subject },
    { action: 'cancel', subject: cas.subject },
  ]);
});

describe('a command sent straight to the control topic (farm cancel on Kafka)', () => {
  const { CANCEL, APPROVE } = farm.v1.ControlAction;

  test("is a decision like the API's: it applies once, is audited, and a later decision is told of it", async () => {
    const id = await race.planned({ requireApproval: false });
    await race.sendOnTopic(id, CANCEL, 'kim', 'stop it');
    expect((await race.request(id)).phase).toBe('CANCELLED');
    await race.sendOnTopic(id, CANCEL, 'lee', 'stop it too');
    const cas = { decision: 'cancel' as const, body: { reason: 'me too' }, ...(await race.person('cas')) };
    const late = await race.send(id, cas);
    expect([late.status, late.message]).toEqual([
      409,
      expect.stringMatching(/already cancelled by kim at .*CANCELLED/),
    ]);
    expect(await race.audit(id)).toEqual([{ action: 'cancel', subject: 'kim' }]);
  });

  test('after a decision the API took but the orchestrator has not yet applied, it is refused and nothing of it kept', async () => {
    const id = await race.planned({ requireApproval: true });
    const ann = { decision: 'approve' as const, body: {}, ...(await race.person('ann')) };
    expect((await race.send(id, ann)).status).toBe(202);
    await race.sendOnTopic(id, CANCEL, 'kim');
    await race.sendOnTopic(id, APPROVE, 'lee');
    await race.applyDecisions(id);
    expect((await race.request(id)).phase).toBe('CODING');
    expect(await race.audit(id)).toEqual([{ action: 'approve', subject: ann.subject }]);
    const rows = await store.query<{ decision: string; decided_by: string }>(
      'SELECT decision, decided_by FROM request_decisions WHERE change_request_id = $1',
      [id],
    );
    expect(rows.rows).toEqual([{ decision: 'approve', decided_by: ann.subject }]);
  });

  test('a cancel on the topic for a plan that waits rejects nothing else: the next API decision is refused naming it', async () => {
    const id = await race.planned({ requireApproval: true });
    await race.sendOnTopic(id, CANCEL, 'kim');
    expect((await race.request(id)).phase).toBe('CANCELLED');
    const ann = { decision: 'approve' as const, body: {}, ...(await race.person('ann')) };
    const answer = await race.send(id, ann);
    expect([answer.status, answer.message]).toEqual([409, expect.stringMatching(/cancelled by kim at /)]);
  });
});

test('a refused edit or an unknown request takes no decision: the next one is still free to apply', async () => {
  const id = await race.planned({ requireApproval: true });
  const ed = {
    decision: 'approve' as const,
    body: { removeTasks: [`${id}-a`, `${id}-b`] },
    ...(await race.person('ed')),
  };
  expect((await race.send(id, ed)).status).toBe(400);
  expect((await race.send('no-such-request', { ...ed, body: {} })).status).toBe(404);
  const rex = { decision: 'reject' as const, body: { reason: 'too broad' }, ...(await race.person('rex')) };
  expect((await race.send(id, rex)).status).toBe(202);
  expect(await race.audit(id)).toEqual([{ action: 'reject', subject: rex.subject }]);
  expect(
    (await store.query(`SELECT 1 FROM request_decisions WHERE change_request_id = 'no-such-request'`)).rows,
  ).toEqual([]);
});

test("the approval timeout does not overtake a decision on its way: the plan approved at the wait's end runs", async () => {
  const decided = await race.planned({ requireApproval: true });
  const forgotten = await race.planned({ requireApproval: true });
  const ann = { decision: 'approve' as const, body: {}, ...(await race.person('ann')) };
  expect((await race.send(decided, ann)).status).toBe(202);
  // Both have waited past the timeout (60 s here) when the sweep runs, before the approval was applied.
  await store.query(`UPDATE change_requests SET updated_at = now() - interval '2 minutes' WHERE id IN ($1, $2)`, [
    decided,
    forgotten,
  ]);
  await race.orchestrator.expirePhases();
  expect((await race.request(forgotten)).phase).toBe('FAILED');
  expect((await race.request(decided)).phase).toBe('AWAITING_APPROVAL');
  await race.applyDecisions(decided);
  expect((await race.request(decided)).phase).toBe('CODING');
});

describe('what a refused decision says happened', () => {
  const approved = { decision: 'approve' as const, by: 'token:lead', at: '2025-01-02T03:04:05.000Z' };
  const cancelled = { decision: 'cancel' as const, by: 'token:ops', at: '2025-01-02T03:04:06.000Z' };

  test.each([
    ['approve', 'AWAITING_APPROVAL', undefined, undefined],
    ['cancel', 'SUBMITTED', undefined, undefined],
    ['cancel', 'CODING', approved, undefined],
    ['reject', 'AWAITING_APPROVAL', approved, 'was already approved by token:lead at 2025-01-02T03:04:05.000Z'],
    ['approve', 'CODING', approved, 'is CODING, not waiting for approval (approved by token:lead at'],
    ['cancel', 'AWAITING_APPROVAL', approved, 'was approved by token:lead at 2025-01-02T03:04:05.000Z and is being'],
    ['approve', 'PLANNING', cancelled, 'is PLANNING, not waiting for approval (cancelled by token:ops at'],
    ['cancel', 'CODING', cancelled, 'already cancelled by token:ops at 2025-01-02T03:04:06.000Z: it is being'],
    ['cancel', 'CANCELLED', cancelled, 'already cancelled by token:ops at 2025-01-02T03:04:06.000Z: it is CANCELLED'],
    ['cancel', 'DONE', undefined, 'is already DONE; there is nothing to cancel'],
    ['reject', 'CODING', undefined, 'is CODING, not waiting for approval; there is no plan to reject'],
  ] as const)('%s on a request %s after %j: %s', (decision, phase, earlier, refusal) => {
    const said = decisionRefusal('cr-1', decision, phase, earlier);
    if (refusal === undefined) expect(said).toBeUndefined();
    else expect(said).toContain(refusal);
  });
});
