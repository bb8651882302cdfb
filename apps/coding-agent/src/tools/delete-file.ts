import { rm, stat } from 'node:fs/promises';
import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { writablePath } from './tree-paths';

export const deleteFile = defineTool(
  'delete_file',
  'Delete a file.',
  z.object({ path: z.string().describe('file relative to the repository root') }).strict(),
  async ({ path: file }, ctx) => {
    const { rel, abs } = await writablePath(ctx.root, 'delete_file', file);
    const info = await stat(abs).catch(() => undefined);
    if (!info) throw new ToolFailed('delete_file', `${rel} does not exist`);
    if (info.isDirectory()) throw new ToolFailed('delete_file', `${rel} is a directory; delete its files`);
    await rm(abs);
    return { output: `deleted ${rel}`, changed: [rel] };
  },
);
