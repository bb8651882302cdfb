/**
 * The agent container's side of pod-sandbox.integration.test.ts, run inside the image (`node --import tsx
 * scripts/image/pod-sandbox-agent.ts` in /app: the image's own copy of this file and of @farm/sandbox): what the
 * agent does with the sandbox, through the same calls, with FARM_SANDBOX_RUNNER pointing at the pod's runner.
 * Prints one JSON line.
 *
 *   status                      confinementStatus(): what the runner says its runs get, and what is missing
 *   checks <repo> <steps.json>  runChecks() of the steps in the checkout, as the agent and the build run them
 */
import { readFileSync } from 'node:fs';
import { confinementStatus, describeStatus, runChecks, type CheckStep } from '../../clients/sandbox/src';

async function main(): Promise<unknown> {
  const [op, ...args] = process.argv.slice(2);
  if (op === 'status') {
    const status = await confinementStatus();
    return { ...status, reason: status.missing.length ? describeStatus(status) : undefined };
  }
  if (op === 'checks') {
    const [repo, stepsFile] = args;
    const steps = JSON.parse(readFileSync(stepsFile, 'utf8')) as CheckStep[];
    return runChecks(repo, steps, {
      ceilings: { timeoutSeconds: 60, maxProcesses: 64 },
      limits: { maxFileBytes: 16 * 1024 * 1024 },
    });
  }
  throw new Error(`unknown operation ${op}`);
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (err: unknown) => {
    process.stdout.write(
      `${JSON.stringify({ error: String((err as Error)?.message ?? err), name: (err as Error)?.name })}\n`,
    );
    process.exit(1);
  },
);
