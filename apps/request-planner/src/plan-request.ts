import type { farm } from '@farm/proto';
import { kindOfGoal } from './goal-kind';

/**
 * Turns a change request into a plan. For now one item covers the whole request; the model-driven
 * decomposition replaces this function without changing its callers.
 */
export function planRequest(cr: farm.v1.IChangeRequest, why = 'the whole request is one task'): farm.v1.IPlan {
  const goal = cr.description ? `${cr.title}\n\n${cr.description}` : (cr.title ?? '');
  return {
    changeRequestId: cr.changeRequestId,
    repo: cr.repo,
    checkCommand: cr.checkCommand,
    items: [
      { itemId: 'item-1', goal, kind: kindOfGoal(cr.title ?? ''), pathHints: [], symbolHints: [], dependsOn: [] },
    ],
    notes: [`single-item plan: ${why}`],
  };
}
