// `farm up` in one shell and `farm submit --repo .` in the user's repository must find the same farm: the state
// directory (and the admin token in it) is the checkout's own by default, never the current directory's.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FARM_ROOT, loadConfig, stateLayout } from '@farm/runtime';
import { cliConfigSchema } from './config';
import { farmUpConfigSchema } from './farm-up';
import { tokenNotice } from './farm-up-token';

const cwd = process.cwd();
let elsewhere: string;
beforeEach(() => {
  elsewhere = mkdtempSync(path.join(os.tmpdir(), 'users-repo-'));
  process.chdir(elsewhere); // as from the user's repository
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('the default state directory', () => {
  it("is the checkout's .farm/state for the CLI and farm up alike, from any directory", () => {
    const expected = path.join(FARM_ROOT, '.farm', 'state');
    expect(loadConfig(cliConfigSchema, {}).FARM_STATE_DIR).toBe(expected);
    expect(loadConfig(farmUpConfigSchema, {}).FARM_STATE_DIR).toBe(expected);
    expect(expected.startsWith(elsewhere)).toBe(false);
  });

  it('is made absolute when given relative to farm up, so what it prints works from another directory', () => {
    const config = loadConfig(farmUpConfigSchema, { FARM_STATE_DIR: 'mine/state' });
    expect(config.FARM_STATE_DIR).toBe(path.join(elsewhere, 'mine', 'state'));
    const notice = tokenNotice('http://127.0.0.1:9464', stateLayout(config.FARM_STATE_DIR).adminToken);
    expect(notice).toContain(`FARM_TOKEN=$(cat ${path.join(elsewhere, 'mine', 'state', 'admin-token')})`);
  });
});
