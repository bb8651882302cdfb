import fs from 'node:fs';
import git from 'isomorphic-git';
import { silentLogger, type Logger } from '@farm/runtime';
import { describeFailure, runChecks, type CheckCeilings, type CheckStep, type ChecksResult } from '@farm/sandbox';
import type { RepositoryChecks } from './agent-tool';

export interface TreeChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

/**
 * The net change of the work tree against HEAD: files whose content differs (untracked files that the
 * repository does not ignore count as added). Edits that were undone, and files created then deleted, are not
 * in it; that is what gets committed.
 */
export async function netChanges(dir: string): Promise<TreeChange[]> {
  const matrix = await git.statusMatrix({ fs, dir });
  const changes: TreeChange[] = [];
  for (const [filepath, head, workdir] of matrix) {
    if (head === 0 && workdir === 2) changes.push({ path: filepath, change: 'added' });
    else if (head === 1 && workdir === 0) changes.push({ path: filepath, change: 'deleted' });
    else if (head === 1 && workdir === 2) changes.push({ path: filepath, change: 'modified' });
  }
  return changes;
}

export interface WorkspaceOptions {
  /** The task's checkout. */
  root: string;
  /** The repository's checks (the same steps the diff strategy runs). */
  checks: CheckStep[];
  /** The default and the most a check step may ask for. */
  checkTimeoutSeconds: number;
  checkCeilings?: Partial<Omit<CheckCeilings, 'timeoutSeconds'>>;
  /** Extra environment for the checks; the sandbox still drops secrets. */
  env?: Record<string, string>;
  /** Directories besides the checkout that the checks may write (a shared package cache). */
  writableDirs?: string[];
  log?: Logger;
}

/**
 * The checkout as the agent's work: runs the repository's checks and tells the agent's net change (what the
 * tree changed against the base commit) apart from what the checks left behind.
 */
export class Workspace implements RepositoryChecks {
  private readonly log: Logger;
  /** Files the checks created or changed (an install's lock file, a build's output) that no tool touched since. */
  private readonly checkArtifacts = new Set<string>();

  constructor(private readonly opts: WorkspaceOptions) {
    this.log = opts.log ?? silentLogger;
  }

  /** Runs the repository's checks in the sandbox; used by run_checks and by the finish gate. */
  async runRepositoryChecks(): Promise<ChecksResult> {
    const before = new Set((await netChanges(this.opts.root)).map((c) => c.path));
    const result = await runChecks(this.opts.root, this.opts.checks, {
      ceilings: { ...this.opts.checkCeilings, timeoutSeconds: this.opts.checkTimeoutSeconds },
      env: this.opts.env,
      writableDirs: this.opts.writableDirs,
      log: this.log,
    });
    for (const c of await netChanges(this.opts.root)) if (!before.has(c.path)) this.checkArtifacts.add(c.path);
    return result;
  }

  /** The check result as the model reads it: passing steps in one line, the failure with what explains it. */
  describeChecks(result: ChecksResult): string {
    if (!this.opts.checks.length) return 'this repository has no checks configured';
    if (result.ok) return `all checks passed: ${result.steps.map((s) => s.name).join(', ')}`;
    return describeFailure(result) ?? 'a check failed';
  }

  /** A tool changed these paths: they are the agent's change, whatever the checks did to them before. */
  changedByAgent(paths: string[]): void {
    for (const p of paths) this.checkArtifacts.delete(p);
  }

  /**
   * The net change of the tree against the base commit that the agent made (with its tools or commands),
   * without what the checks left behind: what is reviewed and committed.
   */
  async agentChanges(): Promise<TreeChange[]> {
    return (await netChanges(this.opts.root)).filter((c) => !this.checkArtifacts.has(c.path));
  }
}
