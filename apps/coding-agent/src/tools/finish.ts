import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';

export const finish = defineTool(
  'finish',
  'Finish the task: the checks run on the final tree, and a reviewer reads the diff. Refused (with the reason) while checks fail.',
  z.object({ summary: z.string().min(1).describe('what you changed and why, in a few sentences') }).strict(),
  async ({ summary }) => ({ output: 'finishing', finish: { summary } }),
);
