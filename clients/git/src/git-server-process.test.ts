import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '@farm/runtime';
import { remoteBranchSha, seedBareRepo, startGitServerProcess, type GitHttpServer } from './index';

const ENTRY = path.join(__dirname, 'git-http-server-main.ts');
/** The pid listening on the server's port: the process serving it now. */
function servingPid(server: GitHttpServer): number {
  const port = new URL(server.url).port;
  const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  return Number(/pid=(\d+)/.exec(out)?.[1] ?? 0);
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
    server = await startGitServerProcess({ root: path.join(tmp, 'git'), entry: ENTRY, restartDelayMs: 100 });
    const url = await server.createBareRepo('app.git');
    expect(server.gitDirFor(url)).toBe(path.join(tmp, 'git', 'app.git'));
    const sha = await seedBareRepo({ url, files: { 'a.txt': 'a\n' }, message: 'initial' });
    expect(await remoteBranchSha(url, 'main')).toBe(sha);

    const first = servingPid(server);
    expect(first).toBeGreaterThan(0);
    expect(first).not.toBe(process.pid);
    process.kill(first, 'SIGKILL');
    let again = 0;
    for (let i = 0; i < 100 && !again; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = servingPid(server);
    }
    expect(again).toBeGreaterThan(0);
    expect(again).not.toBe(first);
    expect(await remoteBranchSha(url, 'main')).toBe(sha); // same URL, same port

    await server.close();
    server = undefined;
    expect(isProcessAlive(again)).toBe(false);
  });
});
