// A request that names no base is planned on the repository's own default branch: read from HEAD, over smart
// HTTP or on disk, and only when that branch has commits.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitHttpServer, type GitHttpServer } from './git-http-server';
import { defaultBranchOf } from './repo-ops';

let tmp: string;
let server: GitHttpServer;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'pipe' });

/** A repository with one commit on `branch`, its HEAD naming it. */
function repoOn(dir: string, branch: string): string {
  git(tmp, 'init', '-q', '-b', branch, dir);
  writeFileSync(join(dir, 'README'), 'hi\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'first');
  return dir;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'default-branch-'));
  server = await startGitHttpServer({ root: join(tmp, 'served') });
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('over smart HTTP: the branch HEAD names (trunk), not main', async () => {
  const work = repoOn(join(tmp, 'trunk-work'), 'trunk');
  git(tmp, 'clone', '-q', '--bare', work, join(tmp, 'served', 'app.git'));
  expect(await defaultBranchOf(`${server.url}/app.git`)).toBe('trunk');
});

test('on disk: the checked-out branch (master); none while HEAD names a branch with no commit', async () => {
  expect(await defaultBranchOf(repoOn(join(tmp, 'master-repo'), 'master'))).toBe('master');
  git(tmp, 'init', '-q', '-b', 'unborn', join(tmp, 'empty'));
  expect(await defaultBranchOf(join(tmp, 'empty'))).toBeUndefined();
});
