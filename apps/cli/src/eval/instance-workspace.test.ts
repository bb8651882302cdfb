import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInstances } from './instances';
import {
  applyPatch,
  applyTestPatch,
  baseBranchOf,
  repoCopyDir,
  repoSource,
  scratchCheckout,
  scratchDirOf,
} from './instance-workspace';

const instance = (over: Record<string, unknown> = {}) =>
  parseInstances(
    JSON.stringify({
      instance_id: 'acme__lib-1',
      repo: 'acme/lib',
      base_commit: 'abc1234',
      problem_statement: 'p',
      test_patch: 't',
      FAIL_TO_PASS: '["x"]',
      PASS_TO_PASS: '[]',
      ...over,
    }),
  )[0];

test('the repository: repo_path beside the dataset, then repo_url, then a URL or path in repo itself', () => {
  expect(repoSource(instance({ repo_path: 'lib.bundle', repo_url: 'https://x/y.git' }), '/data')).toBe(
    '/data/lib.bundle',
  );
  expect(repoSource(instance({ repo_url: 'https://git.example.com/lib.git' }), '/data')).toBe(
    'https://git.example.com/lib.git',
  );
  expect(repoSource(instance({ repo: 'file:///srv/lib.git' }), '/data')).toBe('file:///srv/lib.git');
  expect(repoSource(instance({ repo: './mirrors/lib' }), '/data')).toBe('/data/mirrors/lib');
});

test('then a local mirror named after the repository in the mirror directories, else GitHub', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-mirrors-'));
  try {
    expect(repoSource(instance(), '/data', [dir])).toBe('https://github.com/acme/lib.git');
    mkdirSync(path.join(dir, 'acme', 'lib.git'), { recursive: true });
    expect(repoSource(instance(), '/data', [dir])).toBe(path.join(dir, 'acme', 'lib.git'));
    writeFileSync(path.join(dir, 'acme__lib.bundle'), '');
    expect(repoSource(instance(), '/data', [dir])).toBe(path.join(dir, 'acme__lib.bundle'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A repository in a fresh temporary directory, with a file outside it that nothing may touch. */
function repoWithOutside(files: Record<string, string>, links: Record<string, string> = {}) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'eval-hostile-'));
  const outside = path.join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'keep.txt'), 'precious\n');
  const repo = path.join(root, 'repo');
  mkdirSync(repo);
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
  git('init', '-q');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  for (const [link, target] of Object.entries(links)) symlinkSync(target, path.join(repo, link));
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'base');
  return { root, outside, repo, base: git('rev-parse', 'HEAD'), scratch: path.join(root, 'scratch', 'inst') };
}

const newFile = (file: string, line = 'x') =>
  `diff --git a/${file} b/${file}\nnew file mode 100644\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1 @@\n+${line}\n`;

