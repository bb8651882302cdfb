import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { listTreeFiles } from './list-tree-files';
import { ToolFailed } from './tool-errors';
import { readablePath } from './tree-paths';

export const listFiles = defineTool(
  'list_files',
  'List the files of the repository (or of one directory), honouring .gitignore; node_modules and .git are never listed.',
  z
    .object({
      path: z.string().optional().describe('directory relative to the repository root (default: the root)'),
      limit: z.number().int().positive().optional().describe('most entries'),
    })
    .strict(),
  async ({ path: dir, limit }, ctx) => {
    const start = dir ? await readablePath(ctx.root, 'list_files', dir) : { rel: '' };
    if (start.rel && !(await stat(path.join(ctx.root, start.rel))).isDirectory())
      throw new ToolFailed('list_files', `${start.rel} is a file, not a directory`);
    const max = Math.min(limit ?? ctx.limits.maxListEntries, ctx.limits.maxListEntries);
    const { entries, truncated } = await listTreeFiles(ctx.root, { dir: start.rel, limit: max });
    const lines = entries.map((e) => (e.symlink ? `${e.path} (symlink)` : e.path));
    if (truncated) lines.push(`[... more files not listed: give a directory in "path" to see them ...]`);
    return { output: lines.length ? lines.join('\n') : '(no files)' };
  },
);
