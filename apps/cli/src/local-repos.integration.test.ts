import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startGitHttpServer, type GitHttpServer } from '@farm/git';
import { silentLogger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { LocalRepoMirrors } from './local-repos';

const run = promisify(execFile);
const git = async (dir: string, ...args: string[]) => (await run('git', ['-C', dir, ...args])).stdout.trim();

describe('submitting repositories on the farm machine', () => {
  let tmp: string;
  let server: GitHttpServer;
  let store: SqlStore;
  let mirrors: LocalRepoMirrors;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-local-repos-'));
    server = await startGitHttpServer({ root: path.join(tmp, 'served') });
    store = await testPgliteStore();
    mirrors = await LocalRepoMirrors.open(store, server, silentLogger);
  });
  afterAll(async () => {
    await server.close();
    await store.close();
    await rm(tmp, { recursive: true, force: true });
  });

  async function userRepo(name: string): Promise<string> {
    const dir = path.join(tmp, name);
    await run('git', ['init', '-q', '-b', 'main', dir]);
    await git(dir, 'config', 'user.email', 'dev@example.com');
    await git(dir, 'config', 'user.name', 'dev');
    await git(dir, 'commit', '-q', '--allow-empty', '-m', 'first');
    return dir;
  }

  /** A commit on a branch of its own, made now: what the submission right after it must see. */
  async function commitOn(dir: string, branch: string): Promise<string> {
    await git(dir, 'checkout', '-q', '-b', branch, 'main');
    await git(dir, 'commit', '-q', '--allow-empty', '-m', branch);
    return git(dir, 'rev-parse', 'HEAD');
  }

  it('accepts submissions that arrive together, each with the commits made before it, and serves them', async () => {
    const repo = await userRepo('app');
    const submissions: Array<Promise<{ url: string; branch: string; commit: string; seen: string }>> = [];
    // Commit, submit without waiting, commit again: later submissions arrive while a fetch runs.
    for (let i = 0; i < 12; i++) {
      const branch = `feature-${i}`;
      const commit = await commitOn(repo, branch);
      submissions.push(
        mirrors.prepare(`cr-${i}`, repo).then(async (url) => {
          const mirror = path.join(server.root, new URL(url).pathname.slice(1));
          // Read as soon as this submission is answered: the branch made before it is there.
          const seen = await git(mirror, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`).catch(() => '');
          return { url, branch, commit, seen };
        }),
      );
    }
    const accepted = await Promise.all(submissions);
    for (const s of accepted) expect(s.seen).toBe(s.commit);
    // One mirror for the repository, served over smart HTTP with every submission's branch.
    expect(new Set(accepted.map((s) => s.url)).size).toBe(1);
    const served = await run('git', ['ls-remote', accepted[0].url]);
    for (const s of accepted) expect(served.stdout).toContain(`${s.commit}\trefs/heads/${s.branch}`);
    const rows = await store.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM local_repos WHERE change_request_id LIKE 'cr-%'",
    );
    expect(rows.rows[0].n).toBe('12');
  });

  it('updates the kept mirror by a fetch: a commit made between two submissions is in the second one', async () => {
    const repo = await userRepo('lib');
    const first = await mirrors.prepare('lib-1', repo);
    const mirror = path.join(server.root, new URL(first).pathname.slice(1));
    const before = await git(mirror, 'rev-parse', 'refs/heads/main');
    await git(repo, 'commit', '-q', '--allow-empty', '-m', 'between the submissions');
    const between = await git(repo, 'rev-parse', 'HEAD');
    expect(await mirrors.prepare('lib-2', repo)).toBe(first);
    expect(await git(mirror, 'rev-parse', 'refs/heads/main')).toBe(between);
    expect(await git(mirror, 'merge-base', '--is-ancestor', before, between).then(() => true)).toBe(true);
  });

  it('serves two repositories at once, each from its own mirror', async () => {
    const [a, b] = await Promise.all([userRepo('one'), userRepo('two')]);
    const [ua, ub] = await Promise.all([mirrors.prepare('one-1', a), mirrors.prepare('two-1', b)]);
    expect(ua).not.toBe(ub);
    expect((await run('git', ['ls-remote', ua, 'refs/heads/main'])).stdout).toContain(
      await git(a, 'rev-parse', 'HEAD'),
    );
    expect((await run('git', ['ls-remote', ub, 'refs/heads/main'])).stdout).toContain(
      await git(b, 'rev-parse', 'HEAD'),
    );
  });
});
