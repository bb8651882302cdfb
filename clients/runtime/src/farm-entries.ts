import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './errors';

/**
 * Every process the farm starts, by name: its TypeScript source (from the repository root). `pnpm build`
 * bundles each into `dist/<name>.mjs`; the launchers, `farm up`, the Jobs, the worker pool and the image run
 * that, and the source (with tsx) only when FARM_ENTRY=source.
 */
export const FARM_ENTRIES = {
  orchestrator: 'apps/orchestrator/src/main.ts',
  builder: 'apps/builder/src/main.ts',
  'build-job': 'apps/builder/src/build-job.ts',
  'request-planner': 'apps/request-planner/src/main.ts',
  'code-planner': 'apps/code-planner/src/main.ts',
  'rag-service': 'apps/rag-service/src/main.ts',
  srm: 'apps/srm/src/main.ts',
  'agent-job': 'apps/coding-agent/src/job.ts',
  'agent-worker': 'apps/coding-agent/src/worker.ts',
  'agent-pool-worker': 'apps/coding-agent/src/pool-worker.ts',
  cli: 'apps/cli/src/main.ts',
  'git-server': 'clients/git/src/git-http-server-main.ts',
  'command-helper': 'clients/runtime/src/command-helper-main.ts',
  'sandbox-runner': 'clients/sandbox/src/sandbox-runner-main.ts',
  'scripted-llm': 'clients/scripted-llm/src/main.ts',
} as const;

export type FarmEntry = keyof typeof FARM_ENTRIES;

/** Where the build puts the bundles and their manifest, under the repository root. */
export const DIST_DIR = 'dist';
export const MANIFEST_FILE = 'manifest.json';
/**
 * The manifest without the files under node_modules (the lockfile stands for them): all that the check at
 * each start reads, a small fraction of the whole to read and parse.
 */
export const QUICK_MANIFEST_FILE = 'manifest.quick.json';

/** What `pnpm build` records per entry: its output and the content hash of every file bundled into it. */
export interface BuildManifest {
  builtAtMs: number;
  /** The Node.js the bundles were built for (`node20`): the one that built them, and the only one they run on. */
  target: string;

  entries: Record<string, { source: string; output: string; inputs: Record<string, string> }>;
}

/** esbuild's target for the Node.js running this, e.g. `node20`. */
export function nodeTarget(): string {
  return `node${process.versions.node.split('.')[0]}`;
}

