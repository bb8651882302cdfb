import { FINAL_PHASES, farm } from '@farm/proto';
import { Topics } from '@farm/bus';
import { recordAudit } from '@farm/access';
import type { SqlExecutor } from '@farm/store';
import { ApiError, badRequest, notFound } from './api-error';
import { planEditProblem } from './approval-policy';
import type { PlanDecisionInput } from './change-request-input';
import type { OutboxWriter } from './outbox';
import { parsePhase } from './phases';
import { requestPhase, requestTaskIds, SUBMITTED } from './request-store';

export type PlanDecision = 'approve' | 'reject';

/** Where a decision is written: the orchestrator's transaction whose events are published after it commits. */
export interface DecisionWriter {
  writeThroughOutbox<R>(fn: (tx: SqlExecutor, outbox: OutboxWriter) => Promise<R>): Promise<R>;
}
/** What a person decides on a request: its waiting plan (approve, possibly edited, or reject) or the request itself. */
export type RequestDecision = PlanDecision | 'cancel';

/**
 * The orchestrator applies a control command later, from the bus, so the phase alone cannot tell a second
 * decision that the first one was taken: each request's last decision is kept here, in the transaction that
 * audits it and sends its command. The first decision on a request claims the row by its primary key (a
 * concurrent one waits for that transaction, then sees the row); a later one locks it. So the decisions on one
 * request are taken one at a time, each seeing the one before, on PostgreSQL as on PGlite.
 */
