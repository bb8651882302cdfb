import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '@farm/runtime';
import { remoteBranchSha, seedBareRepo, startGitServerProcess, type GitHttpServer } from './index';

const ENTRY = path.join(__dirname, 'git-http-server-main.ts');
/** The pid of the git server process serving `root` now (found by its command line), 0 if none. */
function servingPid(root: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = (() => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      } catch {
        return [];
      }
    })();
    const at = cmdline.indexOf('--root');
    if (at > 0 && cmdline[at + 1] === root && cmdline.some((a) => a.endsWith('git-http-server-main.ts'))) {
      if (isProcessAlive(Number(entry))) return Number(entry);
    }
  }
  return 0;
}

describe("the farm's git server in a process of its own", () => {
  let tmp: string;
  let server: GitHttpServer | undefined;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-git-process-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(tmp, { recursive: true, force: true });
  });

  it('serves clone and push; killed, it is started again on the same port; closed, it is gone', async () => {
    const root = path.join(tmp, 'git');
    server = await startGitServerProcess({ root, entry: ENTRY, restartDelayMs: 100 });
    const url = await server.createBareRepo('app.git');
    expect(server.gitDirFor(url)).toBe(path.join(tmp, 'git', 'app.git'));
    const sha = await seedBareRepo({ url, files: { 'a.txt': 'a\n' }, message: 'initial' });
    expect(await remoteBranchSha(url, 'main')).toBe(sha);

    const first = servingPid(root);
    expect(first).toBeGreaterThan(0);
    expect(first).not.toBe(process.pid);
    process.kill(first, 'SIGKILL');
    let again = 0;
    for (let i = 0; i < 100 && !again; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = servingPid(root);
    }
    expect(again).toBeGreaterThan(0);
    expect(again).not.toBe(first);
    expect(await remoteBranchSha(url, 'main')).toBe(sha); // same URL, same port

    await server.close();
    server = undefined;
    expect(isProcessAlive(again)).toBe(false);
  });
});
