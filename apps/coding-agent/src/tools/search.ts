import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, z } from '@farm/runtime';
import { defineTool, type ToolContext } from './agent-tool';
import { listTreeFiles } from './list-tree-files';
import { ToolFailed } from './tool-errors';
import { readablePath } from './tree-paths';
import { formatMatch } from './tree-text';

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
  const start = opts.where ? await readablePath(ctx.root, 'search', opts.where) : { rel: '' };
  const isFile = start.rel && (await stat(path.join(ctx.root, start.rel))).isFile();
  const files = isFile
    ? [start.rel]
    : (await listTreeFiles(ctx.root, { dir: start.rel, limit: 20_000 })).entries
        .filter((e) => !e.symlink)
        .map((e) => e.path);
  const globRe = opts.glob ? globToRegExp(opts.glob) : undefined;
  const anyLine = new RegExp(re.source, re.flags.includes('m') ? re.flags : `${re.flags}m`);
  const lines: string[] = [];
  for (const file of files) {
    if (globRe && !globRe.test(opts.glob!.includes('/') ? file : path.posix.basename(file))) continue;
    const abs = path.join(ctx.root, file);
    const info = await stat(abs).catch(() => undefined);
    if (!info?.isFile() || info.size > ctx.limits.maxReadBytes) continue;
    const bytes = await readFile(abs);
    if (bytes.includes(0)) continue;
    const whole = bytes.toString('utf8');
    // A line matches only if the text matches in multiline mode: most files are ruled out in one test.
    if (!anyLine.test(whole)) continue;
    const text = whole.split('\n');
    for (let i = 0; i < text.length; i++) {
      if (!re.test(text[i])) continue;
      if (lines.length >= ctx.limits.maxSearchResults) return { lines, truncated: true };
      lines.push(formatMatch(file, i + 1, text[i]));
    }
  }
  return { lines, truncated: false };
}

/** `*` within a path segment, `**` across segments, `?` one character; braces `{a,b}` for alternatives. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
