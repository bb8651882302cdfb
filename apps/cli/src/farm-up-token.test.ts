import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TokenStore, TokenAuthenticator } from '@farm/access';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { ensureComponentToken, ensureFarmUpToken, tokenNotice } from './farm-up-token';

let store: SqlStore;
let tokens: TokenStore;
let dir: string;
beforeAll(async () => {
  store = await testPgliteStore();
  tokens = await TokenStore.open(store);
  dir = mkdtempSync(path.join(os.tmpdir(), 'farm-up-token-'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("farm up's admin token", () => {
  test('is created at the first start into a file only the user reads, and kept across restarts', async () => {
    const file = path.join(dir, 'admin-token');
    const first = await ensureFarmUpToken(tokens, file);
    expect(first.created).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.token);
    expect(await new TokenAuthenticator(tokens).authenticate(first.token)).toMatchObject({
      subject: 'token:farm-up-admin',
      scopes: ['admin'],
    });
    expect(await ensureFarmUpToken(tokens, file)).toEqual({ token: first.token, created: false });
  });

  test('a lost or revoked file is replaced with a new token, and the old one is revoked', async () => {
    const file = path.join(dir, 'admin-token');
    const before = readFileSync(file, 'utf8').trim();
    writeFileSync(file, 'farm_edited-by-hand\n');
    const after = await ensureFarmUpToken(tokens, file);
    expect(after.created).toBe(true);
    expect(after.token).not.toBe(before);
    expect(await new TokenAuthenticator(tokens).authenticate(before)).toBeUndefined();
  });

  test('the notice says where the API is and how to use the token, without printing it', () => {
    const notice = tokenNotice('http://127.0.0.1:9464', '/s/admin-token');
    expect(notice).toContain('http://127.0.0.1:9464');
    expect(notice).toContain('export FARM_URL=http://127.0.0.1:9464 FARM_TOKEN=$(cat /s/admin-token)');
  });

  test('the component token is the given one, else generated once and kept', () => {
    const file = path.join(dir, 'component-token');
    expect(ensureComponentToken(file, 'farm_given')).toBe('farm_given');
    const generated = ensureComponentToken(file, undefined);
    expect(generated).toMatch(/^farm_/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureComponentToken(file, undefined)).toBe(generated);
  });
});
