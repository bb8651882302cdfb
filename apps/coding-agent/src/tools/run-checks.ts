import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';

export const runChecks = defineTool(
  'run_checks',
  "Run the repository's checks (format, lint, tests) in the sandbox, as they will be run before the commit.",
  z.object({}).strict(),
  async (_args, ctx) => {
    const checks = await ctx.checks.runRepositoryChecks();
    return { output: ctx.checks.describeChecks(checks), ok: checks.ok, checks };
  },
);
