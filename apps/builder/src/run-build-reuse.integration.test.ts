// The build phase of a one-task request whose task already passed the same checks on the same tree: runBuild
// against the real git smart-HTTP server, with a check that fails whenever it runs.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { farm } from '@farm/proto';
import { remoteBranchSha, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { silentLogger } from '@farm/runtime';
import { runBuild } from './run-build';

const exec = promisify(execFile);
const B = farm.v1.BuildStatus;
/** Fails if it runs: a build that passes with it did not run it. */
const CHECK = 'echo the check ran >&2; exit 3';

let tmp: string;
let server: GitHttpServer;
let url: string;
let dir: string;
let baseCommit: string;
/** agt/t1's commit and its tree (what the task's checks passed on). */
let commit: string;
let tree: string;

const git = async (...args: string[]) =>
  (await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir })).stdout.trim();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'build-reuse-'));
  server = await startGitHttpServer({ root: path.join(tmp, 'git') });
  url = await server.createBareRepo('reuse.git');
  dir = path.join(tmp, 'work');
  await exec('git', ['init', '-q', '-b', 'main', dir]);
  await writeFile(path.join(dir, 'a.txt'), 'base\n');
  await git('add', '-A');
  await git('commit', '-qm', 'base');
  baseCommit = await git('rev-parse', 'HEAD');
  await git('push', '-q', url, 'main', 'main:farm/pr');
  await git('checkout', '-q', '-b', 'agt/t1');
  await writeFile(path.join(dir, 'a.txt'), 'changed\n');
  await git('commit', '-qam', 'task t1');
  commit = await git('rev-parse', 'HEAD');
  tree = await git('rev-parse', 'HEAD^{tree}');
  await git('push', '-q', url, 'agt/t1');
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

const passed = (run = CHECK, treeSha = tree): farm.v1.IVerification => ({
  checks: [{ name: 'check', run, ok: true }],
  treeSha,
});
const build = (id: string, verification: farm.v1.IVerification, more: Partial<farm.v1.IBuildRequest> = {}) =>
  runBuild(
    {
      changeRequestId: id,
      repo: { url, baseRef: 'main', baseCommit },
      branches: ['agt/t1'],
      commits: [commit],
      taskIds: ['t1'],
      verifications: [verification],
      checkCommand: CHECK,
      ...more,
    },
    { log: silentLogger, workRoot: path.join(tmp, 'builds') },
  );

test('a one-task build on the tree its task checked does not run the same checks again, and still pushes farm/<id>', async () => {
  const result = await build('cr-same', passed());
  expect(B[result.status!]).toBe('BUILD_PASSED');
  expect(result.notes).toEqual([`checks: ran by task t1 on tree ${tree} (${CHECK}), not run again`]);
  expect(result.commitSha).toBe(await remoteBranchSha(url, 'farm/cr-same'));
  await git('fetch', '-q', url, 'farm/cr-same');
  expect(await git('rev-parse', 'FETCH_HEAD^{tree}')).toBe(tree);
});

test('another tree, other commands, a skipped or missing check: the checks run', async () => {
  const otherTree = await git('rev-parse', `${baseCommit}^{tree}`);
  for (const [id, verification] of [
    ['cr-tree', passed(CHECK, otherTree)],
    ['cr-command', passed('npm test')],
    ['cr-skipped', { checks: [{ name: 'check', skipped: true, reason: 'not installed' }], treeSha: tree }],
    ['cr-none', {}],
  ] as [string, farm.v1.IVerification][]) {
    const result = await build(id, verification);
    expect([id, B[result.status!]]).toEqual([id, 'BUILD_FAILED']);
    expect(result.notes!.join('\n')).toMatch(/the check ran/);
  }
});

test('a follow-up onto a pull request branch that moved since its task ran: the checks run', async () => {
  await git('checkout', '-q', '-B', 'pr', 'main');
  await writeFile(path.join(dir, 'pr.txt'), 'moved\n');
  await git('add', '-A');
  await git('commit', '-qm', 'the pull request moved');
  await git('push', '-q', url, 'pr:farm/pr');
  const result = await build('cr-follow', passed(), { integrationBranch: 'farm/pr' });
  expect(B[result.status!]).toBe('BUILD_FAILED');
  expect(result.notes!.join('\n')).toMatch(/the check ran/);
});
