import { answerSchema, describeIssues, ModelAnswerInvalid, type JsonModel, type TokenUsage } from '@farm/llm';
import { z } from '@farm/runtime';

export const REVIEW_SYSTEM_PROMPT = `You review a coding agent's change before it is committed.
You get the task's goal, the agent's summary, the results of the repository's checks (they pass), the
verification (which checks ran or were skipped, and the differential: the change's new tests run on the base
commit, where they should fail, and on the branch, where they should pass) and the final diff.
Approve when the diff does what the goal asks, nothing more, without obvious bugs, leftovers or unrelated edits,
and its tests show the behaviour. Otherwise list concrete objections the agent can act on, each tied to a file
and a line of the new file (line 0: the file as a whole; file "": the change as a whole).
Give your confidence in the verdict, from 0 (a guess) to 1 (certain); a low-confidence approval sends the
change back to the agent.
When VERIFICATION says NOT VERIFIED (a behaviour goal with a tests-only change, or tests that pass without the
change), approve only if you accept the change as it is anyway, and then say so with "accept_unverified": true.
Answer with one JSON object:
{"approved": true|false, "objections": [{"file": "...", "line": 0, "text": "..."}], "confidence": 0.0-1.0, "accept_unverified": false}.`;

const objectionSchema = z.object({
  file: z.string(),
  line: z.number().int().min(0),
  text: z.string().min(1),
});
export type ReviewObjection = z.infer<typeof objectionSchema>;

/** A sloppy objection still counts: a bare string, a missing file or line, `message` for `text`. */
function lenientObjection(o: unknown): ReviewObjection | undefined {
  if (typeof o === 'string') return o.trim() ? { file: '', line: 0, text: o } : undefined;
  if (!o || typeof o !== 'object') return undefined;
  const r = o as Record<string, unknown>;
  const text = typeof r.text === 'string' ? r.text : typeof r.message === 'string' ? r.message : '';
  if (!text.trim()) return undefined;
  const line = typeof r.line === 'number' && Number.isInteger(r.line) && r.line > 0 ? r.line : 0;
  return { file: typeof r.file === 'string' ? r.file : '', line, text };
}

/** The reviewer's answer, declared once: it checks the answer and gives the model its JSON schema. */
export const reviewAnswerSchema = z.object({
  approved: z.boolean(),
  // Lenient: a missing list, or a stray entry in it, does not cost the other objections.
  objections: z.preprocess(
    (v) =>
      Array.isArray(v) ? v.map(lenientObjection).filter((o): o is ReviewObjection => o !== undefined) : undefined,
    z.array(objectionSchema).default([]),
  ),
  /** Out of range is held to 0..1; a reviewer that gives none is taken as sure (the verdicts before it was asked). */
  confidence: z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : undefined),
    z.number().min(0).max(1).default(1),
  ),
  /** An explicit acceptance of a change the farm could not verify (see verifyChange). */
  accept_unverified: z.boolean().optional(),
});

export const VERDICT_SCHEMA = answerSchema('review', reviewAnswerSchema);

export interface ReviewVerdict {
  approved: boolean;
  /** The objections as the agent reads them (`file:line: text`). */
  objections: string[];
  /** The same, tied to files and lines where the reviewer said. */
  findings: ReviewObjection[];
  confidence: number;
  /** The reviewer accepts the change although it is not verified. */
  acceptUnverified: boolean;
  usage: TokenUsage;
  model: string;
  malformedRetries: number;
}

/** An objection as the agent reads it: `file:line: text`. */
export function objectionLine(o: ReviewObjection): string {
  if (!o.file) return o.text;
  return `${o.file}${o.line ? `:${o.line}` : ''}: ${o.text}`;
}

/** One reviewer call: the goal, the checks, the verification and the final diff in; a verdict out. */
export async function reviewDiff(
  model: JsonModel,
  input: {
    goal: string;
    summary: string;
    diff: string;
    checks: string;
    verification?: string;
    unverified?: string;
    /** What of the reviewer's context the prompt may take (FARM_REVIEW_CONTEXT_WINDOW_TOKENS); none: no bound. */
    maxPromptTokens?: number;
  },
): Promise<ReviewVerdict> {
  const answer = await model.completeJson(
    [
      { role: 'system', content: REVIEW_SYSTEM_PROMPT },
      { role: 'user', content: reviewPrompt(input, input.maxPromptTokens) },
    ],
    VERDICT_SCHEMA,
  );
  const parsed = reviewAnswerSchema.safeParse(answer.value);
  if (!parsed.success)
    throw new ModelAnswerInvalid(`review answer is invalid: ${describeIssues(parsed.error, '(root)')}`, answer.content);
  const { approved, objections: findings, confidence, accept_unverified: acceptUnverified = false } = parsed.data;
  // A rejection without objections gives the agent nothing to act on; say so rather than loop blindly.
  if (!approved && !findings.length)
    findings.push({ file: '', line: 0, text: 'the reviewer rejected the change without saying why' });
  return {
    approved,
    objections: findings.map(objectionLine),
    findings,
    confidence,
    acceptUnverified: approved && acceptUnverified,
    usage: answer.usage,
    model: answer.model,
    malformedRetries: answer.malformedRetries ?? 0,
  };
}

/** Tokens of text as the farm estimates them (about four characters a token), as conversation-window.ts does. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * The reviewer's prompt, within `maxTokens` with the system prompt: the checks' output and then the diff are cut
 * to what fits (head and tail, saying how much was left out), never the goal; the reviewer is told what it did not see.
 */
export function reviewPrompt(
  input: { goal: string; summary: string; diff: string; checks: string; verification?: string; unverified?: string },
  maxTokens?: number,
): string {
  const build = (checks: string, diff: string) =>
    [
      `GOAL:\n${input.goal}`,
      `AGENT'S SUMMARY:\n${input.summary}`,
      `CHECKS:\n${checks}`,
      ...(input.verification ? [`VERIFICATION:\n${input.verification}`] : []),
      ...(input.unverified ? [`NOT VERIFIED: ${input.unverified}`] : []),
      `DIFF:\n${diff}`,
    ].join('\n\n');
  const whole = build(input.checks, input.diff);
  if (maxTokens === undefined) return whole;
  const room = (maxTokens - tokensOf(REVIEW_SYSTEM_PROMPT)) * 4;
  if (whole.length <= room) return whole;
  const fixed = build('', '').length;
  // The checks' output gets a quarter of what is left, at most what it is; the diff the rest.
  const left = Math.max(0, room - fixed - 400);
  const checks = cutToFit(input.checks, Math.min(input.checks.length, Math.floor(left / 4)), 'checks output');
  const diff = cutToFit(input.diff, Math.max(0, left - checks.length), 'diff');
  return build(checks, diff);
}

/** `text` in `chars`: its head and tail with a line saying what was cut and why. */
function cutToFit(text: string, chars: number, what: string): string {
  if (text.length <= chars) return text;
  const note = `\n[... ${what} cut: ${text.length - chars} of ${text.length} characters left out to fit the reviewer's context (FARM_REVIEW_CONTEXT_WINDOW_TOKENS) ...]\n`;
  const keep = Math.max(0, chars - note.length);
  const head = Math.ceil(keep * 0.7);
  return `${text.slice(0, head)}${note}${text.slice(text.length - (keep - head))}`;
}
