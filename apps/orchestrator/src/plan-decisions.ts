import { farm } from '@farm/proto';
import { Topics } from '@farm/bus';
import { recordAudit } from '@farm/access';
import type { SqlExecutor } from '@farm/store';
import { ApiError, badRequest, notFound } from './api-error';
import { planEditProblem } from './approval-policy';
import type { PlanDecisionInput } from './change-request-input';
import type { Orchestrator } from './orchestrator';
import { requestPhase, requestTaskIds } from './request-store';

export type PlanDecision = 'approve' | 'reject';

/**
 * A person's decision on a plan waiting for approval, from wherever they made it (the HTTP API, the console, a
 * forge comment): checked against the plan as stored (the phase; the edit's task ids), recorded in the audit
 * and sent as a ControlCommand in one transaction. The orchestrator applies it once. Throws ApiError: 404 for
 * an unknown request, 409 when no plan waits, 400 for an edit that does not fit. `alsoInTx` records what belongs
 * with the decision (the forge bridge: that this comment made it) in the same transaction.
 */
export async function recordPlanDecision(
  orchestrator: Pick<Orchestrator, 'writeThroughOutbox'>,
  id: string,
  decision: PlanDecision,
  input: PlanDecisionInput,
  requestedBy: string,
  alsoInTx?: (tx: SqlExecutor) => Promise<void>,
): Promise<void> {
  await orchestrator.writeThroughOutbox(async (tx, outbox) => {
    const phase = await requestPhase(tx, id);
    if (!phase) throw notFound(`no change request ${id}`);
    if (phase !== 'AWAITING_APPROVAL') {
      throw new ApiError(
        409,
        `change request ${id} is ${phase}, not waiting for approval; there is no plan to ${decision}`,
      );
    }
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
      ...(decision === 'approve' ? { planEdit: edit } : {}),
    });
    await alsoInTx?.(tx);
  });
}
