import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cloneAtCommit, seedBareRepo, startGitHttpServer } from '@farm/git';
import { cloneAndLocateSymbols } from './locate-symbols';

test('symbols of TypeScript and Python files are located in the repo at the base commit', async () => {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'locate-'));
  const git = await startGitHttpServer({ root: tmp });
  try {
    const url = await git.createBareRepo('sym.git');
    const baseCommit = await seedBareRepo({
      url,
      message: 'init',
      files: {
        'src/http.ts': 'export async function fetchWithTimeout(url: string) {\n  return fetch(url);\n}\n',
        'lib/retry.py': 'class Backoff:\n    def delay(self, n):\n        return 2 ** n\n',
        'README.md': 'fetchWithTimeout is documented here\n',
      },
    });
    const found = await cloneAndLocateSymbols(tmp)({ url, baseRef: 'main', baseCommit }, [
      'fetchWithTimeout',
      'Backoff',
      'nowhere',
    ]);
    expect(Object.fromEntries(found)).toEqual({ fetchWithTimeout: ['src/http.ts'], Backoff: ['lib/retry.py'] });
  } finally {
    await git.close();
    await rm(tmp, { recursive: true, force: true });
  }
});

test('requests planning on a commit already planned on neither clone nor scan it again', async () => {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'locate-'));
  const git = await startGitHttpServer({ root: tmp });
  try {
    const url = await git.createBareRepo('again.git');
    const baseCommit = await seedBareRepo({
      url,
      message: 'init',
      files: { 'src/a.ts': 'export function alpha() {}\n', 'src/b.ts': 'export class Beta {}\n' },
    });
    let clones = 0;
    const locate = cloneAndLocateSymbols(tmp, { clone: async (o) => (clones++, cloneAtCommit(o)) });
    const repo = { url, baseRef: 'main', baseCommit };
    const [first, second] = await Promise.all([locate(repo, ['alpha']), locate(repo, ['Beta', 'gamma'])]);
    expect(Object.fromEntries(first)).toEqual({ alpha: ['src/a.ts'] });
    expect(Object.fromEntries(second)).toEqual({ Beta: ['src/b.ts'] });
    expect(Object.fromEntries(await locate(repo, ['alpha', 'Beta']))).toEqual({
      alpha: ['src/a.ts'],
      Beta: ['src/b.ts'],
    });
    expect(clones).toBe(1);
  } finally {
    await git.close();
    await rm(tmp, { recursive: true, force: true });
  }
});
