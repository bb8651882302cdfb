import { ModelAnswerInvalid, type JsonModel, type TokenUsage } from '@farm/llm';

export const REVIEW_SYSTEM_PROMPT = `You review a coding agent's change before it is committed.
You get the task's goal, the agent's summary, the final diff and the results of the repository's checks (they pass).
Approve when the diff does what the goal asks, nothing more, without obvious bugs, leftovers or unrelated edits.
Otherwise list concrete objections the agent can act on (file, what is wrong, what to do).
Answer with one JSON object: {"approved": true|false, "objections": ["..."]}.`;

const VERDICT_SCHEMA = {
  name: 'review',
  schema: {
    type: 'object',
    properties: { approved: { type: 'boolean' }, objections: { type: 'array', items: { type: 'string' } } },
    required: ['approved', 'objections'],
    additionalProperties: false,
  },
};

export interface ReviewVerdict {
  approved: boolean;
  objections: string[];
  usage: TokenUsage;
  model: string;
  malformedRetries: number;
}

/** One reviewer call: the goal, the final diff and the checks in; a verdict out. */
export async function reviewDiff(
  model: JsonModel,
  input: { goal: string; summary: string; diff: string; checks: string },
): Promise<ReviewVerdict> {
  const answer = await model.completeJson(
    [
      { role: 'system', content: REVIEW_SYSTEM_PROMPT },
      {
        role: 'user',
        content: `GOAL:\n${input.goal}\n\nAGENT'S SUMMARY:\n${input.summary}\n\nCHECKS:\n${input.checks}\n\nDIFF:\n${input.diff}`,
      },
    ],
    VERDICT_SCHEMA,
  );
  const v = answer.value as { approved?: unknown; objections?: unknown } | null;
  if (!v || typeof v.approved !== 'boolean')
    throw new ModelAnswerInvalid('review answer lacks a boolean "approved"', answer.content);
  const objections = Array.isArray(v.objections) ? v.objections.filter((o): o is string => typeof o === 'string') : [];
  // A rejection without objections gives the agent nothing to act on; say so rather than loop blindly.
  if (!v.approved && !objections.length) objections.push('the reviewer rejected the change without saying why');
  return {
    approved: v.approved,
    objections,
    usage: answer.usage,
    model: answer.model,
    malformedRetries: answer.malformedRetries ?? 0,
  };
}
