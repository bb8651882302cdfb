import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import {
  cloneAtCommit,
  CommitNotFound,
  commitAll,
  deleteRemoteBranch,
  NothingToCommit,
  pushBranch,
  PushRejected,
  readRemoteBranchCommit,
  RefNotFound,
  remoteBranchSha,
  resolveLocalRef,
  resolveRemoteRef,
  seedBareRepo,
  startGitHttpServer,
  type GitHttpServer,
  withTrailers,
  parseTrailers,
} from './index';
import { startGitProxy } from '../testing';

const exec = promisify(execFile);
const author = { name: 'Test', email: 'test@example.com' };
// Isolate native git from the machine's config; identity for commits made with the CLI.
const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'n',
  GIT_AUTHOR_EMAIL: 'n@e',
  GIT_COMMITTER_NAME: 'n',
  GIT_COMMITTER_EMAIL: 'n@e',
};
const gitCli = async (cwd: string, ...args: string[]) =>
  (await exec('git', args, { cwd, env: gitEnv, maxBuffer: 64 << 20 })).stdout.trim();

let tmp: string;
let server: GitHttpServer;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-git-test-'));
  server = await startGitHttpServer({ root: path.join(tmp, 'srv') });
});
afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Seeds `name` with one commit, then `extra` more commits (file n.txt each) via native git; returns shas oldest first. */
async function repoWithHistory(name: string, extra: number): Promise<{ url: string; shas: string[] }> {
  const first = await seedBareRepo({
    server,
    name,
    files: { 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' },
    message: 'init',
  });
  const url = server.repoUrl(name);
  const work = path.join(tmp, `hist-${name}`);
  await gitCli(tmp, 'clone', '-q', url, work);
  const shas = [first];
  for (let i = 1; i <= extra; i++) {
    await writeFile(path.join(work, `${i}.txt`), `${i}\n`);
    await gitCli(work, 'add', '-A');
    await gitCli(work, 'commit', '-qm', `c${i}`);
    shas.push(await gitCli(work, 'rev-parse', 'HEAD'));
  }
  if (extra) await gitCli(work, 'push', '-q', 'origin', 'main');
  return { url, shas };
}

describe('git http server with native git', () => {
  it('clones, pushes chunked bodies and serves protocol v2', async () => {
    const url = await server.createBareRepo('native.git');
    const work = path.join(tmp, 'native-work');
    await gitCli(tmp, 'init', '-q', '-b', 'main', work);
    // incompressible 300 KiB > postBuffer forces a chunked (no Content-Length) receive-pack request
    await writeFile(path.join(work, 'blob.bin'), randomBytes(300 * 1024));
    await writeFile(path.join(work, 'hello.txt'), 'hello\n');
    await gitCli(work, 'add', '-A');
    await gitCli(work, 'commit', '-qm', 'first');
    await gitCli(work, '-c', 'http.postBuffer=1024', 'push', '-q', url, 'main');
    const head = await gitCli(work, 'rev-parse', 'HEAD');

    expect(await gitCli(tmp, '-c', 'protocol.version=2', 'ls-remote', url)).toContain(`${head}\trefs/heads/main`);
    expect(await gitCli(tmp, '-c', 'protocol.version=0', 'ls-remote', url)).toContain(`${head}\trefs/heads/main`);
    const clone = path.join(tmp, 'native-clone');
    await gitCli(tmp, 'clone', '-q', '--depth', '1', url, clone);
    expect(await readFile(path.join(clone, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(await gitCli(clone, 'rev-parse', 'HEAD')).toBe(head);
    expect(await remoteBranchSha(url, 'main')).toBe(head);
  });

  it('accepts gzip-encoded request bodies', async () => {
    const url = await server.createBareRepo('gzip.git');
    const sha = await seedBareRepo({ url, files: { 'x.txt': 'x\n' }, message: 'x' });
    const pkt = (s: string) => (s.length + 4).toString(16).padStart(4, '0') + s;
    const body = gzipSync(pkt(`want ${sha}\n`) + '0000' + pkt('done\n'));
    const res = await new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${url}/git-upload-pack`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      });
      req.on('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body); // no Content-Length set explicitly → node sends it chunked
    });
    expect(res.status).toBe(200);
    expect(res.body.subarray(0, 8).toString()).toBe('0008NAK\n');
    expect(res.body.includes(Buffer.from('PACK'))).toBe(true);
  });

  it('maps CGI Status to the HTTP status', async () => {
    const status = await new Promise<number>((resolve, reject) =>
      http
        .get(`${server.url}/missing.git/info/refs?service=git-upload-pack`, (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        })
        .on('error', reject),
    );
    expect(status).toBe(404);
    await expect(server.createBareRepo('../evil.git')).rejects.toThrow(/invalid repo name/);
  });
});

describe('repo ops (isomorphic-git)', () => {
  it('resolves branches, tags and shas; unknown refs are RefNotFound', async () => {
    const { url, shas } = await repoWithHistory('refs.git', 2);
    const work = path.join(tmp, 'hist-refs.git');
    await gitCli(work, 'tag', '-a', 'v1', '-m', 'v1', shas[1]);
    await gitCli(work, 'tag', 'light', shas[0]);
    await gitCli(work, 'push', '-q', 'origin', 'v1', 'light');

    expect(await resolveRemoteRef(url, 'main')).toBe(shas[2]);
    expect(await resolveRemoteRef(url, 'refs/heads/main')).toBe(shas[2]);
    expect(await resolveRemoteRef(url, 'v1')).toBe(shas[1]); // annotated tag peeled to its commit
    expect(await resolveRemoteRef(url, 'light')).toBe(shas[0]);
    expect(await resolveRemoteRef(url, shas[0].toUpperCase())).toBe(shas[0]);
    const err = await resolveRemoteRef(url, 'nope').catch((e) => e);
    expect(err).toBeInstanceOf(RefNotFound);
    expect(err.retryable).toBe(false);
    // The same answers read on disk from the repository the server serves.
    const dir = server.gitDirFor(url)!;
    for (const ref of ['main', 'refs/heads/main', 'v1', 'light', shas[0].toUpperCase()])
      expect(await resolveLocalRef(dir, ref, url)).toBe(await resolveRemoteRef(url, ref));
    await expect(resolveLocalRef(dir, 'nope', url)).rejects.toBeInstanceOf(RefNotFound);
    // Branches are read from their files without git; packed into packed-refs, they answer the same.
    await gitCli(dir, 'pack-refs', '--all');
    for (const ref of ['main', 'refs/heads/main', 'v1', 'light'])
      expect(await resolveLocalRef(dir, ref, url)).toBe(await resolveRemoteRef(url, ref));
    await expect(resolveLocalRef(dir, 'refs/heads/nope', url)).rejects.toBeInstanceOf(RefNotFound);
    expect(server.gitDirFor(`${server.url}/../x`)).toBeUndefined();
    expect(server.gitDirFor('http://elsewhere/refs.git')).toBeUndefined();
  });

  it('commits adds, modifications and deletions on a branch and pushes it', async () => {
    const { url, shas } = await repoWithHistory('push.git', 12);
    const dir = path.join(tmp, 'clone-push');
    await cloneAtCommit({ url, ref: 'main', commit: shas[5], dir }); // deepened, older than tip
    await expect(commitAll({ dir, message: 'noop', author, branch: 'agt/t0' })).rejects.toBeInstanceOf(NothingToCommit);

    await writeFile(path.join(dir, 'README.md'), '# changed\n');
    await writeFile(path.join(dir, 'src', 'new.ts'), 'export const n = 2;\n');
    await unlink(path.join(dir, 'src', 'a.ts'));
    const sha = await commitAll({ dir, message: 'agent change', author, branch: 'agt/t1' });
    expect(await pushBranch({ dir, url, branch: 'agt/t1' })).toBe(sha);
    expect(await remoteBranchSha(url, 'agt/t1')).toBe(sha);
    expect(await remoteBranchSha(url, 'agt/none')).toBeUndefined();
    expect(await remoteBranchSha(url, 'main')).toBe(shas[12]);

    const check = path.join(tmp, 'check-push');
    await gitCli(tmp, 'clone', '-q', '-b', 'agt/t1', url, check);
    expect(await gitCli(check, 'log', '-1', '--format=%P %an %s')).toBe(`${shas[5]} Test agent change`);
    expect(await readFile(path.join(check, 'README.md'), 'utf8')).toBe('# changed\n');
    expect(existsSync(path.join(check, 'src', 'new.ts'))).toBe(true);
    expect(existsSync(path.join(check, 'src', 'a.ts'))).toBe(false);
    await gitCli(check, 'fsck', '--no-progress');

    // someone else's commit is on the branch now: a push from another clone must not overwrite it
    const other = path.join(tmp, 'clone-other');
    await cloneAtCommit({ url, ref: 'main', commit: shas[12], dir: other });
    await writeFile(path.join(other, 'z.txt'), 'z\n');
    await commitAll({ dir: other, message: 'conflicting', author, branch: 'agt/t1' });
    const err = await pushBranch({ dir: other, url, branch: 'agt/t1' }).catch((e) => e);
    expect(err).toBeInstanceOf(PushRejected);
    expect(err.retryable).toBe(false);
    expect(await remoteBranchSha(url, 'agt/t1')).toBe(sha);
  });

  it('a push the remote refuses (a pre-receive hook, 401/403) is final with its words; a 503 may pass later', async () => {
    const { url, shas } = await repoWithHistory('refused.git', 1);
    const dir = path.join(tmp, 'clone-refused');
    await cloneAtCommit({ url, ref: 'main', commit: shas[1], dir });
    await writeFile(path.join(dir, 'r.txt'), 'r\n');
    await commitAll({ dir, message: 'refused push', author, branch: 'agt/r1' });

    const hook = path.join(server.gitDirFor(url)!, 'hooks', 'pre-receive');
    await writeFile(hook, '#!/bin/sh\necho "agt/* branches need a signed-off-by line" >&2\nexit 1\n', { mode: 0o755 });
    const hooked = await pushBranch({ dir, url, branch: 'agt/r1' }).catch((e) => e);
    expect(hooked).toBeInstanceOf(PushRejected);
    expect(hooked.retryable).toBe(false);
    expect(hooked.message).toMatch(/pre-receive hook declined/);
    expect(hooked.message).toMatch(/need a signed-off-by line/);
    await unlink(hook);

    for (const [status, retryable] of [
      [403, false],
      [401, false],
      [503, true],
    ] as const) {
      const proxy = await startGitProxy(server.url, async (req, res) => {
        if (!req.url?.includes('git-receive-pack')) return false;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`no pushes for you (${status})`);
        return true;
      });
      try {
        const err = await pushBranch({ dir, url: proxy.url(url), branch: 'agt/r1' }).catch((e) => e);
        expect([err instanceof PushRejected, err.retryable]).toEqual([true, retryable]);
        expect(err.message).toMatch(new RegExp(`HTTP ${status}.*no pushes for you`));
      } finally {
        proxy.close();
      }
    }
    expect(await remoteBranchSha(url, 'agt/r1')).toBeUndefined();
    expect(await pushBranch({ dir, url, branch: 'agt/r1' })).toMatch(/^[0-9a-f]{40}$/); // nothing was wrong with it
  });

  it("pushes through a server that stays silent longer than Node's default 5 s idle timeout", async () => {
    const { url } = await repoWithHistory('slow.git', 1);
    const dir = path.join(tmp, 'clone-slow');
    await cloneAtCommit({ url, ref: 'main', commit: await remoteBranchSha(url, 'main').then((s) => s!), dir });
    await writeFile(path.join(dir, 'slow.txt'), 'slow\n');
    const sha = await commitAll({ dir, message: 'slow push', author, branch: 'agt/slow' });
    // A busy server (a big push being indexed, a loaded machine): every answer starts 6 s late.
    const slow = await startGitProxy(server.url, async () => (await new Promise((r) => setTimeout(r, 6_000)), false));
    try {
      expect(await pushBranch({ dir, url: slow.url(url), branch: 'agt/slow' })).toBe(sha);
      expect(await remoteBranchSha(url, 'agt/slow')).toBe(sha);
    } finally {
      slow.close();
    }
  }, 30_000);

  it('reads the tip commit of a remote branch with its message, and deletes the branch only at the expected tip', async () => {
    const { url, shas } = await repoWithHistory('tip.git', 1);
    const dir = path.join(tmp, 'clone-tip');
    await cloneAtCommit({ url, ref: 'main', commit: shas[1], dir });
    await writeFile(path.join(dir, 'x.txt'), 'x\n');
    const message = 'feat(t9): x\n\nFarm-Task: t9\nFarm-Dispatch: 2\n';
    const sha = await commitAll({ dir, message, author, branch: 'agt/t9' });
    await pushBranch({ dir, url, branch: 'agt/t9' });

    expect(await readRemoteBranchCommit(url, 'agt/t9')).toEqual({ sha, message });
    expect(await readRemoteBranchCommit(url, 'agt/none')).toBeUndefined();

    // Not at the expected tip: left alone.
    expect(await deleteRemoteBranch(url, 'agt/t9', shas[0])).toBe(false);
    expect(await remoteBranchSha(url, 'agt/t9')).toBe(sha);
    expect(await deleteRemoteBranch(url, 'agt/t9', sha)).toBe(true);
    expect(await remoteBranchSha(url, 'agt/t9')).toBeUndefined();
    expect(await remoteBranchSha(url, 'main')).toBe(shas[1]);
    expect(await deleteRemoteBranch(url, 'agt/t9', sha)).toBe(true); // already gone
  });
});

describe.each(['git-cli', 'isomorphic-git'] as const)('shallow clones with %s', (via) => {
  it('clones the tip shallowly, then deepens to reach an older commit', async () => {
    const { url, shas } = await repoWithHistory(`deep-${via}.git`, 25);
    const tip = path.join(tmp, `clone-tip-${via}`);
    expect(await cloneAtCommit({ url, ref: 'main', commit: shas[25], dir: tip, via })).toEqual({
      commit: shas[25],
      depth: 1,
    });
    expect(existsSync(path.join(tip, '25.txt'))).toBe(true);
    expect((await readFile(path.join(tip, '.git', 'shallow'), 'utf8')).trim()).toBe(shas[25]);

    const old = path.join(tmp, `clone-old-${via}`);
    const r = await cloneAtCommit({ url, ref: 'main', commit: shas[3], dir: old, via });
    expect(r.depth).toBeGreaterThan(1);
    expect(await gitCli(old, 'rev-parse', 'HEAD')).toBe(shas[3]);
    expect(existsSync(path.join(old, '3.txt'))).toBe(true);
    expect(existsSync(path.join(old, '4.txt'))).toBe(false);
    expect(await gitCli(old, 'status', '--porcelain')).toBe('');

    // from a tag and from a sha ref
    await gitCli(path.join(tmp, `hist-deep-${via}.git`), 'tag', 't10', shas[10]);
    await gitCli(path.join(tmp, `hist-deep-${via}.git`), 'push', '-q', 'origin', 't10');
    const fromTag = path.join(tmp, `clone-tag-${via}`);
    expect((await cloneAtCommit({ url, ref: 't10', commit: shas[10], dir: fromTag, via })).depth).toBe(1);
    const fromSha = path.join(tmp, `clone-sha-${via}`);
    await cloneAtCommit({ url, ref: shas[20], commit: shas[20], dir: fromSha, via });
    expect(await gitCli(fromSha, 'rev-parse', 'HEAD')).toBe(shas[20]);
  });

  it('waits for a server that went away mid-request (a restarting farm) and clones once it answers', async () => {
    const { url, shas } = await repoWithHistory(`restart-${via}.git`, 1);
    // The first two requests lose their connection before any answer, as when farm up is killed.
    let dropped = 0;
    const restarting = await startGitProxy(server.url, (req) => {
      if (dropped >= 2) return false;
      dropped++;
      req.socket.destroy();
      return true;
    });
    try {
      const dir = path.join(tmp, `restart-clone-${via}`);
      await cloneAtCommit({ url: restarting.url(url), ref: 'main', commit: shas[1], dir, via });
      expect(await gitCli(dir, 'rev-parse', 'HEAD')).toBe(shas[1]);
      expect(dropped).toBe(2);
    } finally {
      restarting.close();
    }
  });

  it('fails with non-retryable CommitNotFound for a commit outside the history', async () => {
    const { url } = await repoWithHistory(`missing-${via}.git`, 3);
    const err = await cloneAtCommit({
      url,
      ref: 'main',
      commit: 'f'.repeat(40),
      dir: path.join(tmp, `clone-missing-${via}`),
      via,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(CommitNotFound);
    expect(err.retryable).toBe(false);
    const refErr = await cloneAtCommit({
      url,
      ref: 'nope',
      commit: 'f'.repeat(40),
      dir: path.join(tmp, `clone-noref-${via}`),
      via,
    }).catch((e) => e);
    expect(refErr).toBeInstanceOf(RefNotFound);
  });
});

describe('commit trailers', () => {
  it('appends a trailer paragraph and reads it back; a message without one has none', () => {
    const message = withTrailers('fix(t1): x\n\nbody text\n', { 'Farm-Task': 't1', 'Farm-Dispatch': '3' });
    expect(message).toBe('fix(t1): x\n\nbody text\n\nFarm-Task: t1\nFarm-Dispatch: 3\n');
    expect(Object.fromEntries(parseTrailers(message))).toEqual({ 'Farm-Task': 't1', 'Farm-Dispatch': '3' });
    expect(parseTrailers('Farm-Task: t1').size).toBe(0); // a subject line is not a trailer
    expect(parseTrailers('fix\n\nFarm-Task: t1\nnot a trailer').size).toBe(0);
    expect(() => withTrailers('x', { 'Farm-Task': 'a\nFarm-Task: b' })).toThrow(/invalid trailer/);
  });
});
