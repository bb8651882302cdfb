import path from 'node:path';
import picomatch from 'picomatch';
import { errorMessage, z } from '@farm/runtime';
import { defineTool, type ToolContext } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { formatMatch, treeTextFiles } from './tree-text';

export const search = defineTool(
  'search',
  'Search the repository for a regular expression (JavaScript syntax); answers path:line: text, a bounded number of matches.',
  z
    .object({
      pattern: z.string().min(1).describe('regular expression'),
      path: z.string().optional().describe('directory or file to search in (default: the whole repository)'),
      glob: z.string().optional().describe('only files whose path matches this glob, e.g. *.py or src/**/*.ts'),
      ignore_case: z.boolean().optional().describe('case-insensitive'),
    })
    .strict(),
  async ({ pattern, path: where, glob, ignore_case }, ctx) => {
    let re: RegExp;
    try {
      re = new RegExp(pattern, ignore_case ? 'i' : '');
    } catch (err) {
      throw new ToolFailed('search', `invalid regular expression: ${errorMessage(err)}`);
    }
    const matches = await grep(ctx, re, { where, glob });
    return {
      output: matches.lines.length
        ? matches.lines.join('\n') +
          (matches.truncated ? `\n[... more matches not shown: narrow the pattern, path or glob ...]` : '')
        : 'no matches',
    };
  },
);

/** Lines matching `re` in the tree's text files, with paths and line numbers, bounded. */
async function grep(
  ctx: ToolContext,
  re: RegExp,
  opts: { where?: string; glob?: string },
): Promise<{ lines: string[]; truncated: boolean }> {
  const only = opts.glob ? globFilter(opts.glob) : undefined;
  const anyLine = new RegExp(re.source, re.flags.includes('m') ? re.flags : `${re.flags}m`);
  const lines: string[] = [];
  for await (const file of treeTextFiles(ctx, 'search', { where: opts.where, only })) {
    // A line matches only if the text matches in multiline mode: most files are ruled out in one test.
    if (!anyLine.test(file.text)) continue;
    const text = file.text.split('\n');
    for (let i = 0; i < text.length; i++) {
      if (!re.test(text[i])) continue;
      if (lines.length >= ctx.limits.maxSearchResults) return { lines, truncated: true };
      lines.push(formatMatch(file.path, i + 1, text[i]));
    }
  }
  return { lines, truncated: false };
}

/**
 * The files a search glob admits (picomatch: `*` within a segment, `**` across, `{a,b}`, dotfiles too): a glob
 * with a slash matches the whole path, one without matches the file name, as `*.py` is meant.
 */
export function globFilter(glob: string): (file: string) => boolean {
  const isMatch = picomatch(glob, { dot: true });
  return glob.includes('/') ? isMatch : (file) => isMatch(path.posix.basename(file));
}
