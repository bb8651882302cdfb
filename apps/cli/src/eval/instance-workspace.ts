/**
 * The git and sandbox work of an instance outside the farm: where its repository comes from and the names of
 * what it gets in the run's directory (its repository's copy, its scratch checkout, its logs), scratch checkouts
 * at the base commit, patches applied there, and its tests run in the sandbox the agents' checks use (no network,
 * the checks' limits), their whole log kept for grading. A failure here is the instance's (InstanceSetupFailed)
 * or its environment's (InfraFailed), never the agent's.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { FarmError, errorMessage } from '@farm/runtime';
import { CommandDenied, runSandboxed, type SandboxResult } from '@farm/sandbox';
import { patchedFiles, type TaskInstance } from './instances';

const run = promisify(execFile);

/** The instance cannot judge an agent: its repository or base commit, its test patch, its tests at the base. */
export class InstanceSetupFailed extends FarmError {
  constructor(message: string, cause?: unknown) {
    super(message, { retryable: false, cause });
  }
}

/**
 * The environment failed the instance, not the instance itself nor its agent: its set-up command failed or
 * timed out, its tests did not finish at the base, the network did not answer. Run again, it may pass.
 */
export class InfraFailed extends FarmError {
  constructor(message: string, cause?: unknown) {
    super(message, { retryable: true, cause });
  }
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-C', cwd, ...args], { maxBuffer: 256 << 20 });
  return stdout;
}

/**
 * Where the instance's repository comes from: `repo_path` (beside the dataset), `repo_url`, `repo` itself when it
 * is a URL or a path, a local mirror named after it in `mirrorDirs` (`owner__name.bundle`, `owner__name`,
 * `owner/name`, `name`, each also with `.git`), else GitHub by its name.
 */
export function repoSource(instance: TaskInstance, datasetDir: string, mirrorDirs: string[] = [datasetDir]): string {
  if (instance.repo_path) return path.resolve(datasetDir, instance.repo_path);
  if (instance.repo_url) return instance.repo_url;
  if (/^[a-z][a-z+.-]*:\/\//i.test(instance.repo)) return instance.repo;
  if (/^(\/|\.\.?\/)/.test(instance.repo)) return path.resolve(datasetDir, instance.repo);
  const [owner, name] = instance.repo.split('/');
  const names = [`${owner}__${name}`, instance.repo, ...(name ? [name] : [])].flatMap((n) => [
    `${n}.bundle`,
    n,
    `${n}.git`,
  ]);
  for (const dir of mirrorDirs) {
    for (const candidate of names) {
      const full = path.resolve(dir, candidate);
      // a mirror *in* the directory: a name like a/../../b looks nowhere else
      if (full.startsWith(path.resolve(dir) + path.sep) && existsSync(full)) return full;
    }
  }
  return `https://github.com/${instance.repo}.git`;
}

/**
 * Where the copy of the instance's repository is kept: a directory of `reposDir` named after `repo` (`owner/name`
 * is `owner__name`), strictly inside whatever `repo` says (`..`, an absolute path, a name of 10,000 characters).
 * A `repo` with no letter or digit names no repository and is the instance's error.
 */
export function repoCopyDir(instance: TaskInstance, reposDir: string): string {
  if (!/[\p{L}\p{N}]/u.test(instance.repo)) {
    throw new InstanceSetupFailed(
      `repo ${JSON.stringify(instance.repo)} names no repository: expected owner/name, a clone URL or a path (/..., ./..., ../...)`,
    );
  }
  return childDir(reposDir, plainNameOf(instance.repo.replace(/[^A-Za-z0-9._-]/g, '__')), 'repo');
}

/** The instance's scratch checkout under `scratchDir`, named after its id (strictly inside, whatever the id). */
export function scratchDirOf(instance: TaskInstance, scratchDir: string): string {
  return childDir(scratchDir, instanceName(instance), 'instance_id');
}

/** The directory of the instance's kept logs under `logsDir`, named after its id (strictly inside, whatever the id). */
export function logDirOf(instance: TaskInstance, logsDir: string): string {
  return childDir(logsDir, instanceName(instance), 'instance_id');
}

/**
 * The branch at the instance's base commit in its local repository: what the request names as its base (agents
 * clone a branch; a bare commit id is looked for in the default branch's history).
 */
export function baseBranchOf(instance: TaskInstance): string {
  return `eval-base/${instanceName(instance)}`;
}

/** The instance's id as a file and branch name; an id without a letter or digit (`.`, `..`) is refused. */
function instanceName(instance: TaskInstance): string {
  if (!/[\p{L}\p{N}]/u.test(instance.instance_id)) {
    throw new InstanceSetupFailed(
      `instance_id ${JSON.stringify(instance.instance_id)} cannot name the instance's checkout: it needs a letter or digit`,
    );
  }
  return plainNameOf(instance.instance_id); // ids differ, names differ: two instances never share a checkout
}

const PLAIN_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]|\.(?=[A-Za-z0-9_-])){0,99}$/;

