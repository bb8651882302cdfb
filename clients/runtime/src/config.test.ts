import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWritableDir } from './config';
import { ConfigError } from './errors';

describe('a state directory named by a setting', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-state-dir-test-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('is made at start-up when it is missing', () => {
    const dir = path.join(tmp, 'a', 'b');
    ensureWritableDir(dir, 'FARM_X_DIR', 'set FARM_X_DIR elsewhere');
    expect(existsSync(dir)).toBe(true);
  });

  it('that cannot be made stops start-up naming the setting, the place and what else would do', () => {
    writeFileSync(path.join(tmp, 'file'), 'not a directory');
    const dir = path.join(tmp, 'file', 'state');
    expect(() => ensureWritableDir(dir, 'FARM_X_DIR', 'set DATABASE_URL instead')).toThrow(ConfigError);
    expect(() => ensureWritableDir(dir, 'FARM_X_DIR', 'set DATABASE_URL instead')).toThrow(
      `FARM_X_DIR: cannot write ${dir} (ENOTDIR): set DATABASE_URL instead`,
    );
  });
});
