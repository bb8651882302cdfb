import { z } from '@farm/runtime';
import { linkedEnvironmentDirs, runSandboxed } from '@farm/sandbox';
import { defineTool } from './agent-tool';

export const runCommand = defineTool(
  'run_command',
  'Run a shell command in the repository root, in the sandbox: no network, a timeout, resource limits; destructive commands are refused.',
  z
    .object({
      command: z.string().min(1).describe('a shell command line'),
      timeout_seconds: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('timeout (default and maximum: the configured limit)'),
    })
    .strict(),
  async ({ command, timeout_seconds }, ctx) => {
    const max = ctx.limits.commandTimeoutSeconds;
    const result = await runSandboxed({
      command,
      cwd: ctx.root,
      timeoutMs: Math.min(timeout_seconds ?? max, max) * 1000,
      env: { PYTHONDONTWRITEBYTECODE: '1', ...ctx.env },
      writableDirs: ctx.writableDirs,
      // the shared environment the checkout's node_modules links to, read-only as in the checks
      readableDirs: linkedEnvironmentDirs(ctx.root),
      network: 'none',
      limits: {
        maxOutputBytes: ctx.limits.maxOutputChars,
        memoryBytes: ctx.checkCeilings?.memoryBytes,
        maxProcesses: ctx.checkCeilings?.maxProcesses,
      },
      log: ctx.log,
    });
    const how = result.timedOut
      ? `timed out after ${Math.round(result.durationMs / 1000)} s`
      : result.killedBy
        ? `stopped (${result.killedBy})`
        : `exit code ${result.exitCode}`;
    return { output: `${how}\n${result.output}`, ok: result.exitCode === 0 && !result.timedOut };
  },
);