/**
 * `name` when it is a plain file and branch name (letters, digits, `_`, `-` and single dots inside, at most 100
 * characters, not ending in `.lock`; every SWE-bench id and `owner__name` is), else a plain name made of it
 * and a hash of it, so that two names stay two.
 */
export function plainNameOf(name: string): string {
  if (PLAIN_NAME.test(name) && !name.endsWith('.lock')) return name;
  const stem = name
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^-+/, '') // never read as an option
    .slice(0, 60);
  return `${stem}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/** `root/name`, resolved and checked to be a directory strictly inside `root`. */
function childDir(root: string, name: string, field: string): string {
  const base = path.resolve(root);
  const dir = path.resolve(base, name);
  if (path.dirname(dir) !== base || path.basename(dir) !== name || name === '.' || name === '..') {
    throw new InstanceSetupFailed(`${field}: ${JSON.stringify(name)} is not a directory name inside ${base}`);
  }
  return dir;
}

/**
 * A clean checkout of `commit` in `dir`: made once, sharing the repository's objects, and reset (tracked files
 * checked out, everything else removed) when it is there already, which is several times faster than a new one.
 */
export async function scratchCheckout(repoDir: string, commit: string, dir: string): Promise<void> {
  if (existsSync(path.join(dir, '.git'))) {
    try {
      await git(dir, 'checkout', '-q', '-f', '--detach', commit);
      await git(dir, 'clean', '-q', '-f', '-d', '-x');
      return;
    } catch {
      // a checkout left broken by an interrupted run: made again below
    }
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  await run('git', ['clone', '-q', '--shared', '--no-checkout', repoDir, dir]);
  await git(dir, 'checkout', '-q', '--detach', commit);
}

/** Applies a unified diff to the checkout; what does not apply is an error naming why. */
export async function applyPatch(dir: string, patch: string, what: string): Promise<void> {
  if (!patch.trim()) return;
  await withPatchFile(dir, patch, what, async (file) => {
    try {
      // git apply refuses a path outside the work tree, in .git/ or beyond a symbolic link, and writes nothing
      // unless every hunk applies.
      await git(dir, 'apply', '--whitespace=nowarn', file);
    } catch (err) {
      throw doesNotApply(what, err);
    }
  });
}

/**
 * The test patch over whatever the change did to the same files: those files go back to the base first, as
 * SWE-bench's harness does, so that a change's own edits to a test file cannot block or alter the test patch.
 * Git puts them back (checkout of the base's, clean of the change's new ones), never a hand-made removal: git
 * touches nothing outside the work tree, in .git/ or through a symbolic link, and a patch naming such a path is
 * refused before anything is touched.
 */
export async function applyTestPatch(dir: string, baseCommit: string, testPatch: string): Promise<void> {
  const what = 'test patch';
  await withPatchFile(dir, testPatch, what, async (file) => {
    let touched: string[];
    try {
      touched = [...new Set([...(await pathsOfPatch(dir, file)), ...patchedFiles(testPatch)])];
    } catch (err) {
      throw doesNotApply(what, err);
    }
    const unsafe = touched.find((p) => p !== '/dev/null' && !isRepoPath(p));
    if (unsafe !== undefined) {
      throw new FarmError(`the ${what} names ${JSON.stringify(unsafe)}: a path outside the checkout or in .git/`, {
        retryable: false,
      });
    }
    const paths = touched.filter((p) => p !== '/dev/null');
    const inBase = new Set<string>();
    for (const part of chunks(paths)) {
      const listed = await git(dir, '--literal-pathspecs', 'ls-tree', '-z', '--name-only', baseCommit, '--', ...part);
      for (const p of listed.split('\0')) if (p) inBase.add(p);
    }
    for (const part of chunks([...inBase])) {
      await git(dir, '--literal-pathspecs', 'checkout', '-q', baseCommit, '--', ...part);
    }
    for (const part of chunks(paths.filter((p) => !inBase.has(p)))) {
      await git(dir, '--literal-pathspecs', 'clean', '-q', '-f', '-x', '--', ...part);
    }
    try {
      await git(dir, 'apply', '--whitespace=nowarn', file);
    } catch (err) {
      throw doesNotApply(what, err);
    }
  });
}

/** The patch in a file of the checkout's own .git/ (no name beside the checkout another instance could hold). */
async function withPatchFile(dir: string, patch: string, what: string, use: (file: string) => Promise<void>) {
  const file = path.join(dir, '.git', `farm-eval-${what.replace(/\W+/g, '-')}.patch`);
  await writeFile(file, patch.endsWith('\n') ? patch : patch + '\n');
  try {
    await use(file);
  } finally {
    await rm(file, { force: true });
  }
}

/** The paths a patch touches, as git apply reads them (quoted names, renames' new names). */
async function pathsOfPatch(dir: string, file: string): Promise<string[]> {
  const fields = (await git(dir, 'apply', '--numstat', '-z', file)).split('\0');
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const m = /^(?:-|\d+)\t(?:-|\d+)\t(.*)$/s.exec(fields[i]);
    if (!m) continue;
    if (m[1]) paths.push(m[1]);
    else paths.push(fields[++i], fields[++i]); // a rename or copy: both names follow
  }
  return paths.filter(Boolean);
}

/** A path inside a work tree as git names it: relative, no `.` or `..` part, nothing under `.git`. */
function isRepoPath(p: string): boolean {
  if (!p || p.startsWith('/') || p.includes('\0')) return false;
  return p.split('/').every((part) => part && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}

/** Lists cut to keep each git command line well within the system's limit. */
function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function doesNotApply(what: string, err: unknown): FarmError {
  return new FarmError(`the ${what} does not apply: ${firstLine(errorMessage(err))}`, {
    retryable: false,
    cause: err,
  });
}

/** The change between `base` and `ref` in `repoDir`, as a patch applicable to the base. */
export async function diffOf(repoDir: string, base: string, ref: string): Promise<string> {
  return git(repoDir, 'diff', '--binary', base, ref);
}

const TEST_LOG_MAX_CHARS = 16 << 20;

/** A command of the instance (set-up, tests) in the sandbox: no network, the checks' limits, the whole log. */
export async function runInSandbox(dir: string, command: string, timeoutMs: number): Promise<SandboxResult> {
  if (!statSync(dir).isDirectory()) throw new InstanceSetupFailed(`no checkout at ${dir}`);
  return runSandboxed({
    command,
    cwd: dir,
    timeoutMs,
    limits: { maxOutputBytes: TEST_LOG_MAX_CHARS },
    // the grader reads every test's line: nothing is cut to "what explains the failure"
    explainOutput: (output, max) => output.slice(-max),
    env: { PYTHONDONTWRITEBYTECODE: '1' },
    network: 'none',
  }).catch((err: unknown) => {
    // the instance's command, refused wherever it runs: its own error, not the environment's
    if (err instanceof CommandDenied) throw new InstanceSetupFailed(`the sandbox refuses the command: ${err.message}`);
    throw err;
  });
}

/** What a failed command said: its first line of its own, not Node's "Command failed: <the command line>". */
function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() && !/^(?:\w*Error: )?Command failed/.test(l)) ?? text;
}
