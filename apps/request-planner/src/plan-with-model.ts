import { z } from 'zod';
import { farm } from '@farm/proto';
import {
  answerSchema,
  describeIssues,
  ModelAnswerCut,
  ModelAnswerInvalid,
  type ChatMessage,
  type JsonModel,
  type TokenUsage,
} from '@farm/llm';
import { causedByStopping, errorMessage, type Logger } from '@farm/runtime';
import { planRequest } from './plan-request';

const KINDS = ['feature', 'fix', 'refactor', 'test', 'docs'] as const;

const itemSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'lowercase letters, digits and dashes, at most 31 chars'),
  goal: z.string().min(10, 'say what to change in a full sentence'),
  kind: z.enum(KINDS),
  paths: z.array(z.string()).default([]),
  symbols: z.array(z.string()).default([]),
  depends_on: z.array(z.string()).default([]),
  /** The lines the item will add and remove, as the model guesses them (what the approval gate weighs). */
  changed_lines: z.number().int().min(0).max(1_000_000).optional(),
});

/** The model's plan, declared once: it checks the answer and gives the model its JSON schema. */
export const planAnswerSchema = z.object({
  items: z.array(itemSchema).min(1),
  notes: z.string().default(''),
});

export const PLAN_JSON_SCHEMA = answerSchema('plan', planAnswerSchema);

const ARCHITECT_PROMPT = `You are the architect of a team of coding agents. Split the change request into the smallest set of
independent coding tasks (plan items). Each item: a short id (lowercase, dashes), a goal one agent can finish alone, a kind
(feature, fix, refactor, test, docs), the paths and symbols (function/class names) it will touch, the ids of items it
must wait for (depends_on) and about how many lines it will add and remove (changed_lines). Prefer items that can run in
parallel. Answer with one JSON object:
{"items": [{"id", "goal", "kind", "paths", "symbols", "depends_on", "changed_lines"}], "notes": "<why this split>"}`;

export type PlanItemAnswer = z.infer<typeof itemSchema>;

/** Checks a model's plan: shape, bounds, unique ids, known dependencies and no cycles. */
export function validatePlanAnswer(value: unknown, maxItems: number): { items: PlanItemAnswer[]; notes: string } {
  const parsed = planAnswerSchema.safeParse(value);
  if (!parsed.success) throw new Error(describeIssues(parsed.error, '(root)'));
  const { items } = parsed.data;
  if (items.length > maxItems) throw new Error(`items: at most ${maxItems} items`);
  const ids = new Set<string>();
  for (const item of items) {
    if (ids.has(item.id)) throw new Error(`items: duplicate id "${item.id}"`);
    ids.add(item.id);
  }
  for (const item of items) {
    const unknown = item.depends_on.filter((d) => !ids.has(d));
    if (unknown.length) throw new Error(`items.${item.id}.depends_on: unknown item(s) ${unknown.join(', ')}`);
  }
  // Depth-first search for a cycle in depends_on.
  const state = new Map<string, 'visiting' | 'done'>();
  const byId = new Map(items.map((i) => [i.id, i]));
  const visit = (id: string, trail: string[]) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') throw new Error(`items: dependency cycle ${[...trail, id].join(' -> ')}`);
    state.set(id, 'visiting');
    for (const d of byId.get(id)!.depends_on) visit(d, [...trail, id]);
    state.set(id, 'done');
  };
  for (const item of items) visit(item.id, []);
  return parsed.data;
}

/**
 * Asks the model to decompose the request; on an answer it cannot use (invalid, not JSON, cut at the output
 * limit) asks once more saying what was wrong, and if that fails too (or the model is unreachable) falls back to
 * one item for the whole request, saying why in the plan's notes. Every answer's tokens are counted, used or not.
 */
export async function planWithModel(
  cr: farm.v1.IChangeRequest,
  model: JsonModel,
  opts: { maxItems: number; log: Logger },
): Promise<{ plan: farm.v1.IPlan; usage: TokenUsage[] }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: ARCHITECT_PROMPT },
    {
      role: 'user',
      content: `CHANGE REQUEST: ${cr.title}\n\n${cr.description ?? ''}\n\nRepository: ${cr.repo?.url} at ${cr.repo?.baseRef || 'main'}\nAt most ${opts.maxItems} items.`,
    },
  ];
  const usage: TokenUsage[] = [];
  let lastError = '';
  let answered = false;
  for (let attempt = 1; attempt <= 2; attempt++) {
    let content = '';
    let again = '';
    try {
      const answer = await model.completeJson(messages, PLAN_JSON_SCHEMA);
      usage.push(answer.usage);
      answered = true;
      content = answer.content;
      const { items, notes } = validatePlanAnswer(answer.value, opts.maxItems);
      return { plan: toPlan(cr, items, [notes, `planned by ${answer.model}`].filter(Boolean)), usage };
    } catch (err) {
      // Stopping is not the model failing: no fallback plan; the request is planned again by the next start.
      if (causedByStopping(err)) throw err;
      lastError = errorMessage(err);
      if (err instanceof ModelAnswerInvalid) {
        // It answered, but not with a usable JSON object: asked again, saying what was wrong.
        answered = true;
        if (err.usage) usage.push(err.usage);
        content = err.raw;
        again =
          err instanceof ModelAnswerCut
            ? `Your answer was cut at the output limit before it was complete (${lastError}). Answer again with a shorter plan: fewer items, shorter goals, no text outside the JSON object.`
            : `That answer is not a usable JSON object: ${lastError}\nAnswer again with one JSON object only.`;
      } else if (content) {
        again = `That plan is invalid: ${lastError}\nAnswer again with a corrected JSON object.`;
      }
      opts.log.warn('plan answer rejected', { changeRequestId: cr.changeRequestId, attempt, err: lastError });
      if (!again) break; // the model did not answer at all: asking again the same way will not help
      messages.push({ role: 'assistant', content: content || '(no content)' }, { role: 'user', content: again });
    }
  }
  const fallback = planRequest(cr);
  fallback.notes = [
    answered
      ? `fell back to a single item: the model's plan could not be used (${lastError})`
      : `fell back to a single item: the planner model did not answer (${lastError})`,
  ];
  opts.log.warn('planned as a single item', { changeRequestId: cr.changeRequestId, reason: fallback.notes[0] });
  return { plan: fallback, usage };
}

function toPlan(cr: farm.v1.IChangeRequest, items: PlanItemAnswer[], notes: string[]): farm.v1.IPlan {
  return {
    changeRequestId: cr.changeRequestId,
    repo: cr.repo,
    checkCommand: cr.checkCommand,
    notes,
    items: items.map((i) => ({
      itemId: i.id,
      goal: i.goal,
      kind: farm.v1.TaskKind[i.kind.toUpperCase() as keyof typeof farm.v1.TaskKind],
      pathHints: i.paths,
      symbolHints: i.symbols,
      dependsOn: i.depends_on,
      ...(i.changed_lines ? { estimatedChangedLines: i.changed_lines } : {}),
    })),
  };
}
