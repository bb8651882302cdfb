import { answerSchema, describeIssues, ModelAnswerInvalid, type JsonModel, type TokenUsage } from '@farm/llm';
import { z } from '@farm/runtime';

export const REVIEW_SYSTEM_PROMPT = `You review a coding agent's change before it is committed.
You get the task's goal, the agent's summary, the final diff and the results of the repository's checks (they pass).
Approve when the diff does what the goal asks, nothing more, without obvious bugs, leftovers or unrelated edits.
Otherwise list concrete objections the agent can act on (file, what is wrong, what to do).
When VERIFICATION says NOT VERIFIED (a behaviour goal with a tests-only change, or tests that pass without the
change), approve only if you accept the change as it is anyway, and then say so with "accept_unverified": true.
Answer with one JSON object: {"approved": true|false, "objections": ["..."], "accept_unverified": false}.`;

/** The reviewer's answer, declared once: it checks the answer and gives the model its JSON schema. */
export const reviewAnswerSchema = z.object({
  approved: z.boolean(),
  // Lenient: a missing list, or a stray non-string in it, does not cost the other objections.
  objections: z.preprocess(
    (v) => (Array.isArray(v) ? v.filter((o) => typeof o === 'string') : undefined),
    z.array(z.string()).default([]),
  ),
  /** An explicit acceptance of a change the farm could not verify (see verifyChange). */
  accept_unverified: z.boolean().optional(),
});

export const VERDICT_SCHEMA = answerSchema('review', reviewAnswerSchema);

export interface ReviewVerdict {
  approved: boolean;
  objections: string[];
  /** The reviewer accepts the change although it is not verified. */
  acceptUnverified: boolean;
  usage: TokenUsage;
  model: string;
  malformedRetries: number;
}

/** One reviewer call: the goal, the final diff and the checks in; a verdict out. */
export async function reviewDiff(
  model: JsonModel,
  input: { goal: string; summary: string; diff: string; checks: string; verification?: string; unverified?: string },
): Promise<ReviewVerdict> {
  const answer = await model.completeJson(
    [
      { role: 'system', content: REVIEW_SYSTEM_PROMPT },
      {
        role: 'user',
        content: [
          `GOAL:\n${input.goal}`,
          `AGENT'S SUMMARY:\n${input.summary}`,
          `CHECKS:\n${input.checks}`,
          ...(input.verification ? [`VERIFICATION:\n${input.verification}`] : []),
          ...(input.unverified ? [`NOT VERIFIED: ${input.unverified}`] : []),
          `DIFF:\n${input.diff}`,
        ].join('\n\n'),
      },
    ],
    VERDICT_SCHEMA,
  );
  const parsed = reviewAnswerSchema.safeParse(answer.value);
  if (!parsed.success)
    throw new ModelAnswerInvalid(`review answer is invalid: ${describeIssues(parsed.error, '(root)')}`, answer.content);
  const { approved, objections, accept_unverified: acceptUnverified = false } = parsed.data;
  // A rejection without objections gives the agent nothing to act on; say so rather than loop blindly.
  if (!approved && !objections.length) objections.push('the reviewer rejected the change without saying why');
  return {
    approved,
    objections,
    acceptUnverified: approved && acceptUnverified,
    usage: answer.usage,
    model: answer.model,
    malformedRetries: answer.malformedRetries ?? 0,
  };
}
