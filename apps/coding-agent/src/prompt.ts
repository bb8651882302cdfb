import type { farm } from '@farm/proto';
import type { ChatMessage } from '@farm/llm';
import { renderLessons } from './lessons-prompt';

export const SYSTEM_PROMPT = `You are a coding agent working in a git repository.
Answer with one JSON object: {"diff": "<unified diff>", "reasoning": "<short explanation>"}.
The diff must be a unified diff with paths relative to the repository root (--- a/path, +++ b/path),
apply cleanly to the files shown, and keep the repository's checks (format, lint, tests) passing.
Instead of a unified diff, "diff" may hold search/replace blocks: the file path on one line, then
<<<<<<< SEARCH, the exact current lines, =======, the new lines, >>>>>>> REPLACE.`;

/**
 * The messages for one attempt: the goal, the retrieved repository context (already cut to the token
 * budget, the task's own file first), and on a retry what went wrong last time (`lastFailure`).
 */
export function buildPrompt(
  task: farm.v1.ICodingTask,
  context: { text: string; omitted: string[] },
  lastFailure?: string,
): ChatMessage[] {
  const parts = [`TASK GOAL:\n${task.goal}`];
  if (task.path) parts.push(`MAIN FILE: ${task.path}`);
  const lessons = renderLessons(task.lessons);
  if (lessons) parts.push(lessons);
  parts.push(`REPOSITORY CONTEXT (read-only snippets with their line numbers):\n${context.text}`);
  if (context.omitted.length) parts.push(`Also relevant but left out for the budget: ${context.omitted.join(', ')}`);
  if (task.priorNotes?.length) parts.push(`NOTES FROM AN EARLIER RUN OF THIS TASK:\n${task.priorNotes.join('\n')}`);
  if (lastFailure) {
    parts.push(
      `YOUR PREVIOUS ATTEMPT FAILED. Fix it and answer with a new diff against the ORIGINAL files above.\n${lastFailure}`,
    );
  }
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
