import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startGitHttpServer, type GitHttpServer } from '@farm/git';
import { silentLogger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { LocalRepoMirrors, SyncBackFailed } from './local-repos';

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

  /** The mirror's directory on disk, from the URL the agents use. */
  const mirrorOf = (url: string) => path.join(server.root, new URL(url).pathname.slice(1));

  /** What a request leaves in the mirror: a task branch and an integration branch, on a commit of their own. */
  async function farmBranches(mirror: string, id: string): Promise<string[]> {
    const tree = await git(mirror, 'rev-parse', 'main^{tree}');
    const commit = await git(
      mirror,
      '-c',
      'user.name=farm',
      '-c',
      'user.email=f@example.com',
      'commit-tree',
      tree,
      '-p',
      'main',
      '-m',
      id,
    );
    const branches = [`agt/${id}/task-1`, `farm/${id}`];
    for (const b of branches) await git(mirror, 'update-ref', `refs/heads/${b}`, commit);
    return branches;
  }

  /**
   * The fetches that wrote `branches` in the user's repository, as its reflog recorded them: git notes each
   * ref update with the command line of the fetch that made it, so one fetch is one distinct entry.
   */
  async function fetchesThatWrote(repo: string, branches: string[]): Promise<string[]> {
    const entries = await Promise.all(
      branches.map((b) => git(repo, 'reflog', 'show', '--format=%gs', `refs/heads/${b}`)),
    );
    return [...new Set(entries.flatMap((e) => e.split('\n')))];
  }

  it('brings the branches of 20 requests ending together back with one fetch, once', async () => {
    const repo = await userRepo('burst');
    const ids = Array.from({ length: 20 }, (_, i) => `burst-${i}`);
    const urls = await Promise.all(ids.map((id) => mirrors.prepare(id, repo)));
    const mirror = mirrorOf(urls[0]);
    const branches = new Map<string, string[]>();
    for (const id of ids) branches.set(id, await farmBranches(mirror, id));
    // Each asks for one branch more that the request never pushed: it is skipped, not an error.
    const fetched = await Promise.all(
      ids.map((id) => mirrors.syncBack(id, [...branches.get(id)!, `agt/${id}/task-2`])),
    );
    expect(fetched).toEqual(ids.map((id) => branches.get(id)));
    const all = [...branches.values()].flat();
    const fetches = await fetchesThatWrote(repo, all);
    expect(fetches).toHaveLength(1);
    expect(fetches[0]).toMatch(/^fetch /);
    // Done and recorded: asked again (a redelivery, a restart), nothing is fetched.
    expect(await Promise.all(ids.map((id) => mirrors.syncBack(id, branches.get(id)!)))).toEqual(ids.map(() => []));
    expect(await fetchesThatWrote(repo, all)).toEqual(fetches);
    for (const id of ids) {
      await mirrors.whenSynced(id, 1_000);
      for (const b of branches.get(id)!)
        expect(await git(repo, 'rev-parse', b)).toBe(await git(mirror, 'rev-parse', b));
    }
  });

  it('leaves a request whose branches could not be fetched unsynced, without holding up the others', async () => {
    const repo = await userRepo('locked');
    const ids = ['locked-0', 'locked-1', 'locked-2'];
    const urls = await Promise.all(ids.map((id) => mirrors.prepare(id, repo)));
    const mirror = mirrorOf(urls[0]);
    const branches = await Promise.all(ids.map((id) => farmBranches(mirror, id)));
    // A ref lock held in the user's repository: that branch cannot be written now.
    const lock = path.join(repo, '.git', 'refs', 'heads', 'farm', 'locked-1.lock');
    await mkdir(path.dirname(lock), { recursive: true });
    await writeFile(lock, '');
    const outcomes = await Promise.allSettled(ids.map((id, i) => mirrors.syncBack(id, branches[i])));
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: branches[0] });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: branches[2] });
    expect(outcomes[1].status).toBe('rejected');
    const failure = (outcomes[1] as PromiseRejectedResult).reason as unknown;
    expect(failure).toBeInstanceOf(SyncBackFailed);
    expect(failure).toMatchObject({ retryable: true, message: expect.stringContaining('locked-1') });
    await expect(mirrors.whenSynced('locked-1', 300)).rejects.toThrow('not back');
    // The lock gone, the next call (the bus's retry) brings them back.
    await rm(lock);
    expect(await mirrors.syncBack('locked-1', branches[1])).toEqual(branches[1]);
    await mirrors.whenSynced('locked-1', 1_000);
    expect(await git(repo, 'rev-parse', 'farm/locked-1')).toBe(await git(mirror, 'rev-parse', 'farm/locked-1'));
  });

  it('leaves every request of a batch unsynced when the repository is away, and syncs them when it is back', async () => {
    const repo = await userRepo('away');
    const ids = ['away-0', 'away-1'];
    const urls = await Promise.all(ids.map((id) => mirrors.prepare(id, repo)));
    const mirror = mirrorOf(urls[0]);
    const branches = await Promise.all(ids.map((id) => farmBranches(mirror, id)));
    await rename(repo, `${repo}-moved`);
    const outcomes = await Promise.allSettled(ids.map((id, i) => mirrors.syncBack(id, branches[i])));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    const rows = await store.query<{ synced_at: unknown }>(
      'SELECT synced_at FROM local_repos WHERE change_request_id = ANY($1::text[])',
      [ids],
    );
    expect(rows.rows.map((r) => r.synced_at)).toEqual([null, null]);
    await rename(`${repo}-moved`, repo);
    expect(await Promise.all(ids.map((id, i) => mirrors.syncBack(id, branches[i])))).toEqual(branches);
    for (const b of branches.flat()) expect(await git(repo, 'rev-parse', b)).toBe(await git(mirror, 'rev-parse', b));
  });
});
