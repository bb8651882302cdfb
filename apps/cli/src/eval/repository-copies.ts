/**
 * The run's copy of each repository, shared by the run's instances of it: made once (a clone of the bundle,
 * mirror or URL), every instance that arrives meanwhile waiting for that one clone, never for one another. After
 * that an instance reads the copy (its own scratch checkout is a `git clone --shared` of it) and writes nothing in
 * it but its own base branch, a ref of its own: instances of one repository set up, run and are scored at once.
 * A base commit the copy lacks is fetched: one fetch of the source's branches at a time per copy, shared by the
 * instances that asked while one ran; then the commit itself, for a source that serves commits on no branch.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '@farm/runtime';
import { CoalescedRefresh } from '../coalesced-refresh';
import { isNetworkTrouble } from './infra-failures';
import type { TaskInstance } from './instances';
import { InfraFailed, InstanceSetupFailed, baseBranchOf, repoCopyDir } from './instance-workspace';

const run = promisify(execFile);

/** The git work on a copy, behind a small interface (the coordination is tested with one of its own). */
export interface CopyOps {
  /** Whether `dir` holds a finished copy. */
  exists(dir: string): boolean;
  /** Makes the copy of `source` at `dir` (nothing at `dir` until it is whole). */
  clone(source: string, dir: string): Promise<void>;
  hasCommit(dir: string, sha: string): Promise<boolean>;
  /** Fetches the source's branches into the copy. */
  fetchBranches(dir: string, source: string): Promise<void>;
  /** Fetches one commit by its id (for a commit on no branch of the source's). */
  fetchCommit(dir: string, source: string, sha: string): Promise<void>;
  /** Points `branch` at `sha` (a ref of one instance's: no other instance writes it). */
  setBranch(dir: string, branch: string, sha: string): Promise<void>;
}

export class RepositoryCopies {
  /** Copies being made, by directory: the instances of a repository wait for the one clone. */
  private readonly making = new Map<string, Promise<void>>();
  private readonly branchFetches = new CoalescedRefresh();

  constructor(private readonly ops: CopyOps = gitCopyOps) {}

  /** The copy of the instance's repository, its base commit on the instance's base branch. */
  async prepare(instance: TaskInstance, source: string, reposDir: string): Promise<string> {
    const dir = repoCopyDir(instance, reposDir);
    const sha = instance.base_commit;
    try {
      await this.madeOnce(dir, source);
      if (!(await this.ops.hasCommit(dir, sha))) {
        await this.branchFetches.run(dir, () => this.ops.fetchBranches(dir, source));
      }
    } catch (err) {
      throw unreachable(source, err);
    }
    if (!(await this.ops.hasCommit(dir, sha)) && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
      // GitHub serves a commit by its id though no branch holds it (a base on a deleted branch)
      await this.ops.fetchCommit(dir, source, sha).catch((err: unknown) => {
        if (isNetworkTrouble(gitSaid(err))) throw unreachable(source, err);
        // not served: said below as the commit missing
      });
    }
    if (!(await this.ops.hasCommit(dir, sha))) {
      throw new InstanceSetupFailed(`base commit missing: ${sha} is not in ${source}`);
    }
    // A branch at the base commit: the farm serves a local repository's branches, and the commit must be on one.
    await this.ops.setBranch(dir, baseBranchOf(instance), sha);
    return dir;
  }

  private madeOnce(dir: string, source: string): Promise<void> {
    let making = this.making.get(dir);
    if (!making) {
      making = (this.ops.exists(dir) ? Promise.resolve() : this.ops.clone(source, dir)).finally(() =>
        this.making.delete(dir),
      );
      this.making.set(dir, making);
    }
    return making;
  }
}

/** The repository could not be read: the network's failure (a retry may pass) or the instance's (a wrong source). */
function unreachable(source: string, err: unknown): Error {
  const said = gitSaid(err);
  const message = `repository unreachable: ${source}: ${firstLine(said)}`;
  return isNetworkTrouble(said) ? new InfraFailed(message, err) : new InstanceSetupFailed(message, err);
}

/** What git said (its stderr), not Node's "Command failed: <the command line>". */
function gitSaid(err: unknown): string {
  const stderr = (err as { stderr?: unknown }).stderr;
  return typeof stderr === 'string' && stderr.trim() ? stderr : errorMessage(err);
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() && !/^(?:\w*Error: )?Command failed/.test(l)) ?? text;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-C', cwd, ...args], { maxBuffer: 64 << 20 });
  return stdout;
}

export const gitCopyOps: CopyOps = {
  exists: (dir) => existsSync(path.join(dir, '.git')),
  async clone(source, dir) {
    // Cloned beside, then renamed: an interrupted clone leaves no copy that looks whole. `..` is in no copy's
    // name (plain names hold single dots only), so the partial one never takes another repository's place.
    const partial = `${dir}..partial`;
    await mkdir(path.dirname(dir), { recursive: true });
    await rm(partial, { recursive: true, force: true });
    // --no-checkout: the farm reads commits, never this work tree; `--`: a source is never an option
    // (`--upload-pack=<command>` would run its command here, outside any sandbox). No automatic gc: instances'
    // checkouts borrow its objects, and its refs are written by several instances and the farm at once.
    await run(
      'git',
      ['clone', '-q', '--no-checkout', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '--', source, partial],
      { maxBuffer: 64 << 20 },
    );
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  },
  async hasCommit(dir, sha) {
    try {
      await git(dir, 'cat-file', '-e', `${sha}^{commit}`);
      return true;
    } catch {
      return false; // not there (yet): the caller says which
    }
  },
  async fetchBranches(dir, source) {
    await git(dir, 'fetch', '-q', '--no-write-fetch-head', '--', source, '+refs/heads/*:refs/remotes/origin/*');
  },
  async fetchCommit(dir, source, sha) {
    await git(dir, 'fetch', '-q', '--no-write-fetch-head', '--', source, sha);
  },
  async setBranch(dir, branch, sha) {
    await git(dir, 'branch', '-f', branch, sha);
  },
};

/** The process's copies: every run in this process shares them (a copy is a directory of its run's). */
const copies = new RepositoryCopies();

/**
 * The run's copy of the instance's repository under `reposDir` (made by the first of its instances), with the
 * instance's base branch; the farm serves it to its agents like any repository on this machine.
 */
export function localRepository(instance: TaskInstance, source: string, reposDir: string): Promise<string> {
  return copies.prepare(instance, source, reposDir);
}
