// The task's commit is made from the base commit and the change's paths, whatever the repository's checks did
// to the checkout's .git (commits, tags, config, planted objects): real git on both sides, served over HTTP.
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import {
  cloneAtCommit,
  commitOnBase,
  commitsSince,
  GitDataTampered,
  NothingToCommit,
  PathNotCommittable,
  pushBranch,
  readRepoState,
  readVerifiedFile,
  remoteBranchSha,
  startGitHttpServer,
  type GitHttpServer,
} from './index';

const exec = promisify(execFile);
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
const author = { name: 'agent', email: 'agent@test' };
const message = 'feat(t1): change\n\nFarm-Task: t1\n';

let tmp: string;
let server: GitHttpServer;
let n = 0;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-commit-on-base-'));
  server = await startGitHttpServer({ root: path.join(tmp, 'srv') });
});
afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

/**
 * A repository on the server with a regular file, an executable, a symlink and nested directories; returns
 * its url, the base commit and a fresh checkout of it (made as the agent makes one).
 */
async function checkoutOfBase(): Promise<{ url: string; base: string; dir: string }> {
  const name = `repo-${++n}.git`;
  const url = await server.createBareRepo(name);
  const seed = path.join(tmp, `seed-${n}`);
  await gitCli(tmp, 'init', '-q', '-b', 'main', seed);
  await mkdir(path.join(seed, 'src', 'deep'), { recursive: true });
  await mkdir(path.join(seed, 'docs'));
  await writeFile(path.join(seed, 'README.md'), '# demo\n');
  await writeFile(path.join(seed, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(path.join(seed, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  await writeFile(path.join(seed, 'docs', 'old.md'), 'old\n');
  await writeFile(path.join(seed, 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(path.join(seed, 'run.sh'), 0o755);
  await symlink('README.md', path.join(seed, 'readme-link'));
  await gitCli(seed, 'add', '-A');
  await gitCli(seed, 'commit', '-qm', 'base');
  await gitCli(seed, 'push', '-q', url, 'main');
  const base = await gitCli(seed, 'rev-parse', 'HEAD');
  const dir = path.join(tmp, `checkout-${n}`);
  await cloneAtCommit({ url, ref: 'main', commit: base, dir });
  return { url, base, dir };
}

/** The agent's change: an edit, a new executable, a new symlink, a new nested file and a deleted file. */
async function makeTheChange(dir: string): Promise<string[]> {
  await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 10;\n');
  await writeFile(path.join(dir, 'tool.sh'), '#!/bin/sh\necho tool\n');
  await chmod(path.join(dir, 'tool.sh'), 0o755);
  await symlink('src/a.ts', path.join(dir, 'a-link'));
  await mkdir(path.join(dir, 'src', 'deep', 'new'), { recursive: true });
  await writeFile(path.join(dir, 'src', 'deep', 'new', 'c.ts'), 'export const c = 3;\n');
  await unlink(path.join(dir, 'docs', 'old.md'));
  return ['src/a.ts', 'tool.sh', 'a-link', 'src/deep/new/c.ts', 'docs/old.md'];
}

/** What a hostile check does to the checkout: commits a symlink to /etc/passwd and a binary, tags, reconfigures. */
async function hostileCheck(dir: string): Promise<void> {
  await symlink('/etc/passwd', path.join(dir, 'passwd'));
  await writeFile(path.join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 255, 0, 7]));
  await gitCli(dir, 'add', '-A');
  await gitCli(dir, 'commit', '-qm', 'check 1');
  await writeFile(path.join(dir, 'README.md'), '# owned\n');
  await gitCli(dir, 'commit', '-qam', 'check 2');
  await gitCli(dir, 'tag', 'x');
  await gitCli(dir, 'config', 'user.name', 'evil');
  await writeFile(path.join(dir, '.git', 'hooks', 'pre-push'), '#!/bin/sh\nexit 0\n');
}

/** The tree the same change gets from native git in a clean clone of the base: what the commit must hold. */
async function treeOfTheChangeByGit(url: string, base: string): Promise<string> {
  const clean = path.join(tmp, `clean-${++n}`);
  await gitCli(tmp, 'clone', '-q', url, clean);
  await gitCli(clean, 'checkout', '-q', base);
  await makeTheChange(clean);
  await gitCli(clean, 'add', '-A');
  return gitCli(clean, 'write-tree');
}

/** A loose object named `oid` in `dir` holding `content` as a `type` (a check overwriting the store). */
async function plantObject(dir: string, oid: string, type: string, content: Buffer): Promise<void> {
  const file = path.join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
  await mkdir(path.dirname(file), { recursive: true });
  await rm(file, { force: true });
  await writeFile(file, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])));
}

/** Swaps the names of two objects in the checkout's pack index (a check rewriting .git); returns the undo. */
async function swapInPackIndex(dir: string, a: string, b: string): Promise<() => Promise<void>> {
  const packDir = path.join(dir, '.git', 'objects', 'pack');
  const idx = path.join(
    packDir,
    (await readdir(packDir)).find((f) => f.endsWith('.idx'))!,
  );
  const original = await readFile(idx);
  const swapped = Buffer.from(original);
  const count = swapped.readUInt32BE(8 + 255 * 4);
  const names = Array.from({ length: count }, (_, i) => swapped.toString('hex', 1032 + 20 * i, 1052 + 20 * i));
  const [ia, ib] = [names.indexOf(a), names.indexOf(b)];
  expect([ia, ib].every((i) => i >= 0)).toBe(true);
  swapped.write(b, 1032 + 20 * ia, 'hex');
  swapped.write(a, 1032 + 20 * ib, 'hex');
  await chmod(idx, 0o644);
  await writeFile(idx, swapped);
  return () => writeFile(idx, original);
}

describe('commitOnBase', () => {
  test('a check that committed, tagged and reconfigured: the commit is the base plus the change, byte for byte', async () => {
    const { url, base, dir } = await checkoutOfBase();
    const paths = await makeTheChange(dir);
    await hostileCheck(dir);
    const moved = await gitCli(dir, 'rev-parse', 'HEAD');
    expect(await commitsSince(dir, base, moved)).toEqual({ count: 2, reachesBase: true });

    const { commit, tree } = await commitOnBase({ dir, base, paths, branch: 'agt/t1', message, author });
    expect(await gitCli(dir, 'rev-parse', `${commit}^@`)).toBe(base); // one parent: the base
    expect(tree).toBe(await treeOfTheChangeByGit(url, base));
    expect(await gitCli(dir, 'rev-parse', `${commit}^{tree}`)).toBe(tree);
    expect(await gitCli(dir, 'ls-tree', '-r', '--format=%(objectmode) %(path)', commit)).toBe(
      [
        '100644 README.md',
        '120000 a-link',
        '120000 readme-link',
        '100755 run.sh',
        '100644 src/a.ts',
        '100644 src/deep/b.ts',
        '100644 src/deep/new/c.ts',
        '100755 tool.sh',
      ].join('\n'),
    );
    expect(await gitCli(dir, 'cat-file', '-p', `${commit}:a-link`)).toBe('src/a.ts');
    expect(await gitCli(dir, 'log', '-1', '--format=%an <%ae>%n%B', commit)).toBe(
      `agent <agent@test>\n${message}`.trim(),
    );
    expect(await gitCli(dir, 'rev-parse', 'refs/heads/agt/t1')).toBe(commit);
    // HEAD, the tag and the config are the check's, untouched.
    expect(await gitCli(dir, 'rev-parse', 'HEAD', 'x')).toBe(`${moved}\n${moved}`);
    await gitCli(dir, 'fsck', '--no-progress', '--no-dangling', commit);
    // Paths that are as the base has them make no commit.
    const unchanged = { dir, base, paths: ['src/deep/b.ts', 'nope.txt'], branch: 'agt/t0', message, author };
    await expect(commitOnBase(unchanged)).rejects.toBeInstanceOf(NothingToCommit);
  });

  test('pushed from that checkout, the branch holds the commit; a tag of the same name and a CORS proxy in the config change nothing', async () => {
    const { url, base, dir } = await checkoutOfBase();
    const paths = await makeTheChange(dir);
    await hostileCheck(dir);
    // The check also names its commit like the task's branch (a short ref name finds tags first) and points
    // isomorphic-git's CORS proxy at a listener of its own.
    await gitCli(dir, 'tag', 'agt/t2');
    const proxied: string[] = [];
    const proxy = http.createServer((req, res) => {
      proxied.push(req.url ?? '');
      res.writeHead(502).end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      await gitCli(dir, 'config', 'http.corsProxy', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      const { commit } = await commitOnBase({ dir, base, paths, branch: 'agt/t2', message, author });
      expect(await pushBranch({ dir, url, branch: 'agt/t2' })).toBe(commit);
      expect(await remoteBranchSha(url, 'agt/t2')).toBe(commit);
      expect(proxied).toEqual([]);
    } finally {
      proxy.close();
    }
    const fresh = path.join(tmp, `fresh-${++n}`);
    await gitCli(tmp, 'clone', '-q', '-b', 'agt/t2', url, fresh);
    expect(await gitCli(fresh, 'rev-list', '--count', 'HEAD')).toBe('2'); // the base and the task's commit
    expect(await gitCli(fresh, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toMatch(/passwd|blob\.bin/);
    expect(await readFile(path.join(fresh, 'README.md'), 'utf8')).toBe('# demo\n');
  });

  test('a planted or re-labelled object for the base commit or a tree on a changed path is refused; one elsewhere is never read', async () => {
    const { base, dir } = await checkoutOfBase();
    const paths = await makeTheChange(dir);
    await hostileCheck(dir);
    const checkTree = await gitCli(dir, 'rev-parse', 'HEAD^{tree}');
    const baseCommit = Buffer.from(await gitCli(dir, 'cat-file', 'commit', base));
    // The base commit rewritten to name the check's tree (the clone's objects are packed: the loose one wins).
    await plantObject(
      dir,
      base,
      'commit',
      Buffer.from(baseCommit.toString().replace(/^tree \w+/, `tree ${checkTree}`)),
    );
    const err = await commitOnBase({ dir, base, paths, branch: 'agt/t3', message, author }).catch((e) => e);
    expect(err).toBeInstanceOf(GitDataTampered);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(new RegExp(`commit ${base} hashes to [0-9a-f]{40}`));
    await rm(path.join(dir, '.git', 'objects', base.slice(0, 2), base.slice(2)));

    // The tree of src/ (on a changed path) made to hold the check's binary.
    const src = await gitCli(dir, 'rev-parse', `${base}:src`);
    const binary = await gitCli(dir, 'rev-parse', 'HEAD:blob.bin');
    await plantObject(dir, src, 'tree', Buffer.concat([Buffer.from('100644 a.ts\0'), Buffer.from(binary, 'hex')]));
    await expect(commitOnBase({ dir, base, paths, branch: 'agt/t3', message, author })).rejects.toThrow(
      new RegExp(`tree ${src} hashes to`),
    );
    await rm(path.join(dir, '.git', 'objects', src.slice(0, 2), src.slice(2)));
    // Packed objects are not checked by isomorphic-git: the pack's index re-labelled so that src/ reads as src/deep/.
    const deep = await gitCli(dir, 'rev-parse', `${base}:src/deep`);
    const restoreIndex = await swapInPackIndex(dir, src, deep);
    await expect(commitOnBase({ dir, base, paths, branch: 'agt/t3', message, author })).rejects.toThrow(
      new RegExp(`tree ${src} hashes to ${deep}`),
    );
    await restoreIndex();

    // A tree off the change's paths keeps its id and is never read: a planted copy of it is not used.
    await plantObject(dir, deep, 'tree', Buffer.concat([Buffer.from('100644 x\0'), Buffer.from(binary, 'hex')]));
    const { commit } = await commitOnBase({ dir, base, paths: ['tool.sh'], branch: 'agt/t3', message, author });
    expect(await gitCli(dir, 'rev-parse', `${commit}:src/deep`)).toBe(deep);
  });

  test('refuses a path through a symlinked directory or into .git; a directory where a file was deletes the file', async () => {
    const { base, dir } = await checkoutOfBase();
    await rm(path.join(dir, 'src'), { recursive: true });
    await symlink('/etc', path.join(dir, 'src'));
    await expect(
      commitOnBase({ dir, base, paths: ['src/passwd'], branch: 'agt/t4', message, author }),
    ).rejects.toBeInstanceOf(PathNotCommittable);
    await expect(
      commitOnBase({ dir, base, paths: ['.git/config'], branch: 'agt/t4', message, author }),
    ).rejects.toBeInstanceOf(PathNotCommittable);
    await unlink(path.join(dir, 'src'));
    await gitCli(dir, 'checkout', '-q', '--', 'src');

    await unlink(path.join(dir, 'run.sh'));
    await mkdir(path.join(dir, 'run.sh'));
    await writeFile(path.join(dir, 'run.sh', 'inside.txt'), 'inside\n');
    const { commit } = await commitOnBase({
      dir,
      base,
      paths: ['run.sh', 'run.sh/inside.txt'],
      branch: 'agt/t4',
      message,
      author,
    });
    expect(await gitCli(dir, 'ls-tree', '-r', '--name-only', commit)).toBe(
      ['README.md', 'docs/old.md', 'readme-link', 'run.sh/inside.txt', 'src/a.ts', 'src/deep/b.ts'].join('\n'),
    );
  });
});
test('writes nothing through a symlink a check planted in .git: linked object and ref directories are refused, a linked ref file replaced', async () => {
  const outside = path.join(tmp, `outside-${++n}`);
  await mkdir(outside);
  const attempt = async (branch: string) => {
    const { base, dir } = await checkoutOfBase();
    const paths = await makeTheChange(dir);
    return { dir, run: () => commitOnBase({ dir, base, paths, branch, message, author }) };
  };
  // Every loose-object directory a write could go to points outside the checkout.
  const objects = await attempt('agt/t5');
  for (let i = 0; i < 256; i++) {
    const sub = path.join(objects.dir, '.git', 'objects', i.toString(16).padStart(2, '0'));
    if (!(await lstat(sub).catch(() => undefined))) await symlink(outside, sub);
  }
  await expect(objects.run()).rejects.toBeInstanceOf(GitDataTampered);
  // refs/heads/agt is a link to elsewhere.
  const refs = await attempt('agt/t6');
  await symlink(outside, path.join(refs.dir, '.git', 'refs', 'heads', 'agt'));
  await expect(refs.run()).rejects.toThrow(/refs\/heads\/agt is a symlink/);
  expect(await readdir(outside)).toEqual([]);
  // The ref file itself is a link: replaced by the ref, the file it pointed to untouched.
  const file = await attempt('agt/t7');
  await writeFile(path.join(outside, 'target'), 'kept\n');
  await mkdir(path.join(file.dir, '.git', 'refs', 'heads', 'agt'), { recursive: true });
  await symlink(path.join(outside, 'target'), path.join(file.dir, '.git', 'refs', 'heads', 'agt', 't7'));
  const { commit } = await file.run();
  expect(await gitCli(file.dir, 'rev-parse', 'refs/heads/agt/t7')).toBe(commit);
  expect(await readFile(path.join(outside, 'target'), 'utf8')).toBe('kept\n');
  expect(await readdir(outside)).toEqual(['target']);
});

test('the state of a checkout: HEAD, refs, config and hooks, as a check leaves them', async () => {
  const { base, dir } = await checkoutOfBase();
  const before = await readRepoState(dir);
  expect(before.head).toBe(base);
  await hostileCheck(dir);
  const after = await readRepoState(dir);
  expect(after.head).toBe(await gitCli(dir, 'rev-parse', 'HEAD'));
  expect([...after.refs.keys()].filter((r) => !before.refs.has(r))).toEqual(['refs/tags/x']);
  expect(after.config).not.toBe(before.config);
  expect([...after.hooks.keys()].filter((h) => before.hooks.get(h) !== after.hooks.get(h))).toEqual(['pre-push']);
});

test('a file of the base commit is read as the base has it, whatever HEAD says; a planted blob is refused', async () => {
  const { base, dir } = await checkoutOfBase();
  await hostileCheck(dir);
  const read = async (p: string) => {
    const file = await readVerifiedFile(dir, base, p);
    return file && `${file.mode} ${file.content.toString()}`;
  };
  expect(await read('README.md')).toBe('100644 # demo\n'); // HEAD's says "# owned"
  expect(await read('readme-link')).toBe('120000 README.md');
  expect(await read('run.sh')).toBe('100755 #!/bin/sh\necho hi\n');
  expect(await read('src/deep/b.ts')).toBe('100644 export const b = 2;\n');
  for (const none of ['src', 'passwd', 'src/nope.ts', 'README.md/x']) expect(await read(none)).toBeUndefined();
  const blob = await gitCli(dir, 'rev-parse', `${base}:src/a.ts`);
  await plantObject(dir, blob, 'blob', Buffer.from('export const a = "owned";\n'));
  await expect(readVerifiedFile(dir, base, 'src/a.ts')).rejects.toBeInstanceOf(GitDataTampered);
});