describe('the test patch never touches a byte outside the checkout', () => {
  test('through a symbolic link the repository holds: refused by git, the file the link points to intact', async () => {
    const r = repoWithOutside({ 'tests/test_a.py': 'a\n' }, { link: '../outside' });
    try {
      await scratchCheckout(r.repo, r.base, r.scratch);
      await expect(applyTestPatch(r.scratch, r.base, newFile('link/keep.txt'))).rejects.toThrow(
        /^the test patch does not apply: .*beyond a symbolic link/,
      );
      expect(readFileSync(path.join(r.outside, 'keep.txt'), 'utf8')).toBe('precious\n');
      // an absolute link, and the model patch through the link, the same
      symlinkSync(r.outside, path.join(r.scratch, 'abs'));
      await expect(applyTestPatch(r.scratch, r.base, newFile('abs/keep.txt'))).rejects.toThrow(/does not apply/);
      await expect(applyPatch(r.scratch, newFile('link/keep.txt'), 'model patch')).rejects.toThrow(
        /^the model patch does not apply/,
      );
      expect(readFileSync(path.join(r.outside, 'keep.txt'), 'utf8')).toBe('precious\n');
    } finally {
      rmSync(r.root, { recursive: true, force: true });
    }
  });

  test('a path out of the checkout or into .git/ is refused before anything is touched', async () => {
    const r = repoWithOutside({ 'tests/test_a.py': 'a\n' });
    try {
      await scratchCheckout(r.repo, r.base, r.scratch);
      const beside = path.join(path.dirname(r.scratch), 'beside.txt');
      writeFileSync(beside, 'precious\n');
      writeFileSync(path.join(r.scratch, 'tests', 'test_a.py'), 'changed by the model\n');
      for (const [file, named] of [
        ['../beside.txt', '"../beside.txt"'],
        ['tests/../../beside.txt', '"tests/../../beside.txt"'],
        ['.git/config', '".git/config"'],
      ]) {
        await expect(applyTestPatch(r.scratch, r.base, newFile('tests/test_a.py') + newFile(file))).rejects.toThrow(
          `the test patch names ${named}: a path outside the checkout or in .git/`,
        );
      }
      expect(readFileSync(beside, 'utf8')).toBe('precious\n');
      expect(readFileSync(path.join(r.scratch, '.git', 'config'), 'utf8')).toContain('[core]');
      // refused before the restore: the model's edit is still there
      expect(readFileSync(path.join(r.scratch, 'tests', 'test_a.py'), 'utf8')).toBe('changed by the model\n');
    } finally {
      rmSync(r.root, { recursive: true, force: true });
    }
  });

  test("the files it touches go back to the base first: the change's edit undone, its new file removed", async () => {
    const r = repoWithOutside({ 'tests/test_a.py': 'a\n', 'lib.py': 'v1\n' });
    try {
      await scratchCheckout(r.repo, r.base, r.scratch);
      writeFileSync(path.join(r.scratch, 'lib.py'), 'v2\n'); // the change itself: kept
      writeFileSync(path.join(r.scratch, 'tests', 'test_a.py'), 'edited by the change\n');
      writeFileSync(path.join(r.scratch, 'tests', 'test_new.py'), 'written by the change\n');
      const patch =
        'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n' +
        '@@ -1 +1 @@\n-a\n+b\n' +
        newFile('tests/test_new.py', 'new');
      await applyTestPatch(r.scratch, r.base, patch);
      expect(readFileSync(path.join(r.scratch, 'tests', 'test_a.py'), 'utf8')).toBe('b\n');
      expect(readFileSync(path.join(r.scratch, 'tests', 'test_new.py'), 'utf8')).toBe('new\n');
      expect(readFileSync(path.join(r.scratch, 'lib.py'), 'utf8')).toBe('v2\n');
      expect(existsSync(path.join(r.scratch, '.git', 'farm-eval-test-patch.patch'))).toBe(false);
    } finally {
      rmSync(r.root, { recursive: true, force: true });
    }
  });
});

test("what an instance names is a directory strictly inside the run's, or the instance's error", () => {
  const inside = (dir: string, root: string) => expect(path.dirname(dir)).toBe(root);
  expect(repoCopyDir(instance(), '/run/repos')).toBe('/run/repos/acme__lib');
  expect(scratchDirOf(instance(), '/run/scratch')).toBe('/run/scratch/acme__lib-1');
  expect(baseBranchOf(instance())).toBe('eval-base/acme__lib-1');
  for (const repo of ['/srv/git/lib.git', '../../lib', 'a/../..', 'x'.repeat(10_000), 'lib.lock']) {
    inside(repoCopyDir(instance({ repo }), '/run/repos'), '/run/repos');
  }
  for (const repo of ['..', '.', '/', '../..']) {
    expect(() => repoCopyDir(instance({ repo }), '/run/repos')).toThrow(
      `repo ${JSON.stringify(repo)} names no repository`,
    );
  }
  // ids that differ stay apart, even where their characters are replaced; each is a valid git branch name
  const ids = ['a/b', 'a_b', '/etc/passwd', 'x..y', 'a.lock', '-rf', 'ü'];
  const dirs = ids.map((instance_id) => scratchDirOf(instance({ instance_id }), '/run/scratch'));
  for (const dir of dirs) inside(dir, '/run/scratch');
  expect(new Set(dirs).size).toBe(ids.length);
  for (const instance_id of ids) {
    execFileSync('git', ['check-ref-format', `refs/heads/${baseBranchOf(instance({ instance_id }))}`]);
  }
  expect(() => scratchDirOf(instance({ instance_id: '..' }), '/run/scratch')).toThrow(
    'instance_id ".." cannot name the instance\'s checkout',
  );
});