export const requestDecisionMigrations = [
  {
    name: 'orchestrator-013-request-decisions',
    sql: `
CREATE TABLE request_decisions (
  change_request_id text PRIMARY KEY,
  decision text NOT NULL,
  decided_by text NOT NULL,
  decided_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];

/** A decision that was taken (and will be, or was, applied). `at` is an RFC 3339 time. */
export interface RecordedDecision {
  decision: RequestDecision;
  by: string;
  at: string;
}

/**
 * A decision refused (409) because of what happened to the request before it: the message says what (who
 * decided what, when; the phase now). `earlier` is that decision, when one was taken.
 */
export class DecisionConflict extends ApiError {
  constructor(
    readonly changeRequestId: string,
    readonly phase: string,
    readonly earlier: RecordedDecision | undefined,
    message: string,
  ) {
    super(409, message);
  }
}

const DONE_AS: Record<RequestDecision, string> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' };
const AWAITING = 'AWAITING_APPROVAL';

/**
 * Why `decision` would not apply to a request in `phase` whose last decision was `earlier`, or undefined when it
 * applies. Only a decision the orchestrator will apply is taken: one plan decision (approve or reject) while the
 * plan waits, and one cancel while the request runs. An approval being applied holds off a cancel until the
 * request runs (it would otherwise be a second decision on the same waiting plan); after it, a cancel applies.
 */
export function decisionRefusal(
  id: string,
  decision: RequestDecision,
  phase: string,
  earlier: RecordedDecision | undefined,
): string | undefined {
  const ended = phase !== SUBMITTED && FINAL_PHASES.has(parsePhase(phase));
  const what = earlier ? `${DONE_AS[earlier.decision]} by ${earlier.by} at ${earlier.at}` : '';
  if (decision !== 'cancel') {
    const nothing = `there is no plan to ${decision}`;
    if (earlier && phase === AWAITING)
      return `the plan of ${id} was already ${what}, which is being applied; ${nothing}`;
    if (earlier) return `change request ${id} is ${phase}, not waiting for approval (${what}); ${nothing}`;
    if (phase !== AWAITING) return `change request ${id} is ${phase}, not waiting for approval; ${nothing}`;
    return undefined;
  }
  if (earlier && earlier.decision !== 'approve') {
    const now = ended ? `it is ${phase}` : `it is being cancelled (${phase} until then)`;
    return `change request ${id} was already ${what}: ${now}; there is nothing to cancel`;
  }
  if (earlier && phase === AWAITING) {
    return `the plan of ${id} was ${what} and is being started: cancel it once it is CODING`;
  }
  if (ended) return `change request ${id} is already ${phase}; there is nothing to cancel`;
  return undefined;
}

/**
 * Takes `decision` on request `id` in `tx`, or throws: 404 for an unknown request, DecisionConflict (409) when
 * it would not apply (decisionRefusal). Once this returns, every other decision on the request waits for `tx`.
 */
async function takeDecision(tx: SqlExecutor, id: string, decision: RequestDecision, by: string): Promise<void> {
  const claimed = await tx.query(
    `INSERT INTO request_decisions (change_request_id, decision, decided_by) VALUES ($1, $2, $3)
     ON CONFLICT (change_request_id) DO NOTHING RETURNING change_request_id`,
    [id, decision, by],
  );
  const earlier = claimed.rows.length ? undefined : await lockedDecision(tx, id);
  // Read after the claim: what a decision taken meanwhile changed is seen.
  const phase = await requestPhase(tx, id);
  if (!phase) throw notFound(`no change request ${id}`);
  const refusal = decisionRefusal(id, decision, phase, earlier);
  if (refusal) throw new DecisionConflict(id, phase, earlier, refusal);
  if (earlier) {
    await tx.query(
      `UPDATE request_decisions SET decision = $2, decided_by = $3, decided_at = now() WHERE change_request_id = $1`,
      [id, decision, by],
    );
  }
}

async function lockedDecision(tx: SqlExecutor, id: string): Promise<RecordedDecision> {
  const rows = await tx.query<{ decision: RequestDecision; decided_by: string; decided_at: Date | string }>(
    'SELECT decision, decided_by, decided_at FROM request_decisions WHERE change_request_id = $1 FOR UPDATE',
    [id],
  );
  const row = rows.rows[0];
  // The row's insert conflicted, and rows are never deleted: it is there.
  if (!row) throw new Error(`the decision row of ${id} conflicted on insert but cannot be read`);
  return { decision: row.decision, by: row.decided_by, at: new Date(row.decided_at).toISOString() };
}

/**
 * A person's decision on a plan waiting for approval, from wherever they made it (the HTTP API, the console, a
 * forge comment): taken once (takeDecision), checked against the plan as stored (the edit's task ids),
 * recorded in the audit and sent as a ControlCommand in one transaction. Throws ApiError: 404 for an unknown
 * request, 409 (DecisionConflict) when no plan waits or another decision was taken, 400 for an edit that does
 * not fit. `alsoInTx` records what belongs with the decision (the forge bridge: that this comment made it) in
 * the same transaction.
 */
export async function recordPlanDecision(
  orchestrator: DecisionWriter,
  id: string,
  decision: PlanDecision,
  input: PlanDecisionInput,
  requestedBy: string,
  alsoInTx?: (tx: SqlExecutor) => Promise<void>,
): Promise<void> {
  await orchestrator.writeThroughOutbox(async (tx, outbox) => {
    await takeDecision(tx, id, decision, requestedBy);
    const edit = { removeTasks: input.removeTasks, goals: input.goals, parallelism: input.parallelism };
    if (decision === 'approve') {
      const problem = planEditProblem(await requestTaskIds(tx, id), edit);
      if (problem) throw badRequest(`the edit does not fit the plan: ${problem}`);
    }
    await recordAudit(tx, {
      subject: requestedBy,
      action: decision,
      changeRequestId: id,
      detail: {
        ...(input.reason ? { reason: input.reason } : {}),
        ...(input.removeTasks.length ? { removeTasks: input.removeTasks } : {}),
        ...(Object.keys(input.goals).length ? { goals: input.goals } : {}),
        ...(input.parallelism ? { parallelism: input.parallelism } : {}),
      },
    });
    await outbox(Topics.control, id, {
      changeRequestId: id,
      action: decision === 'approve' ? farm.v1.ControlAction.APPROVE : farm.v1.ControlAction.REJECT,
      reason: input.reason,
      requestedBy,
      decided: true,
      ...(decision === 'approve' ? { planEdit: edit } : {}),
    });
    await alsoInTx?.(tx);
  });
}

/**
 * A person's cancel of a request: taken once (takeDecision), audited and sent as a ControlCommand in one
 * transaction. A SUBMITTED request is cancelled too: the orchestrator retries the command until the request
 * arrives. Throws ApiError: 404 for an unknown request, 409 (DecisionConflict) when it ended or is being ended.
 */
export async function recordCancel(
  orchestrator: DecisionWriter,
  id: string,
  input: { reason: string },
  requestedBy: string,
): Promise<void> {
  await orchestrator.writeThroughOutbox(async (tx, outbox) => {
    await takeDecision(tx, id, 'cancel', requestedBy);
    await recordAudit(tx, {
      subject: requestedBy,
      action: 'cancel',
      changeRequestId: id,
      detail: input.reason ? { reason: input.reason } : {},
    });
    await outbox(Topics.control, id, {
      changeRequestId: id,
      action: farm.v1.ControlAction.CANCEL,
      reason: input.reason,
      requestedBy,
      decided: true,
    });
  });
}

const DECISION_OF: Partial<Record<farm.v1.ControlAction, RequestDecision>> = {
  [farm.v1.ControlAction.CANCEL]: 'cancel',
  [farm.v1.ControlAction.APPROVE]: 'approve',
  [farm.v1.ControlAction.REJECT]: 'reject',
};

/**
 * A control command sent straight to the control topic (not `decided` by the API): taken as a decision in the
 * orchestrator's transaction `tx` that applies it, under the rules of takeDecision, and audited. Answers why it
 * was refused (it is then not applied, and nothing of it is kept), or undefined when it was taken. Throws
 * ApiError 404 when the request is not known.
 */
export async function takeSentDecision(tx: SqlExecutor, cmd: farm.v1.IControlCommand): Promise<string | undefined> {
  const id = cmd.changeRequestId ?? '';
  const decision = cmd.action == null ? undefined : DECISION_OF[cmd.action];
  if (!decision) return `unknown control action ${cmd.action}`;
  const by = cmd.requestedBy || 'the control topic';
  // The claim's insert stays only when the decision is taken.
  await tx.query('SAVEPOINT sent_decision');
  try {
    await takeDecision(tx, id, decision, by);
  } catch (err) {
    await tx.query('ROLLBACK TO SAVEPOINT sent_decision');
    if (err instanceof DecisionConflict) return err.message;
    throw err;
  }
  await tx.query('RELEASE SAVEPOINT sent_decision');
  await recordAudit(tx, {
    subject: by,
    action: decision,
    changeRequestId: id,
    detail: { ...(cmd.reason ? { reason: cmd.reason } : {}), via: 'control topic' },
  });
  return undefined;
}
