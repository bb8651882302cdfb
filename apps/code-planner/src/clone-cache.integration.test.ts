import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cloneAtCommit, seedBareRepo, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { CloneCache, cacheKey, type CloneAt } from './clone-cache';

let tmp: string;
let server: GitHttpServer;
let url: string;
let first: string;
let second: string;
let clones: string[];
const countingClone: CloneAt = async (opts) => {
  clones.push(opts.commit);
  return cloneAtCommit(opts);
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'clone-cache-'));
  server = await startGitHttpServer({ root: path.join(tmp, 'git') });
  url = await server.createBareRepo('cached.git');
  first = await seedBareRepo({ url, message: 'one', files: { 'a.ts': 'export const a = 1;\n' } });
  second = await seedBareRepo({ url, branch: 'next', message: 'two', files: { 'a.ts': 'export const a = 2;\n' } });
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});
beforeEach(() => (clones = []));

const readA = (dir: string) => readFile(path.join(dir, 'a.ts'), 'utf8');

test('requests planning on the same commit, at once and later, share one clone', async () => {
  const cache = new CloneCache({ root: path.join(tmp, 'shared'), clone: countingClone });
  const key = { url, ref: 'next', commit: second };
  const seen = await Promise.all([1, 2, 3].map(() => cache.use(key, readA)));
  expect(seen).toEqual(Array(3).fill('export const a = 2;\n'));
  expect(await cache.use(key, readA)).toBe('export const a = 2;\n');
  expect(clones).toEqual([second]);

  // a restarted code-planner finds the clone on disk
  const restarted = new CloneCache({ root: path.join(tmp, 'shared'), clone: countingClone });
  expect(await restarted.use(key, readA)).toBe('export const a = 2;\n');
  expect(clones).toEqual([second]);
});

test('another commit is its own clone, and the least recently used is removed beyond the bound', async () => {
  const root = path.join(tmp, 'bounded');
  const cache = new CloneCache({ root, clone: countingClone, maxEntries: 1 });
  expect(await cache.use({ url, ref: 'next', commit: second }, readA)).toBe('export const a = 2;\n');
  expect(await cache.use({ url, ref: 'main', commit: first }, readA)).toBe('export const a = 1;\n');
  expect(existsSync(path.join(root, cacheKey({ url, ref: 'next', commit: second })))).toBe(false);
  expect(existsSync(path.join(root, cacheKey({ url, ref: 'main', commit: first })))).toBe(true);
  expect(await cache.use({ url, ref: 'next', commit: second }, readA)).toBe('export const a = 2;\n');
  expect(clones).toEqual([second, first, second]);
});

test('a clone in use is not removed while another commit is cloned', async () => {
  const root = path.join(tmp, 'in-use');
  const cache = new CloneCache({ root, clone: countingClone, maxEntries: 1 });
  const text = await cache.use({ url, ref: 'main', commit: first }, async (dir) => {
    await cache.use({ url, ref: 'next', commit: second }, readA);
    return readA(dir); // still there
  });
  expect(text).toBe('export const a = 1;\n');
});

test('a failed clone leaves nothing behind and the next request tries again', async () => {
  const root = path.join(tmp, 'failing');
  let fail = true;
  const cache = new CloneCache({
    root,
    clone: async (opts) => {
      if (fail) throw new Error('server down');
      return countingClone(opts);
    },
  });
  const key = { url, ref: 'next', commit: second };
  await expect(cache.use(key, readA)).rejects.toThrow('server down');
  expect(await readdir(root)).toEqual([]);
  fail = false;
  expect(await cache.use(key, readA)).toBe('export const a = 2;\n');
  expect(clones).toEqual([second]);
});
