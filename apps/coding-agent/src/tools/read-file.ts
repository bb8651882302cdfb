import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { readTreeText } from './tree-text';

export const readFile = defineTool(
  'read_file',
  'Read a text file, or a range of its lines, with line numbers.',
  z
    .object({
      path: z.string().describe('file relative to the repository root'),
      start_line: z.number().int().positive().optional().describe('first line to show (1-based, default 1)'),
      end_line: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('last line to show (inclusive, default: as many as fit)'),
    })
    .strict(),
  async ({ path: file, start_line, end_line }, ctx) => {
    const { text } = await readTreeText(ctx, 'read_file', file);
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const from = Math.max(1, start_line ?? 1);
    const to = Math.min(lines.length, end_line ?? lines.length);
    if (lines.length === 0) return { output: '(empty file)' };
    if (from > lines.length) throw new ToolFailed('read_file', `the file has ${lines.length} lines`);
    const width = String(to).length;
    const out: string[] = [];
    let used = 0;
    // Room for the note below, so the cut is ours (at a line end) and not the output bound's.
    const budget = ctx.limits.maxOutputChars - 200;
    for (let n = from; n <= to; n++) {
      const line = `${String(n).padStart(width)}| ${lines[n - 1]}`;
      if (used + line.length + 1 > budget) {
        out.push(`[... lines ${n}-${to} not shown: call read_file with start_line=${n} ...]`);
        break;
      }
      out.push(line);
      used += line.length + 1;
    }
    return { output: out.join('\n') };
  },
);
