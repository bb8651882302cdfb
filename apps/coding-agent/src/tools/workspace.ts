import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import type { farm } from '@farm/proto';
import { silentLogger, type Logger } from '@farm/runtime';
import {
  CHECKOUT_DESTROYED,
  describeFailure,
  runChecks,
  type CheckCeilings,
  type CheckStep,
  type ChecksResult,
} from '@farm/sandbox';
import { agentMetrics } from '../metrics';
import { verifyChange } from '../verify-change';
import { unifiedTreeDiff, type TreeChange } from './tree-diff';
import type { RepositoryChecks } from './agent-tool';

export type { TreeChange } from './tree-diff';

/**
 * The net change of the work tree against the `base` commit (not HEAD, which a check may have moved): files
 * whose content differs (untracked files that the repository does not ignore count as added). Edits that were
 * undone, and files created then deleted, are not in it; that is what gets committed.
 */
export async function netChanges(dir: string, base: string): Promise<TreeChange[]> {
  const matrix = await git.statusMatrix({ fs, dir, ref: base });
  const changes: TreeChange[] = [];
  for (const [filepath, head, workdir] of matrix) {
    if (head === 0 && workdir === 2) changes.push({ path: filepath, change: 'added' });
    else if (head === 1 && workdir === 0) changes.push({ path: filepath, change: 'deleted' });
    else if (head === 1 && workdir === 2) changes.push({ path: filepath, change: 'modified' });
  }
  return changes;
}

/**
 * What a command did to the checkout that leaves nothing to trust in it: the git data no longer holds the base
 * commit (.git removed or emptied), or files of the agent's change (`agentFiles`) are gone.
 * Undefined when neither; a check's other writes are told apart later (Workspace.checkArtifacts).
 */
export async function checkoutDamage(
  root: string,
  base: string,
  agentFiles: TreeChange[],
): Promise<string | undefined> {
  try {
    await git.readCommit({ fs, dir: root, oid: base });
  } catch {
    return `the checkout's git data (.git) no longer holds the base commit ${base.slice(0, 12)}: it was removed or damaged`;
  }
  const gone: string[] = [];
  for (const c of agentFiles) if (!(await lstat(path.join(root, c.path)).catch(() => undefined))) gone.push(c.path);
  if (!gone.length) return undefined;
  const shown = gone.length > 10 ? `${gone.slice(0, 10).join(', ')} and ${gone.length - 10} more` : gone.join(', ');
  return `it deleted ${gone.length === 1 ? 'a file' : `${gone.length} files`} of the change: ${shown}`;
}

/** A check run as the workspace hands it out: `reused` when it is the passing run of the same tree, not run again. */
export type WorkspaceChecks = ChecksResult & { reused?: true };

export interface WorkspaceOptions {
  /** The task's checkout. */
  root: string;
  /** The commit the checkout started from: the agent's change is what the tree changed against it. */
  base: string;
  /** The repository's checks (the same steps the diff strategy runs). */
  checks: CheckStep[];
  /** The default and the most a check step may ask for. */
  checkTimeoutSeconds: number;
  checkCeilings?: Partial<Omit<CheckCeilings, 'timeoutSeconds'>>;
  /** Checks the plan implies that cannot run here, and why (for the verification). */
  skippedChecks?: { name: string; reason: string }[];
  /** Extra environment for the checks; the sandbox still drops secrets. */
  env?: Record<string, string>;
  /** Directories besides the checkout that the checks may write (a shared package cache). */
  writableDirs?: string[];
  log?: Logger;
  /**
   * Told of each check step as it starts, every CHECK_PROGRESS_EVERY_MS while it runs, and as it ends with its
   * output: for following the task live (they go to the live steps only, not into the trajectory's report).
   */
  progress?: (
    event: 'check_started' | 'check_output' | 'check_running' | 'check_step',
    data: Record<string, unknown>,
  ) => void;
  /** How often a running step's new output is told (check_output); default CHECK_OUTPUT_EVERY_MS. */
  checkOutputEveryMs?: number;
}

/** How often a running check step's new output is told, at most CHECK_OUTPUT_CHARS of it (its latest). */
export const CHECK_OUTPUT_EVERY_MS = 2_000;
export const CHECK_OUTPUT_CHARS = 2_000;
/** Output chunks told per step at most: a long step's later progress is its heartbeat only. */
export const CHECK_OUTPUT_CHUNKS = 60;
/** How often a running check step says that it still runs. */
export const CHECK_PROGRESS_EVERY_MS = 10_000;

