import { describeMiss, replaceInTiers, TIER_DESCRIPTIONS } from '@farm/patch';
import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { writablePath } from './tree-paths';
import { readTreeText, writeTreeText } from './tree-text';

export const editFile = defineTool(
  'edit_file',
  'Replace text in a file. old_text must occur once (include enough surrounding lines to make it unique) unless replace_all is true; it is found exactly, else by whole lines ignoring trailing whitespace, then indentation (new_text is re-indented to match), then Unicode punctuation.',
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
    const found = replaceInTiers(text, old_text, new_text, { replaceAll: replace_all });
    if (found.kind !== 'replaced') throw new ToolFailed('edit_file', describeMiss(rel, found));
    await writeTreeText(ctx, 'edit_file', target, found.text);
    const how = found.tier === 'exact' ? '' : ` (old_text matched ${TIER_DESCRIPTIONS[found.tier]})`;
    return {
      output: `edited ${rel}: ${found.count} replacement(s), first at line ${found.firstLine}${how}`,
      changed: [rel],
      match: found.tier,
    };
  },
);
