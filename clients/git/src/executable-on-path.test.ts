import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { executableOnPath } from './executable-on-path';

describe('finding git on PATH without starting a process', () => {
  let tmp: string;
  /** A directory of PATH holding `git` as given: an executable, a plain file, a directory, or nothing. */
  const dirWith = (name: string, git: 'executable' | 'not executable' | 'directory' | 'none') => {
    const dir = path.join(tmp, name);
    mkdirSync(dir);
    const file = path.join(dir, 'git');
    if (git === 'executable') writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    if (git === 'not executable') writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 });
    if (git === 'directory') mkdirSync(file);
    return dir;
  };
  const searchPath = (...dirs: string[]) => dirs.join(path.delimiter);

  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-on-path-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds an executable git in a directory of PATH', () => {
    const bin = dirWith('bin', 'executable');
    expect(executableOnPath('git', searchPath(dirWith('empty', 'none'), bin))).toBe(path.join(bin, 'git'));
  });

  it('finds nothing when no directory of PATH has git', () => {
    expect(executableOnPath('git', searchPath(dirWith('a', 'none'), path.join(tmp, 'missing')))).toBeUndefined();
  });

  it('passes over a directory named git and a git file that may not be executed, as a spawn would', () => {
    const dirs = [dirWith('dir', 'directory'), dirWith('plain', 'not executable')];
    expect(executableOnPath('git', searchPath(...dirs))).toBeUndefined();
    const bin = dirWith('bin', 'executable');
    expect(executableOnPath('git', searchPath(...dirs, bin))).toBe(path.join(bin, 'git'));
  });

  it('takes the first directory of PATH that has it', () => {
    const [first, second] = [dirWith('first', 'executable'), dirWith('second', 'executable')];
    expect(executableOnPath('git', searchPath(first, second))).toBe(path.join(first, 'git'));
  });
});
