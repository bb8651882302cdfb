import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { writablePath } from './tree-paths';
import { readTreeText, writeTreeText } from './tree-text';

export const editFile = defineTool(
  'edit_file',
  'Replace exact text in a file. old_text must occur exactly once (include enough surrounding lines to make it unique) unless replace_all is true.',
  z
    .object({
      path: z.string().describe('file relative to the repository root'),
      old_text: z
        .string()
        .min(1, 'old_text must not be empty; use create_file for a new file')
        .describe('the exact current text, including indentation'),
      new_text: z.string().describe('the text to put in its place'),
      replace_all: z.boolean().optional().describe('replace every occurrence'),
    })
    .strict(),
  async ({ path: file, old_text, new_text, replace_all }, ctx) => {
    const target = await writablePath(ctx.root, 'edit_file', file);
    const { rel } = target;
    const { text } = await readTreeText(ctx, 'edit_file', rel);
    const at = occurrences(text, old_text);
    if (at.length === 0) {
      throw new ToolFailed(
        'edit_file',
        `old_text was not found in ${rel}; read the file again and copy the current text exactly (whitespace included)`,
      );
    }
    if (at.length > 1 && !replace_all) {
      const lineNos = at.map((i) => text.slice(0, i).split('\n').length);
      throw new ToolFailed(
        'edit_file',
        `old_text occurs ${at.length} times in ${rel} (lines ${lineNos.join(', ')}); add surrounding lines to make it unique, or set replace_all`,
      );
    }
    const updated = replace_all ? text.split(old_text).join(new_text) : text.replace(old_text, () => new_text);
    await writeTreeText(ctx, 'edit_file', target, updated);
    const line = text.slice(0, at[0]).split('\n').length;
    return { output: `edited ${rel}: ${at.length} replacement(s), first at line ${line}`, changed: [rel] };
  },
);

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}