/**
 * The checkout as the agent's work: runs the repository's checks and tells the agent's net change (what the
 * tree changed against the base commit) apart from what the checks left behind.
 */
export class Workspace implements RepositoryChecks {
  private readonly log: Logger;
  /** Files the checks created or changed (an install's lock file, a build's output) that no tool touched since. */
  private readonly checkArtifacts = new Set<string>();
  /** Files a tool wrote (edit, create): the agent's work by intent, not by what the tree shows. */
  private readonly toolWritten = new Set<string>();
  /** The last passing check run and the tree it ran on (see treeKey). */
  private lastPass?: { key: string; result: ChecksResult };
  /** The last verification and the tree (and task kind) it was made for: a finish on the same tree reuses it. */
  private lastVerification?: { key: string; verification: farm.v1.IVerification };

  constructor(private readonly opts: WorkspaceOptions) {
    this.log = opts.log ?? silentLogger;
  }

  /**
   * Runs the repository's checks in the sandbox; used by run_checks, the finish gate and the diff strategy. A
   * tree the checks already passed on (same change, same plan) is not checked again: that run is handed back.
   */
  async runRepositoryChecks(): Promise<WorkspaceChecks> {
    const key = await this.treeKey();
    if (this.lastPass?.key === key) {
      this.log.info('checks reused: they passed on this tree', { steps: this.lastPass.result.steps.length });
      return { ...this.lastPass.result, reused: true };
    }
    const changes = await netChanges(this.opts.root, this.opts.base);
    const before = new Set(changes.map((c) => c.path));
    // A file the base has and the agent changed, or one a tool wrote: a check that deletes it destroyed the work.
    // (Others the agent's own commands left, scratch output a test's teardown may remove, just leave the change.)
    const agentFiles = changes.filter(
      (c) =>
        !this.checkArtifacts.has(c.path) &&
        (c.change === 'modified' || (c.change === 'added' && this.toolWritten.has(c.path))),
    );
    const result = await this.runStepsIn(this.opts.root, this.opts.checks, () =>
      checkoutDamage(this.opts.root, this.opts.base, agentFiles),
    );
    // A checkout a check destroyed ends the task (refusedCheckNote); there is nothing left to tell apart.
    if (result.failed?.denied?.rule === CHECKOUT_DESTROYED) return result;
    for (const c of await netChanges(this.opts.root, this.opts.base))
      if (!before.has(c.path)) this.checkArtifacts.add(c.path);
    // Only a pass is kept: a failure is run again (the model may be waiting out a flaky test).
    this.lastPass = result.ok ? { key, result } : undefined;
    return result;
  }

