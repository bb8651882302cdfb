import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seedBareRepo, startGitHttpServer } from '@farm/git';
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
