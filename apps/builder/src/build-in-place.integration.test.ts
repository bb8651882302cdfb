// A one-task build done in place (no process, no checkout) writes what the build process writes, and only
// when nothing is left to check; the check plan of a tree read from git equals the plan of its checkout.
// Real git: a bare repository served by the git smart-HTTP server, and runBuild (the build process's code).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { startGitHttpServer, type GitHttpServer } from '@farm/git';
import { silentLogger } from '@farm/runtime';
import { checkPlanFor, UnplannedRepoPath, snapshotFiles } from '@farm/sandbox';
import { buildInPlace, inPlaceCandidate } from './build-in-place';
import { runBuild } from './run-build';
import { GitObjectReader, ObjectReaderClosed } from './git-object-reader';
import { baseAmongAncestors, readCommitAndTop, treeFiles } from './tree-files';

const exec = promisify(execFile);
const B = farm.v1.BuildStatus;
const CHECK = 'echo the check ran >&2; exit 3';

let tmp: string;
let server: GitHttpServer;
let n = 0;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'build-in-place-'));
  server = await startGitHttpServer({ root: path.join(tmp, 'git') });
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

interface Repo {
  url: string;
  gitDir: string;
  work: string;
  git(...args: string[]): Promise<string>;
  commitFiles(files: Record<string, string>, message: string): Promise<{ commit: string; tree: string }>;
}

/** A bare repository on the server with `base` committed on main, and a work tree to make task commits in. */
async function makeRepo(base: Record<string, string>): Promise<Repo & { baseCommit: string }> {
  const name = `r${++n}.git`;
  const url = await server.createBareRepo(name);
  const work = path.join(tmp, `work-${n}`);
  await exec('git', ['init', '-q', '-b', 'main', work]);
  const git = async (...args: string[]) =>
    (await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work })).stdout.trim();
  const commitFiles = async (files: Record<string, string>, message: string) => {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(work, file)), { recursive: true });
      await writeFile(path.join(work, file), text);
    }
    await git('add', '-A');
    await git('commit', '-qm', message);
    return { commit: await git('rev-parse', 'HEAD'), tree: await git('rev-parse', 'HEAD^{tree}') };
  };
  const { commit: baseCommit } = await commitFiles(base, 'base');
  await git('push', '-q', url, 'main');
  return { url, gitDir: server.gitDirFor(url)!, work, git, commitFiles, baseCommit };
}

/** A task's commit on agt/<task> (pushed), and the build request of its one-task request. */
async function taskBuild(
  repo: Repo & { baseCommit: string },
  files: Record<string, string>,
  verification: (tree: string) => farm.v1.IVerification,
  more: Partial<farm.v1.IBuildRequest> = {},
): Promise<{ request: farm.v1.IBuildRequest; commit: string; tree: string }> {
  const task = `t${++n}`;
  await repo.git('checkout', '-q', '-B', `agt/${task}`, repo.baseCommit);
  const { commit, tree } = await repo.commitFiles(files, `task ${task}`);
  await repo.git('push', '-q', repo.url, `agt/${task}`);
  return {
    commit,
    tree,
    request: {
      changeRequestId: `cr-${task}`,
      repo: { url: repo.url, baseRef: 'main', baseCommit: repo.baseCommit },
      branches: [`agt/${task}`],
      commits: [commit],
      taskIds: [task],
      verifications: [verification(tree)],
      ...more,
    },
  };
}

const show = (gitDir: string, rev: string) =>
  exec('git', ['-C', gitDir, 'show', '-s', '--format=%T%n%P%n%an <%ae>%n%cn <%ce>%n%B', rev]).then((r) => r.stdout);

