import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { silentLogger } from '@farm/runtime';
import { openTreeIndex, pruneTreeIndexes } from './tree-index-cache';

const exec = promisify(execFile);
let tmp: string;
let repoDir: string;
const git = async (...args: string[]) =>
  (await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repoDir })).stdout.trim();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'tree-index-'));
  repoDir = path.join(tmp, 'repo');
  await exec('git', ['init', '-q', '-b', 'main', repoDir]);
  await writeFile(
    path.join(repoDir, 'http.ts'),
    'export function fetchWithRetry(url: string) {\n  return fetch(url);\n}\n',
  );
  await git('add', '-A');
  await git('commit', '-qm', 'one');
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

test('the second task on the same tree (even of another commit) finds its index instead of building it again', async () => {
  const cacheDir = path.join(tmp, 'cache');
  const first = await git('rev-parse', 'HEAD');
  const open = (commit: string) =>
    openTreeIndex({ cacheDir, repoDir, repo: 'http://git/r.git', commit, log: silentLogger });

  const built = await open(first);
  expect(built.built).toBe(true);
  await built.index.close();

  // saved with its term vectors: loading it tokenizes nothing again
  const [file] = await readdir(cacheDir);
  const saved = JSON.parse(await readFile(path.join(cacheDir, file!), 'utf8')) as {
    chunks: { sparse?: { indices: number[] } }[];
  };
  expect(saved.chunks.length).toBeGreaterThan(0);
  expect(saved.chunks.every((c) => (c.sparse?.indices.length ?? 0) > 0)).toBe(true);

  const again = await open(first);
  expect(again.built).toBe(false);
  const found = await again.index.search(again.repo, again.commit, 'fetchWithRetry', 5);
  expect(found.map((c) => c.path)).toEqual(['http.ts']);
  await again.index.close();

  // an empty commit has the same tree: the same index, under the first commit's label
  await git('commit', '-q', '--allow-empty', '-m', 'nothing');
  const sameTree = await open(await git('rev-parse', 'HEAD'));
  expect([sameTree.built, sameTree.commit]).toEqual([false, first]);
  await sameTree.index.close();

  // another tree is its own index
  await writeFile(path.join(repoDir, 'more.ts'), 'export const more = 1;\n');
  await git('add', '-A');
  await git('commit', '-qm', 'two');
  const other = await open(await git('rev-parse', 'HEAD'));
  expect(other.built).toBe(true);
  await other.index.close();
  expect((await readdir(cacheDir)).filter((f) => f.endsWith('.json'))).toHaveLength(2);
});

test('only the most recently used index files are kept', async () => {
  const dir = path.join(tmp, 'prune');
  await exec('mkdir', ['-p', dir]);
  for (const [i, c] of ['a', 'b', 'c'].entries()) {
    const f = path.join(dir, `${c.repeat(40)}.json`);
    await writeFile(f, '{}');
    await exec('touch', ['-d', `@${1_700_000_000 + i}`, f]);
  }
  await pruneTreeIndexes(dir, 2);
  expect((await readdir(dir)).sort()).toEqual([`${'b'.repeat(40)}.json`, `${'c'.repeat(40)}.json`]);
});
