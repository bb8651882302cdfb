import { stat } from 'node:fs/promises';
import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { writablePath } from './tree-paths';
import { writeTreeText } from './tree-text';

export const createFile = defineTool(
  'create_file',
  'Create a new file with the given content (fails if it exists: use edit_file to change a file).',
  z
    .object({
      path: z.string().describe('new file relative to the repository root'),
      content: z.string().describe('its content'),
    })
    .strict(),
  async ({ path: file, content }, ctx) => {
    const target = await writablePath(ctx.root, 'create_file', file);
    if (await stat(target.abs).catch(() => undefined))
      throw new ToolFailed('create_file', `${target.rel} already exists`);
    await writeTreeText(ctx, 'create_file', target, content);
    return { output: `created ${target.rel} (${content.split('\n').length} lines)`, changed: [target.rel] };
  },
);