describe('a one-task build in place', () => {
  test('writes the merge commit the build process writes, sets farm/<id> to it, and the same commit when done twice', async () => {
    const repo = await makeRepo({ 'a.txt': 'base\n' });
    const { request, commit, tree } = await taskBuild(repo, { 'a.txt': 'changed\n' }, (treeSha) => ({ treeSha }));

    const inPlace = await buildInPlace(request, repo.gitDir);
    expect(inPlace).toMatchObject({
      changeRequestId: request.changeRequestId,
      status: B.BUILD_PASSED,
      integrationBranch: `farm/${request.changeRequestId}`,
    });
    expect(inPlace!.notes).toContain('no checks found');
    const ref = await exec('git', ['-C', repo.gitDir, 'rev-parse', `refs/heads/farm/${request.changeRequestId}`]);
    expect(ref.stdout.trim()).toBe(inPlace!.commitSha);
    expect((await buildInPlace(request, repo.gitDir))!.commitSha).toBe(inPlace!.commitSha);

    // The build process's merge of the same request: same tree, parents, author, committer and message.
    const processBuilt = await runBuild({ ...request, changeRequestId: 'by-process' }, { log: silentLogger });
    expect(processBuilt.status).toBe(B.BUILD_PASSED);
    // And the same diff of the request's change, for review.
    expect([inPlace!.diff, inPlace!.diffTruncated]).toEqual([processBuilt.diff, false]);
    expect(inPlace!.diff).toContain('+changed');
    const expected = (await show(repo.gitDir, processBuilt.commitSha!)).replace('farm/by-process', 'farm/ID');
    const actual = (await show(repo.gitDir, inPlace!.commitSha!)).replace(`farm/${request.changeRequestId}`, 'farm/ID');
    expect(actual).toBe(expected);
    expect(actual.split('\n').slice(0, 2)).toEqual([tree, `${repo.baseCommit} ${commit}`]);
  });

  test('reuses checks that passed on exactly that tree, and leaves any other build to a process', async () => {
    const pkg = JSON.stringify({ scripts: { test: 'node --test' } });
    const repo = await makeRepo({ 'package.json': pkg });
    const checked = (run: string) => (treeSha: string) => ({ treeSha, checks: [{ name: 'test', run, ok: true }] });

    const reused = await taskBuild(repo, { 'a.js': '1\n' }, checked('npm run --silent test'));
    const built = await buildInPlace(reused.request, repo.gitDir);
    expect(built?.status).toBe(B.BUILD_PASSED);
    expect(built!.notes![0]).toMatch(/^checks: ran by task t\d+ on tree /);

    // The plan on the tree is not what the task ran: a build process runs it.
    const other = await taskBuild(repo, { 'a.js': '2\n' }, checked('npm test'));
    expect(await buildInPlace(other.request, repo.gitDir)).toBeUndefined();
    // The task changed package.json after its checks: the plan on the committed tree differs.
    const changed = await taskBuild(
      repo,
      { 'package.json': JSON.stringify({ scripts: { test: 'node --test', lint: 'eslint .' } }) },
      checked('npm run --silent test'),
    );
    expect(await buildInPlace(changed.request, repo.gitDir)).toBeUndefined();
    // A request's own check command the task did not run.
    const command = await taskBuild(repo, { 'a.js': '3\n' }, checked('npm run --silent test'), {
      checkCommand: CHECK,
    });
    expect(await buildInPlace(command.request, repo.gitDir)).toBeUndefined();
    // The checks ran on another tree than the one committed.
    const elsewhere = await taskBuild(repo, { 'a.js': '4\n' }, () => checked('npm run --silent test')(reused.tree));
    expect(await buildInPlace(elsewhere.request, repo.gitDir)).toBeUndefined();
    // An invalid .farm/checks.json: the build process reports it.
    const invalid = await taskBuild(repo, { '.farm/checks.json': '{' }, (treeSha) => ({ treeSha }));
    expect(await buildInPlace(invalid.request, repo.gitDir)).toBeUndefined();
    for (const r of [other, changed, command, elsewhere, invalid]) {
      const refs = await exec('git', [
        '-C',
        repo.gitDir,
        'for-each-ref',
        `refs/heads/farm/${r.request.changeRequestId}`,
      ]);
      expect(refs.stdout).toBe('');
    }
  });

  test('not a candidate: several tasks, a follow-up onto an existing branch, no reported commit or tree, an empty change', () => {
    const one: farm.v1.IBuildRequest = {
      changeRequestId: 'cr',
      repo: { url: 'u', baseCommit: 'b' },
      branches: ['agt/t'],
      commits: ['c'],
      verifications: [{ treeSha: 't' }],
    };
    expect(inPlaceCandidate(one)).toMatchObject({ agentBranch: 'agt/t', commit: 'c', base: 'b', verifiedTree: 't' });
    expect(inPlaceCandidate({ ...one, branches: ['agt/t', 'agt/u'], commits: ['c', 'd'] })).toBeUndefined();
    expect(inPlaceCandidate({ ...one, integrationBranch: 'farm/earlier' })).toBeUndefined();
    expect(inPlaceCandidate({ ...one, commits: [] })).toBeUndefined();
    expect(inPlaceCandidate({ ...one, verifications: [{ treeSha: '' }] })).toBeUndefined();
    expect(inPlaceCandidate({ ...one, commits: ['b'] })).toBeUndefined();
  });

  test('a task commit not on the request base (or missing) is left to a process', async () => {
    const repo = await makeRepo({ 'a.txt': 'base\n' });
    const { request } = await taskBuild(repo, { 'a.txt': 'x\n' }, (treeSha) => ({ treeSha }));
    await repo.git('checkout', '-q', '--orphan', 'elsewhere');
    const { commit: unrelated } = await repo.commitFiles({ 'b.txt': 'y\n' }, 'unrelated');
    await repo.git('push', '-q', repo.url, 'elsewhere');
    expect(
      await buildInPlace({ ...request, repo: { ...request.repo, baseCommit: unrelated } }, repo.gitDir),
    ).toBeUndefined();
    expect(await buildInPlace({ ...request, commits: ['0'.repeat(40)] }, repo.gitDir)).toBeUndefined();
    // Two commits above its base (not its parent): still on it, built in place.
    await repo.git('checkout', '-q', request.branches![0]);
    const { commit: second, tree } = await repo.commitFiles({ 'c.txt': 'z\n' }, 'second');
    await repo.git('push', '-q', repo.url, request.branches![0]);
    const twoUp = { ...request, commits: [second], verifications: [{ treeSha: tree }] };
    expect((await buildInPlace(twoUp, repo.gitDir))?.status).toBe(B.BUILD_PASSED);
  });
});

