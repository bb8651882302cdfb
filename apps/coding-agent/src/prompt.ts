import type { farm } from '@farm/proto';
import type { ChatMessage } from '@farm/llm';

export interface ContextFile {
  path: string;
  content: string;
}

export const SYSTEM_PROMPT = `You are a coding agent working in a git repository.
Answer with one JSON object: {"diff": "<unified diff>", "reasoning": "<short explanation>"}.
The diff must be a unified diff with paths relative to the repository root (--- a/path, +++ b/path),
apply cleanly to the files shown, and keep the repository's checks (format, lint, tests) passing.
Instead of a unified diff, "diff" may hold search/replace blocks: the file path on one line, then
<<<<<<< SEARCH, the exact current lines, =======, the new lines, >>>>>>> REPLACE.`;

/**
 * The messages for one attempt: the goal, the repository files within a character budget (the task's own
 * file first), and on a retry what went wrong last time.
 */
export function buildPrompt(
  task: farm.v1.ICodingTask,
  files: ContextFile[],
  feedback: string[],
  budgetChars: number,
): ChatMessage[] {
  const ordered = [...files].sort((a, b) => Number(b.path === task.path) - Number(a.path === task.path));
  let used = 0;
  const shown: string[] = [];
  const omitted: string[] = [];
  for (const f of ordered) {
    const block = `FILE: ${f.path}\n\`\`\`\n${f.content}\n\`\`\``;
    if (used + block.length > budgetChars) {
      omitted.push(f.path);
      continue;
    }
    used += block.length;
    shown.push(block);
  }
  const parts = [`TASK GOAL:\n${task.goal}`];
  if (task.path) parts.push(`MAIN FILE: ${task.path}`);
  parts.push(`REPOSITORY FILES:\n${shown.join('\n\n')}`);
  if (omitted.length) parts.push(`Files not shown (budget): ${omitted.join(', ')}`);
  if (task.priorNotes?.length) parts.push(`NOTES FROM AN EARLIER RUN OF THIS TASK:\n${task.priorNotes.join('\n')}`);
  if (feedback.length) {
    parts.push(
      `YOUR PREVIOUS ATTEMPT FAILED. Fix it and answer with a new diff against the ORIGINAL files above.\n${feedback.join('\n\n')}`,
    );
  }
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
