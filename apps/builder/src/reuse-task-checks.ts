import type { farm } from '@farm/proto';
import type { CheckStep } from '@farm/sandbox';

/** What the build knows about the one task it merges: its id and what verified its commit. */
export interface MergedTask {
  taskId: string;
  verification?: farm.v1.IVerification | null;
}

/**
 * Why the build may skip its checks, or undefined when it must run them: a request of one task whose merge is
 * exactly the tree that task's checks passed on (the merge of one branch onto its own base is that branch's
 * tree), with the same check commands, each of which ran and passed there. Anything else (several tasks, a
 * moved integration branch, a check skipped or changed) runs the checks.
 */
export function checksAlreadyRan(input: {
  tasks: MergedTask[];
  /** The tree the build would check (HEAD^{tree} after the merges). */
  tree: string;
  /** The build's check plan on that tree. */
  steps: Pick<CheckStep, 'run'>[];
}): string | undefined {
  if (input.tasks.length !== 1 || !input.steps.length) return undefined;
  const [{ taskId, verification }] = input.tasks;
  const checks = verification?.checks ?? [];
  if (!verification?.treeSha || verification.treeSha !== input.tree) return undefined;
  if (!checks.length || checks.some((c) => !c.ok || c.skipped || !c.run)) return undefined;
  const ran = checks.map((c) => c.run!).sort();
  const planned = input.steps.map((s) => s.run).sort();
  if (ran.length !== planned.length || ran.some((r, i) => r !== planned[i])) return undefined;
  return `checks: ran by task ${taskId} on tree ${input.tree} (${ran.join('; ')}), not run again`;
}