/**
 * The git commands this process starts while `fn` runs, by subcommand (`cat-file`, `commit-tree`…): a `git`
 * first on PATH notes each and runs the real one.
 */
async function gitCommandsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const bin = await mkdtemp(path.join(tmp, 'bin-'));
  const real = (await exec('sh', ['-c', 'command -v git'])).stdout.trim();
  const log = path.join(bin, 'commands');
  await writeFile(log, '');
  // The subcommand: the first argument after `-C dir` and `-c key=value` pairs.
  const script =
    `#!/bin/sh\nsub=\nskip=\nfor a in "$@"; do\n  if [ -n "$skip" ]; then skip=; continue; fi\n` +
    `  case "$a" in -C|-c) skip=1 ;; *) sub=$a; break ;; esac\ndone\n` +
    `printf '%s\\n' "$sub" >> '${log}'\nexec '${real}' "$@"\n`;
  await writeFile(path.join(bin, 'git'), script, { mode: 0o755 });
  const before = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${before}`;
  try {
    await fn();
  } finally {
    process.env.PATH = before;
  }
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
}

describe('the git processes of a build in place', () => {
  const pkg = JSON.stringify({ scripts: { test: 'node --test' } });
  const checked = (treeSha: string) => ({
    treeSha,
    checks: [{ name: 'test', run: 'npm run --silent test', ok: true }],
  });

  test('one cat-file for the commit, its tree, its ancestors and the planned files, then commit-tree, the diff for review and update-ref', async () => {
    const repo = await makeRepo({ 'package.json': pkg });
    const { request } = await taskBuild(repo, { 'a.js': '1\n' }, checked);
    let built: farm.v1.IBuildResult | undefined;
    expect(await gitCommandsDuring(async () => (built = await buildInPlace(request, repo.gitDir)))).toEqual([
      'cat-file',
      'commit-tree',
      'diff',
      'update-ref',
    ]);
    expect(built?.notes![0]).toMatch(/^checks: ran by task t\d+ on tree /);
    // Two commits above its base: the same, its ancestors read by that cat-file (no merge-base).
    await repo.git('checkout', '-q', request.branches![0]);
    const { commit: second, tree } = await repo.commitFiles({ 'b.js': '2\n' }, 'second');
    await repo.git('push', '-q', repo.url, request.branches![0]);
    const twoUp = { ...request, commits: [second], verifications: [checked(tree)] };
    expect(await gitCommandsDuring(async () => (built = await buildInPlace(twoUp, repo.gitDir)))).toEqual([
      'cat-file',
      'commit-tree',
      'diff',
      'update-ref',
    ]);
    expect(built?.status).toBe(B.BUILD_PASSED);
  });

  test('one reader answers batch after batch; a name it lacks is undefined; closed, it answers no more', async () => {
    const repo = await makeRepo({ 'a.txt': 'base\n' });
    const objects = new GitObjectReader(repo.gitDir);
    const [commit, missing] = await objects.read(['HEAD^{commit}', 'no-such-ref']);
    expect(commit?.type).toBe('commit');
    expect(missing).toBeUndefined();
    expect(await objects.read(['HEAD:a.txt', 'HEAD:a\ntxt'])).toEqual([
      { type: 'blob', data: Buffer.from('base\n') },
      undefined, // a newline would shift every later answer: not asked
    ]);
    expect(await objects.read([])).toEqual([]);
    await objects.close();
    await expect(objects.read(['HEAD'])).rejects.toBeInstanceOf(ObjectReaderClosed);
  });

  test('finds the base a few commits below, and cannot tell for a commit on another history', async () => {
    const repo = await makeRepo({ 'a.txt': 'base\n' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await repo.commitFiles({ 'a.txt': `${i}\n` }, `c${i}`)).commit);
    await repo.git('push', '-q', repo.url, 'HEAD:refs/heads/three-up');
    await repo.git('checkout', '-q', '--orphan', 'other');
    const { commit: other } = await repo.commitFiles({ 'b.txt': 'y\n' }, 'other');
    await repo.git('push', '-q', repo.url, 'other');
    const objects = new GitObjectReader(repo.gitDir);
    try {
      const parentsOf = async (c: string) => (await readCommitAndTop(objects, c))!.parents;
      expect(await baseAmongAncestors(objects, repo.baseCommit, await parentsOf(ids[2]))).toBe(true);
      expect(await baseAmongAncestors(objects, repo.baseCommit, await parentsOf(ids[2]), 2)).toBeUndefined();
      expect(await baseAmongAncestors(objects, other, await parentsOf(ids[2]))).toBeUndefined();
      expect(await baseAmongAncestors(objects, repo.baseCommit, await parentsOf(other))).toBeUndefined();
    } finally {
      await objects.close();
    }
  });
});

describe('the check plan of a tree that is not checked out', () => {
  const installed = (...tools: string[]) => ({
    findTool: (name: string) => (tools.includes(name) ? `/usr/bin/${name}` : undefined),
  });
  const layouts: Record<string, Record<string, string>> = {
    'node, pnpm, prettier/eslint/jest, no node_modules': {
      'package.json': JSON.stringify({
        scripts: { lint: 'eslint .', 'test:unit': 'jest' },
        devDependencies: { prettier: '3', eslint: '9', jest: '29' },
      }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
    },
    'node with node_modules committed and npm lockfile': {
      'package.json': JSON.stringify({ dependencies: { left: '1' }, devDependencies: { mocha: '10' } }),
      'package-lock.json': '{}',
      'node_modules/left/index.js': '',
    },
    'python: pyproject, requirements, tests/conftest.py with a fast marker, a committed venv': {
      'pyproject.toml': '[tool.black]\nline-length = 100\n',
      'requirements-dev.txt': 'ruff==0.5\npytest\n',
      'tests/conftest.py': 'def pytest_configure(config):\n    config.addinivalue_line("markers", "fast: quick")\n',
      '.venv/bin/ruff': '#!/bin/sh\n',
      'pkg/__init__.py': '',
    },
    'python: setup.cfg and tox.ini': {
      'setup.cfg': '[tool:pytest]\nmarkers =\n    fast: quick\n',
      'tox.ini': '[pytest]\n',
      'test_x.py': '',
    },
    '.farm/checks.json': {
      '.farm/checks.json': JSON.stringify({ steps: [{ name: 'unit', run: 'make test' }], maxRetries: 2 }),
      'package.json': JSON.stringify({ scripts: { test: 'jest' } }),
    },
    'python: the tests inside the package (shortuuid), none in a virtualenv': {
      'pyproject.toml': '[tool.poetry]\nname = "shortuuid"\n',
      'shortuuid/__init__.py': '',
      'shortuuid/test_shortuuid.py': 'import unittest\n',
      '.venv/lib/site-packages/x/test_x.py': '',
    },
    'nothing to check': { 'README.md': '# hi\n' },
  };

  test.each(Object.keys(layouts))('%s: the same plan as a fresh checkout', async (layout) => {
    const repo = await makeRepo(layouts[layout]);
    const tree = await repo.git('rev-parse', 'HEAD^{tree}');
    const checkout = path.join(tmp, `checkout-${++n}`);
    await exec('git', ['clone', '-q', repo.url, checkout]);
    const opts = installed('black', 'pytest');
    const read = await readCommitAndTop(repo.gitDir, 'HEAD');
    expect(read!.tree).toBe(tree);
    expect(read!.topLevel.sort()).toEqual((await repo.git('ls-tree', '--name-only', 'HEAD')).split('\n').sort());
    // The tree's paths, as the build in place lists them for a Python tree (its test files may be anywhere).
    const paths = (await repo.git('ls-tree', '-r', '--name-only', 'HEAD')).split('\n').filter(Boolean);
    const fromTree = checkPlanFor(await treeFiles(repo.gitDir, tree, read!.topLevel, paths), undefined, opts);
    expect(fromTree).toEqual(checkPlanFor(checkout, undefined, opts));
    expect(fromTree.steps.length + fromTree.skipped.length > 0).toBe(layout !== 'nothing to check');
  });

  test('a snapshot refuses a path the planner did not name', () => {
    const files = snapshotFiles(['a'], ['package.json'], new Map());
    expect(files.read('package.json')).toBeUndefined();
    expect(() => files.read('Makefile')).toThrow(UnplannedRepoPath);
  });
});