/** The repository root: this file is clients/runtime/src in a checkout (the bundler keeps the layout). */
export const FARM_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The bundle of an entry, relative to the root (as the image's commands name it). */
export function bundlePath(name: FarmEntry): string {
  return `${DIST_DIR}/${name}.mjs`;
}

/** The argv (after `node`) of an entry in the image, whose working directory is the root: `dist/<name>.mjs`. */
export function imageEntryArgs(name: FarmEntry): string[] {
  return ['node', bundlePath(name)];
}

/** Node's arguments to run a script: a `.ts` one through tsx (a source entry, or a test's own script). */
export function nodeArgsFor(script: string): string[] {
  if (!script.endsWith('.ts')) return [script];
  return ['--import', pathToFileURL(require.resolve('tsx')).href, script];
}

export type EntryMode = 'built' | 'source';

/** FARM_ENTRY=source runs the TypeScript sources with tsx (development); anything else, the bundles. */
export function entryMode(env: NodeJS.ProcessEnv = process.env): EntryMode {
  const v = env.FARM_ENTRY ?? 'built';
  if (v !== 'built' && v !== 'source') throw new ConfigError(`FARM_ENTRY must be "built" or "source", not "${v}"`);
  return v;
}

/** A bundle that is missing, or older than its sources: the process would not run the code of this checkout. */
export class StaleBundle extends ConfigError {
  constructor(
    readonly entries: string[],
    reason: string,
  ) {
    super(
      `${reason} (${entries.join(', ')}): run \`pnpm build\` in ${FARM_ROOT}, or set FARM_ENTRY=source to run the sources with tsx`,
    );
  }
}

/**
 * The script an entry runs from: its source with FARM_ENTRY=source, else its bundle, which in a checkout
 * (a `.git` beside it) must be as fresh as the sources (a StaleBundle otherwise; the image has no `.git`
 * and is built once). The check runs once per entry and process: what a farm starts matches what it runs.
 */
export function entryScript(name: FarmEntry, env: NodeJS.ProcessEnv = process.env): string {
  if (entryMode(env) === 'source') return path.join(FARM_ROOT, FARM_ENTRIES[name]);
  if (!checked.has(name)) assertBundleFresh(name);
  checked.add(name);
  return path.join(FARM_ROOT, bundlePath(name));
}
const checked = new Set<FarmEntry>();

/**
 * In a checkout, a bundle older than its sources or dependencies throws StaleBundle; every bundle runs this
 * first (the build's entry wrapper), and launchers before they start one. The image has no `.git`.
 */
export function assertBundleFresh(name: FarmEntry): void {
  if (!existsSync(path.join(FARM_ROOT, '.git'))) return;
  const stale = staleEntries(FARM_ROOT, [name], 'quick');
  if (stale.length)
    throw new StaleBundle(stale, 'the built entry is missing, older than its sources or built by another Node.js');
}

/** The whole command of an entry on this machine: this Node.js, and the script `entryScript` chose. */
export function entryCommand(name: FarmEntry, env: NodeJS.ProcessEnv = process.env): string[] {
  return [process.execPath, ...nodeArgsFor(entryScript(name, env))];
}

/** The manifest `hash` checks compare against, or the quick one (QUICK_MANIFEST_FILE) of the checks at start. */
export function readManifest(root: string, how: 'hash' | 'quick' = 'hash'): BuildManifest | undefined {
  try {
    const file = how === 'hash' ? MANIFEST_FILE : QUICK_MANIFEST_FILE;
    return JSON.parse(readFileSync(path.join(root, DIST_DIR, file), 'utf8')) as BuildManifest;
  } catch {
    return undefined; // never built
  }
}

/** Writes the build's manifest and its quick form. */
export function writeManifests(root: string, manifest: BuildManifest): void {
  writeFileSync(path.join(root, DIST_DIR, MANIFEST_FILE), JSON.stringify(manifest, null, 1) + '\n');
  const entries = Object.fromEntries(
    Object.entries(manifest.entries).map(([name, entry]) => [
      name,
      {
        ...entry,
        inputs: Object.fromEntries(Object.entries(entry.inputs).filter(([f]) => !f.includes('node_modules/'))),
      },
    ]),
  );
  writeFileSync(path.join(root, DIST_DIR, QUICK_MANIFEST_FILE), JSON.stringify({ ...manifest, entries }));
}

export function contentHash(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Stands for the installed packages in `quick` checks: node_modules is what the lockfile says. */
export const LOCKFILE = 'pnpm-lock.yaml';

/**
 * The entries among `names` whose bundle is missing or whose inputs changed since the build. `hash` compares
 * every input's content; `quick` (each start) only the farm's own files modified after the build, and the
 * lockfile instead of the files under node_modules.
 */
export function staleEntries(root: string, names: readonly string[], how: 'hash' | 'quick'): string[] {
  const manifest = readManifest(root, how);
  return names.filter((name) => {
    const entry = manifest?.entries[name];
    if (!manifest || !entry || !existsSync(path.join(root, entry.output))) return true;
    if (manifest.target !== nodeTarget()) return true; // built by another Node.js (its syntax, its built-ins)
    return Object.entries(entry.inputs).some(([file, hash]) => {
      if (how === 'quick' && file.includes('node_modules/')) return false;
      const abs = path.join(root, file);
      try {
        if (how === 'quick' && statSync(abs).mtimeMs <= manifest.builtAtMs) return false;
        return contentHash(abs) !== hash;
      } catch {
        return true; // an input was removed
      }
    });
  });
}
