import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FARM_ENTRIES,
  FARM_ROOT,
  contentHash,
  entryCommand,
  entryMode,
  imageEntryArgs,
  nodeArgsFor,
  nodeTarget,
  readManifest,
  staleEntries,
  writeManifests,
  type BuildManifest,
} from './farm-entries';

describe('the farm entries', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'farm-entries-'));
    mkdirSync(path.join(root, 'dist'));
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'main.ts'), 'main');
    writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), 'dep');
    writeFileSync(path.join(root, 'pnpm-lock.yaml'), 'lock');
    writeFileSync(path.join(root, 'dist', 'cli.mjs'), 'bundle');
    const inputs = Object.fromEntries(
      ['src/main.ts', 'node_modules/dep/index.js', 'pnpm-lock.yaml'].map((f) => [f, contentHash(path.join(root, f))]),
    );
    const manifest: BuildManifest = {
      builtAtMs: Date.now(),
      target: nodeTarget(),
      entries: { cli: { source: 'src/main.ts', output: 'dist/cli.mjs', inputs } },
    };
    writeManifests(root, manifest);
    // Files written before the build: their mtimes are older than builtAtMs.
    const before = new Date(Date.now() - 60_000);
    for (const f of ['src/main.ts', 'node_modules/dep/index.js', 'pnpm-lock.yaml'])
      utimesSync(path.join(root, f), before, before);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs the bundles unless the developer asks for the sources, and refuses any other mode', () => {
    expect(entryMode({})).toBe('built');
    expect(entryMode({ FARM_ENTRY: 'source' })).toBe('source');
    expect(() => entryMode({ FARM_ENTRY: 'tsx' })).toThrow(/FARM_ENTRY must be "built" or "source"/);
    expect(entryCommand('agent-job', { FARM_ENTRY: 'source' })).toEqual([
      process.execPath,
      '--import',
      expect.stringMatching(/^file:.*tsx/),
      path.join(FARM_ROOT, FARM_ENTRIES['agent-job']),
    ]);
    expect(nodeArgsFor('/x/dist/agent-job.mjs')).toEqual(['/x/dist/agent-job.mjs']);
    expect(imageEntryArgs('build-job')).toEqual(['node', 'dist/build-job.mjs']);
  });

  it('finds a bundle fresh until a source changes, and stale when never built', () => {
    expect(staleEntries(root, ['cli'], 'hash')).toEqual([]);
    expect(staleEntries(root, ['cli'], 'quick')).toEqual([]);
    expect(staleEntries(root, ['cli', 'agent-job'], 'quick')).toEqual(['agent-job']);
    writeFileSync(path.join(root, 'src', 'main.ts'), 'main, edited');
    expect(staleEntries(root, ['cli'], 'quick')).toEqual(['cli']);
    expect(staleEntries(root, ['cli'], 'hash')).toEqual(['cli']);
  });

  it('counts a file touched without a change as fresh, and a removed input or bundle as stale', () => {
    writeFileSync(path.join(root, 'src', 'main.ts'), 'main'); // newer mtime, same content
    expect(staleEntries(root, ['cli'], 'quick')).toEqual([]);
    rmSync(path.join(root, 'dist', 'cli.mjs'));
    expect(staleEntries(root, ['cli'], 'quick')).toEqual(['cli']);
  });

  it('finds bundles built by another Node.js stale', () => {
    const manifest = readManifest(root)!;
    writeManifests(root, { ...manifest, target: 'node18' });
    expect(staleEntries(root, ['cli'], 'quick')).toEqual(['cli']);
  });

  it('gives the check at each start a manifest without the files under node_modules, the lockfile for them', () => {
    expect(Object.keys(readManifest(root)!.entries.cli.inputs)).toContain('node_modules/dep/index.js');
    expect(Object.keys(readManifest(root, 'quick')!.entries.cli.inputs).sort()).toEqual([
      'pnpm-lock.yaml',
      'src/main.ts',
    ]);
  });

  it('checks the lockfile for the installed packages at each start, and their files in full', () => {
    writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), 'dep 2');
    expect(staleEntries(root, ['cli'], 'quick')).toEqual([]);
    expect(staleEntries(root, ['cli'], 'hash')).toEqual(['cli']);
    writeFileSync(path.join(root, 'pnpm-lock.yaml'), 'lock 2');
    expect(staleEntries(root, ['cli'], 'quick')).toEqual(['cli']);
  });
});