  /**
   * Runs `steps` in `dir` in the sandbox with the limits of the repository's checks; `damage` judges the
   * checkout after each step (see RunChecksOptions.afterStep).
   */
  runStepsIn(dir: string, steps: CheckStep[], damage?: () => Promise<string | undefined>): Promise<ChecksResult> {
    const progress = this.opts.progress;
    const everyMs = this.opts.checkOutputEveryMs ?? CHECK_OUTPUT_EVERY_MS;
    // The step running now: its output since it was last told (its latest CHECK_OUTPUT_CHARS), and what was cut.
    let running: { name: string; started: number; pending: string; cut: number; chunks: number } | undefined;
    let ticking: NodeJS.Timeout | undefined;
    let lastBeat = 0;
    const stopTicking = () => clearInterval(ticking);
    const tick = () => {
      if (!running || !progress) return;
      if (running.pending && running.chunks < CHECK_OUTPUT_CHUNKS) {
        running.chunks++;
        const cut = running.cut ? { cutChars: running.cut } : {};
        progress('check_output', { name: running.name, output: running.pending, ...cut });
      }
      running.pending = '';
      running.cut = 0;
      if (Date.now() - lastBeat >= CHECK_PROGRESS_EVERY_MS) {
        lastBeat = Date.now();
        progress('check_running', { name: running.name, elapsedS: Math.round((Date.now() - running.started) / 1000) });
      }
    };
    return runChecks(dir, steps, {
      onStepStart: progress
        ? (step) => {
            running = { name: step.name, started: Date.now(), pending: '', cut: 0, chunks: 0 };
            lastBeat = Date.now();
            progress('check_started', { name: step.name, run: step.run });
            stopTicking();
            ticking = setInterval(tick, everyMs);
          }
        : undefined,
      onStepOutput: progress
        ? (_step, text) => {
            if (!running) return;
            running.pending += text;
            const over = running.pending.length - CHECK_OUTPUT_CHARS;
            if (over > 0) {
              running.cut += over;
              running.pending = running.pending.slice(over);
            }
          }
        : undefined,
      onStep: (r) => {
        if (r.environment) {
          agentMetrics.environments.inc({ how: r.environment.how });
          agentMetrics.environmentSeconds.observe({ how: r.environment.how }, r.durationMs / 1000);
        }
        if (!progress) return;
        stopTicking();
        running = undefined;
        const { name, run, ok, exitCode, timedOut, durationMs, output, environment } = r;
        progress('check_step', {
          name,
          run,
          ok,
          exitCode,
          timedOut,
          durationMs,
          output,
          ...(environment ? { environment } : {}),
        });
      },
      ceilings: { ...this.opts.checkCeilings, timeoutSeconds: this.opts.checkTimeoutSeconds },
      env: this.opts.env,
      writableDirs: this.opts.writableDirs,
      afterStep: damage
        ? async () => {
            const reason = await damage();
            return reason ? { rule: CHECKOUT_DESTROYED, reason } : undefined;
          }
        : undefined,
      log: this.log,
    }).finally(stopTicking);
  }

  /** What verifies the agent's change after `checks` passed on it (see verifyChange). */
  async verify(kind: farm.v1.TaskKind | null | undefined, checks: ChecksResult): Promise<farm.v1.IVerification> {
    const key = `${kind ?? 0}:${await this.treeKey()}`;
    if (this.lastVerification?.key === key) return structuredClone(this.lastVerification.verification);
    const verification = await verifyChange({
      kind,
      repoDir: this.opts.root,
      base: this.opts.base,
      changes: await this.agentChanges(),
      steps: this.opts.checks,
      skipped: this.opts.skippedChecks ?? [],
      checks,
      runSteps: (dir, steps) => this.runStepsIn(dir, steps),
    });
    this.lastVerification = { key, verification: structuredClone(verification) };
    return verification;
  }

  /**
   * The content hash of what the checks judge: the check plan and every file of the agent's net change (path,
   * kind, content). Any edit, also one undone to other text, changes it; what the checks left behind does not.
   */
  async treeKey(): Promise<string> {
    const hash = createHash('sha256').update(JSON.stringify(this.opts.checks));
    const changes = (await this.agentChanges()).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const c of changes) {
      hash.update(`\0${c.path}\0${c.change}\0`);
      if (c.change !== 'deleted') hash.update(await readFile(path.join(this.opts.root, c.path)).catch(() => ''));
    }
    return hash.digest('hex');
  }

  /** The check result as the model reads it: passing steps in one line, the failure with what explains it. */
  describeChecks(result: WorkspaceChecks): string {
    if (!this.opts.checks.length) return 'this repository has no checks configured';
    const names = result.steps.map((s) => s.name).join(', ');
    if (result.ok && result.reused) return `all checks passed: ${names} (the tree is unchanged since they last passed)`;
    if (result.ok) return `all checks passed: ${names}`;
    return describeFailure(result) ?? 'a check failed';
  }

  /** A tool changed these paths: they are the agent's change, whatever the checks did to them before. */
  changedByAgent(paths: string[]): void {
    for (const p of paths) {
      this.checkArtifacts.delete(p);
      this.toolWritten.add(p);
    }
  }

  /** A unified diff of `changes` against the base commit, `maxChars` at most (see unifiedTreeDiff). */
  unifiedDiff(changes: TreeChange[], maxChars?: number): Promise<string> {
    return unifiedTreeDiff(this.opts.root, this.opts.base, changes, maxChars);
  }

  /**
   * The net change of the tree against the base commit that the agent made (with its tools or commands),
   * without what the checks left behind: what is reviewed and committed.
   */
  async agentChanges(): Promise<TreeChange[]> {
    return (await netChanges(this.opts.root, this.opts.base)).filter((c) => !this.checkArtifacts.has(c.path));
  }
}
