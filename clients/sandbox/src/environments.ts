/**
 * Environments set up once and shared: a repository's dependencies, installed for the content of its manifests,
 * kept in a store every task, base run and build of that content links to instead of installing again.
 *
 * - The key is the stack, the install command, the Node.js version and platform, and every manifest file's name
 *   and bytes (package.json, the lockfile, .npmrc/.yarnrc): a change of any of them, on the base or by the task
 *   itself, makes another environment; the same content, in another checkout, task or farm process, finds it.
 * - One set-up per key: the first to come takes a lock file (O_EXCL; its pid and host inside) and installs in the
 *   environment's directory, which holds copies of the manifests only; the others wait for its ready file, and
 *   take over a lock whose process is gone. A failed install leaves nothing.
 * - The install is the same sandboxed step as before (its network as the operator allows it, no secret), run in
 *   the staging directory; once in place the environment is never written again: checks get it read-only.
 * - A checkout links to it with a `node_modules` directory of its own holding one symlink per package (so tools
 *   that write `node_modules/.cache` write into the checkout) and a marker naming the key; the commit never holds
 *   it (the agent commits the paths it changed).
 * - Python: a virtualenv (`--system-site-packages`, so what the machine has stays visible) with the repository's
 *   declared dependencies, linked as the checkout's `.venv`; the checks run `.venv/bin/python -m pytest`, which
 *   imports the checkout's own code (the project itself is never installed into the shared environment).
 * An environment is built where it stays (a virtualenv cannot be moved), its ready file written last: nobody
 * links one without it, and the next lock owner removes what a crashed set-up left.
 * Workspaces (npm/yarn `workspaces`, pnpm-workspace.yaml) link packages of the checkout itself: not shared.
 */
import { createHash } from 'node:crypto';
import { constants, existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import {
  copyFile,
  lstat,
  mkdir,
  open,
  readFile,
  readdir,
  readlink,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errorMessage, silentLogger, type Logger } from '@farm/runtime';
import { TEST_REQUIREMENTS } from './python-install';

/** The manifests a Node install reads, besides package.json, when present at the top of the checkout. */
const NODE_MANIFESTS = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
];

/** The manifests a Python environment is made from, when present at the top of the checkout. */
const PYTHON_MANIFESTS = ['pyproject.toml', 'setup.cfg', 'setup.py', 'Pipfile', 'Pipfile.lock', 'poetry.lock'];

/** The marker a linked `node_modules` (or a shared `.venv`) holds: the key of the environment and its directory. */
export const LINK_MARKER = '.farm-environment';
const READY_FILE = 'environment.json';

export interface EnvironmentSpec {
  stack: 'node' | 'python';
  key: string;
  /** The store's directory of this environment: `<root>/<stack>-<key>`. */
  name: string;
  /** Manifest files copied into the staging directory (relative to the checkout). */
  files: string[];
  command: string;
}

/** What an install run answers (a check step's sandbox run). */
export interface InstallRun {
  ok: boolean;
  output: string;
  durationMs: number;
}

export interface ProvidedEnvironment {
  ok: boolean;
  /** `reused`: it was there; `built`: this call set it up; `waited`: another set it up meanwhile; `failed`. */
  how: 'reused' | 'built' | 'waited' | 'failed';
  output: string;
  durationMs: number;
  /** The environment's directory (to be readable by the checks). */
  dir: string;
}

