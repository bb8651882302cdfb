// `farm up` in one shell and `farm submit --repo .` in the user's repository must find the same farm: the state
// directory (and the admin token in it) is the checkout's own by default, never the current directory's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FARM_ROOT, loadConfig, stateLayout } from '@farm/runtime';
import { cliConfigSchema, DEFAULT_FARM_URL } from './config';
import { cliApiUrl } from './farm-api-client';
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

describe("the farm's URL", () => {
  it('is FARM_URL, else the one the farm up on the state directory wrote (any port), else the default', () => {
    const state = path.join(elsewhere, 'state');
    mkdirSync(state);
    const config = (env: Record<string, string>) => loadConfig(cliConfigSchema, { FARM_STATE_DIR: state, ...env });
    expect(cliApiUrl(config({}))).toBe(DEFAULT_FARM_URL);
    writeFileSync(stateLayout(state).apiUrl, 'http://127.0.0.1:19464\n');
    expect(cliApiUrl(config({}))).toBe('http://127.0.0.1:19464');
    expect(cliApiUrl(config({ FARM_URL: 'http://farm.example:8080' }))).toBe('http://farm.example:8080');
    writeFileSync(stateLayout(state).apiUrl, 'garbage\n'); // not a URL: as if none were written
    expect(cliApiUrl(config({}))).toBe(DEFAULT_FARM_URL);
  });

  it('farm up says at every start how to reach it, the second time without a new token', () => {
    const again = tokenNotice('http://127.0.0.1:19464', '/s/admin-token', false);
    expect(again).not.toContain('was created');
    expect(again).toContain('Its admin token is kept in /s/admin-token');
    expect(again).toContain(`${path.join(FARM_ROOT, 'farm')} submit --repo . --title "<what to change>" --watch`);
    expect(again).toContain('export FARM_URL=http://127.0.0.1:19464 FARM_TOKEN=$(cat /s/admin-token)');
    // On another state directory (the demo's), the command says which.
    expect(tokenNotice('http://127.0.0.1:9464', '/d/state/admin-token', true, '/d/state')).toContain(
      `from any directory: FARM_STATE_DIR=/d/state ${path.join(FARM_ROOT, 'farm')} submit`,
    );
  });
});
