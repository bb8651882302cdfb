import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '@farm/runtime';
import { resolveRepoArg } from './repo-arg';

const exec = promisify(execFile);

describe('--repo as a user gives it', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'farm-repo-arg-')));
    await exec('git', ['init', '-q', '-b', 'feature', path.join(tmp, 'app')]);
    await exec('git', [
      '-C',
      path.join(tmp, 'app'),
      '-c',
      'user.name=u',
      '-c',
      'user.email=u@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'c',
    ]);
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('keeps a clone URL, with main as the default base', async () => {
    expect(await resolveRepoArg('https://git.example.com/app.git')).toEqual({
      repoUrl: 'https://git.example.com/app.git',
      baseRef: 'main',
    });
  });

  it('turns a directory inside a repository into its top level, based on the checked-out branch', async () => {
    const cwd = process.cwd();
    process.chdir(path.join(tmp, 'app'));
    try {
      expect(await resolveRepoArg('.')).toEqual({ repoUrl: path.join(tmp, 'app'), baseRef: 'feature' });
      expect(await resolveRepoArg('.', 'v1')).toEqual({ repoUrl: path.join(tmp, 'app'), baseRef: 'v1' });
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses a missing directory and one that is not a repository, naming it', async () => {
    await expect(resolveRepoArg(path.join(tmp, 'nope'))).rejects.toThrow(ConfigError);
    await expect(resolveRepoArg(tmp)).rejects.toThrow(/is not a git repository/);
  });
});
