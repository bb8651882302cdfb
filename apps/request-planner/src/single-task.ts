import type { farm } from '@farm/proto';

/** When the planner model may be skipped: `auto` for requests that are obviously one task, `never` (default). */
export type SingleTaskPolicy = 'auto' | 'never';

/** Longer than this, a request may well hold more than one change. */
const MAX_ONE_TASK_CHARS = 200;

/**
 * Whether a request is obviously one task: a short goal of one sentence, without a list or a second paragraph
 * ("Fix the typo in the README", "Rename fetchJson to getJson"). Anything longer goes to the model, which may
 * split it.
 */
export function isObviouslyOneTask(cr: farm.v1.IChangeRequest): boolean {
  const text = [cr.title ?? '', cr.description ?? ''].map((t) => t.trim()).filter(Boolean);
  const goal = text.join(' ');
  if (!goal || goal.length > MAX_ONE_TASK_CHARS) return false;
  if (text.some((t) => t.includes('\n'))) return false; // a list or more paragraphs
  // A title repeated as the description's first sentence still counts as one.
  const sentences = new Set(
    goal
      .split(/(?<=[.!?;])\s+/)
      .map((s) =>
        s
          .replace(/[.!?;]+$/, '')
          .trim()
          .toLowerCase(),
      )
      .filter(Boolean),
  );
  return sentences.size <= 1;
}

/** Whether to plan `cr` without asking the model. */
export const skipsPlannerModel = (cr: farm.v1.IChangeRequest, policy: SingleTaskPolicy): boolean =>
  policy === 'auto' && isObviouslyOneTask(cr);
