// Token lifetimes under the operator's rule (FARM_TOKEN_TTL_S, FARM_TOKEN_MAX_TTL_S), on the real token store (PGlite).
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { InvalidTokenRequest, TokenStore, tokenLifetime } from './token-store';

let store: SqlStore;
beforeAll(async () => (store = await testPgliteStore()));
afterAll(() => store.close());

const lifetimeS = (t: { createdAt: string; expiresAt?: string }) =>
  t.expiresAt === undefined ? undefined : (Date.parse(t.expiresAt) - Date.parse(t.createdAt)) / 1000;

test('a token asks its lifetime within the maximum; without one it gets the default, else the maximum', async () => {
  const tokens = await TokenStore.open(store, { defaultSeconds: 3600, maxSeconds: 86_400 });
  expect(lifetimeS(await tokens.create({ name: 'a', scopes: ['read'], expiresInSeconds: 600 }, 'admin'))).toBe(600);
  expect(lifetimeS(await tokens.create({ name: 'b', scopes: ['read'] }, 'admin'))).toBe(3600);
  const capped = await TokenStore.open(store, { maxSeconds: 7200 });
  expect(lifetimeS(await capped.create({ name: 'c', scopes: ['read'] }, 'admin'))).toBe(7200);
  const refused = await capped.create({ name: 'd', scopes: ['read'], expiresInSeconds: 7201 }, 'admin').catch((e) => e);
  expect(refused).toBeInstanceOf(InvalidTokenRequest);
  expect(refused).toMatchObject({ field: 'expiresInSeconds', message: expect.stringMatching(/FARM_TOKEN_MAX_TTL_S/) });
  // The farm's first admin token is its operator's way in: no default locks them out.
  expect(lifetimeS(await capped.create({ name: 'e', scopes: ['admin'] }, 'farm-up', { untilRevoked: true }))).toBe(
    undefined,
  );
  // Without a rule, a token lives until revoked.
  const open = await TokenStore.open(store);
  expect(lifetimeS(await open.create({ name: 'f', scopes: ['read'] }, 'admin'))).toBe(undefined);
});

test('an expired token is refused, as a revoked one is; its audit names the expiry', async () => {
  const tokens = await TokenStore.open(store);
  const made = await tokens.create({ name: 'g', scopes: ['read'], expiresInSeconds: 60 }, 'admin');
  expect(await tokens.verify(made.token)).toMatchObject({ name: 'g', expiresAt: made.expiresAt });
  await store.query(`UPDATE farm_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [made.id]);
  expect(await tokens.verify(made.token)).toBeUndefined();
  const { rows } = await store.query<{ detail: { expiresAt?: string } }>(
    `SELECT detail FROM farm_audit_events WHERE action = 'token.create' AND detail->>'tokenId' = $1`,
    [made.id],
  );
  expect(rows[0].detail.expiresAt).toBe(made.expiresAt);
});

test.each([[0], [59], [1.5], ['3600'], [-1]])('a lifetime of %j is refused', (requested) => {
  expect(() => tokenLifetime(requested)).toThrow(/at least 60/);
});

test('a scope list longer than the scopes there are is refused, as the API document says (maxItems 5)', async () => {
  const tokens = await TokenStore.open(store);
  const refused = await tokens
    .create({ name: 'h', scopes: ['read', 'read', 'submit', 'cancel', 'approve', 'admin'] }, 'admin')
    .catch((e) => e);
  expect(refused).toMatchObject({ field: 'scopes', message: expect.stringMatching(/each at most once/) });
});