/** The environment a checkout's Node install makes, or why it is not shared. */
export async function nodeEnvironmentOf(
  repoDir: string,
  command: string,
): Promise<EnvironmentSpec | { unshared: string }> {
  const files: string[] = [];
  const hash = createHash('sha256').update(
    `node\0${process.version}\0${process.platform}-${process.arch}\0${command}\0`,
  );
  for (const file of NODE_MANIFESTS) {
    const bytes = await readFile(join(repoDir, file)).catch(() => undefined);
    if (bytes === undefined) continue;
    files.push(file);
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  const pkg = await readFile(join(repoDir, 'package.json'), 'utf8').catch(() => '');
  let workspaces = false;
  try {
    workspaces = Boolean((JSON.parse(pkg) as { workspaces?: unknown }).workspaces);
  } catch {
    return { unshared: 'package.json is not valid JSON' };
  }
  if (workspaces || (await exists(join(repoDir, 'pnpm-workspace.yaml'))))
    return { unshared: 'a workspace links packages of the checkout itself' };
  const key = hash.digest('hex').slice(0, 24);
  return { stack: 'node', key, name: `node-${key}`, files, command };
}

let pythonVersion: string | undefined;

/** The environment a checkout's Python install makes (its manifests, requirements files, the interpreter). */
export async function pythonEnvironmentOf(repoDir: string, command: string): Promise<EnvironmentSpec> {
  pythonVersion ??= execFileSync('python3', ['-c', 'import sys; print(sys.version)'], { encoding: 'utf8' }).trim();
  const hash = createHash('sha256').update(
    `python\0${pythonVersion}\0${process.platform}-${process.arch}\0${command}\0`,
  );
  const top = await readdir(repoDir).catch(() => [] as string[]);
  const files: string[] = [];
  for (const file of [...PYTHON_MANIFESTS, ...top.filter((f) => TEST_REQUIREMENTS.test(f)).sort()]) {
    const bytes = await readFile(join(repoDir, file)).catch(() => undefined);
    if (bytes === undefined) continue;
    files.push(file);
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  const key = hash.digest('hex').slice(0, 24);
  return { stack: 'python', key, name: `python-${key}`, files, command };
}

/** The shared environment `step` (a detected install) makes of `repoDir`, or why it is not shared. */
export async function environmentOf(
  repoDir: string,
  step: { run: string; environment?: 'node' | 'python' },
): Promise<EnvironmentSpec | { unshared: string }> {
  if (step.environment === 'python') return pythonEnvironmentOf(repoDir, step.run);
  return nodeEnvironmentOf(repoDir, step.run);
}

export interface EnvironmentStoreOptions {
  /** The store's directory (FARM_ENVIRONMENTS_DIR; farm up: its state directory's `environments`). */
  root: string;
  log?: Logger;
  /** How often a waiting caller looks again (default 500 ms). */
  pollMs?: number;
  /** A lock older than this is taken over even when its process cannot be checked (another host; default 1 h). */
  staleLockMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  at: number;
}

export class EnvironmentStore {
  private readonly log: Logger;

  constructor(private readonly options: EnvironmentStoreOptions) {
    this.log = options.log ?? silentLogger;
  }

  get root(): string {
    return this.options.root;
  }

  /**
   * The environment of `spec` linked into `repoDir`: found, or set up by `install` (run in a staging directory
   * holding the manifests) when nobody has, or waited for while another sets it up.
   */
  async provide(
    spec: EnvironmentSpec,
    repoDir: string,
    install: (stagingDir: string) => Promise<InstallRun>,
  ): Promise<ProvidedEnvironment> {
    const started = performance.now();
    const dir = join(this.options.root, spec.name);
    const took = () => Math.round(performance.now() - started);
    let waited = false;
    await mkdir(this.options.root, { recursive: true });
    for (;;) {
      if (await exists(join(dir, READY_FILE))) {
        await linkEnvironment(repoDir, dir, spec);
        const how = waited ? 'waited' : 'reused';
        const linked = spec.stack === 'python' ? '.venv' : 'node_modules';
        const output = `environment ${spec.name} ${waited ? 'set up by another task meanwhile' : 'reused'}: ${linked} linked`;
        return { ok: true, how, output, durationMs: took(), dir };
      }
      const lock = await this.tryLock(spec);
      if (!lock) {
        if (!waited) this.log.info('waiting for the environment another task sets up', { environment: spec.name });
        waited = true;
        await new Promise((r) => setTimeout(r, this.options.pollMs ?? 500));
        continue;
      }
      try {
        if (await exists(join(dir, READY_FILE))) continue; // made between our look and our lock
        const run = await this.build(spec, repoDir, dir, install);
        if (!run.ok) return { ok: false, how: 'failed', output: run.output, durationMs: took(), dir };
        await linkEnvironment(repoDir, dir, spec);
        return { ok: true, how: 'built', output: run.output, durationMs: took(), dir };
      } finally {
        await rm(this.lockPath(spec), { force: true });
      }
    }
  }

  private lockPath(spec: EnvironmentSpec): string {
    return join(this.options.root, `${spec.name}.lock`);
  }

  /** Takes the key's lock, or answers false while a live owner holds it (a lock whose owner is gone is taken). */
  private async tryLock(spec: EnvironmentSpec): Promise<boolean> {
    const path = this.lockPath(spec);
    const me: LockOwner = { pid: process.pid, host: hostname(), at: Date.now() };
    try {
      const handle = await open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY);
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await readFile(path, 'utf8')
      .then((t) => JSON.parse(t) as LockOwner)
      .catch(() => undefined);
    // A lock being written (no owner yet) is live; one whose process ended, or too old to check, is not.
    const gone =
      owner &&
      ((owner.host === me.host && !processAlive(owner.pid)) ||
        Date.now() - owner.at > (this.options.staleLockMs ?? 3_600_000));
    if (gone) {
      this.log.warn('environment set-up lock left by a process that is gone; taking it over', {
        environment: spec.name,
        owner,
      });
      await rm(path, { force: true });
    }
    return false; // looked at again on the next round
  }

  private async build(
    spec: EnvironmentSpec,
    repoDir: string,
    dir: string,
    install: (stagingDir: string) => Promise<InstallRun>,
  ): Promise<InstallRun> {
    // Built where it stays (a virtualenv cannot move); what a crashed set-up left is ours to remove (we hold the lock).
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    let ready = false;
    try {
      for (const file of spec.files) await copyFile(join(repoDir, file), join(dir, file));
      this.log.info('setting up an environment', { environment: spec.name, command: spec.command });
      const run = await install(dir);
      if (!run.ok) return run;
      const made = spec.stack === 'python' ? '.venv' : 'node_modules';
      await mkdir(join(dir, made), { recursive: true }); // dependencies that install nothing
      if (spec.stack === 'python')
        await writeFile(join(dir, made, LINK_MARKER), JSON.stringify({ key: spec.key, dir }) + '\n');
      const record = { key: spec.key, command: spec.command, files: spec.files, durationMs: run.durationMs };
      await writeFile(join(dir, READY_FILE), JSON.stringify({ ...record, at: new Date().toISOString() }) + '\n');
      ready = true;
      this.log.info('environment set up', { environment: spec.name, durationMs: run.durationMs });
      return {
        ...run,
        output: `environment ${spec.name} set up in ${(run.durationMs / 1000).toFixed(1)} s\n${run.output}`,
      };
    } finally {
      if (!ready)
        await rm(dir, { recursive: true, force: true }).catch((err: unknown) =>
          this.log.warn('a failed environment was left behind', { dir, err: errorMessage(err) }),
        );
    }
  }
}

/**
 * Links `repoDir/node_modules` to the environment in `dir`: a directory of one symlink per package (scopes and
 * `.bin` included) and the key's marker. A `node_modules` the farm linked before to another key is replaced; one
 * it did not make is left alone (the caller plans no install for it).
 */
export async function linkEnvironment(
  repoDir: string,
  dir: string,
  spec: Pick<EnvironmentSpec, 'stack' | 'key'>,
): Promise<void> {
  if (spec.stack === 'python') return linkVirtualenv(repoDir, dir, spec.key);
  const { key } = spec;
  const target = join(repoDir, 'node_modules');
  const marker = await readFile(join(target, LINK_MARKER), 'utf8').catch(() => undefined);
  if (marker !== undefined && readMarker(marker)?.key === key) return;
  if (marker !== undefined) await rm(target, { recursive: true, force: true });
  else if (await exists(target)) return;
  await mkdir(target);
  const from = join(dir, 'node_modules');
  for (const entry of await readdir(from)) await symlink(join(from, entry), join(target, entry));
  await writeFile(join(target, LINK_MARKER), JSON.stringify({ key, dir }) + '\n');
}

/** `repoDir/.venv` as a symlink to the environment's virtualenv; one the farm linked before is replaced, another kept. */
async function linkVirtualenv(repoDir: string, dir: string, key: string): Promise<void> {
  const target = join(repoDir, '.venv');
  const marker = await readFile(join(target, LINK_MARKER), 'utf8').catch(() => undefined);
  if (marker !== undefined && readMarker(marker)?.key === key) return;
  const isLink = await readlink(target).then(
    () => true,
    () => false,
  );
  if (isLink && marker !== undefined)
    await unlink(target); // the link only, never what it points to
  else if (await exists(target)) return;
  await symlink(join(dir, '.venv'), target);
}

function readMarker(text: string): { key: string; dir: string } | undefined {
  try {
    const m = JSON.parse(text) as { key?: unknown; dir?: unknown };
    return typeof m.key === 'string' && typeof m.dir === 'string' ? { key: m.key, dir: m.dir } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shared environments `repoDir` links to (its node_modules' marker), for commands run there outside the checks
 * (the agent's run_command), which must be able to read them too.
 */
export function linkedEnvironmentDirs(repoDir: string): string[] {
  return ['node_modules', '.venv'].flatMap((linked) => {
    try {
      const marker = readMarker(readFileSync(join(repoDir, linked, LINK_MARKER), 'utf8'));
      return marker && existsSync(marker.dir) ? [marker.dir] : [];
    } catch {
      return [];
    }
  });
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
