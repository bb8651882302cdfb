import { randomUUID } from 'node:crypto';
import { createPgStore, createPgliteStore, type SqlStore } from '@farm/store';
import { queryAudit } from './audit-log';
import { decideAccess } from './scope-decision';
import { InvalidTokenRequest, TokenAuthenticator, TokenNameTaken, TokenNotFound, TokenStore } from './token-store';

const scenarios = (name: string, open: () => Promise<SqlStore>) =>
  describe(name, () => {
    let store: SqlStore;
    let tokens: TokenStore;
    // The PostgreSQL database is shared: names unique to this run.
    const run = randomUUID().slice(0, 8);
    beforeAll(async () => {
      store = await open();
      tokens = await TokenStore.open(store);
      await TokenStore.open(store); // a second start-up migrates nothing
    });
    afterAll(() => store.close());

    test('a token is random, kept only as a hash, and authenticates as its name with its scopes', async () => {
      const created = await tokens.create({ name: `ci-${run}`, scopes: ['submit', 'read', 'read'] }, 'token:admin');
      expect(created.token).toMatch(/^farm_[A-Za-z0-9_-]{43}$/);
      expect(created).toMatchObject({ name: `ci-${run}`, scopes: ['read', 'submit'], createdBy: 'token:admin' });
      const stored = await store.query('SELECT * FROM farm_access_tokens WHERE id = $1', [created.id]);
      expect(JSON.stringify(stored.rows)).not.toContain(created.token);

      const auth = new TokenAuthenticator(tokens);
      expect(await auth.authenticate(created.token)).toEqual({
        subject: `token:ci-${run}`,
        via: 'token',
        scopes: ['read', 'submit'],
      });
      expect(await auth.authenticate(created.token.slice(0, -1) + 'x')).toBeUndefined();
      expect(await auth.authenticate('not-a-farm-token')).toBeUndefined();
      const listed = (await tokens.list()).find((t) => t.id === created.id);
      expect(listed?.lastUsedAt).toBeDefined();
      expect(listed).not.toHaveProperty('token');
    });

    test('a read token may read but not submit; admin may do everything; none or a wrong one is a 401', async () => {
      const reader = await tokens.create({ name: `reader-${run}`, scopes: ['read'] }, 'token:admin');
      const admin = await tokens.create({ name: `admin-${run}`, scopes: ['admin'] }, 'token:admin');
      const auth = new TokenAuthenticator(tokens);
      expect(await decideAccess(auth, `Bearer ${reader.token}`, 'read')).toEqual({
        principal: expect.objectContaining({ subject: `token:reader-${run}` }),
      });
      const refused = await decideAccess(auth, `Bearer ${reader.token}`, 'submit');
      expect(refused).toMatchObject({ deny: 403, message: expect.stringContaining('submit scope') });
      expect(await decideAccess(auth, `Bearer ${admin.token}`, 'cancel')).toHaveProperty('principal');
      expect(await decideAccess(auth, undefined, 'read')).toMatchObject({ deny: 401 });
      const wrong = await decideAccess(auth, 'Bearer farm_nope', 'read');
      expect(wrong).toMatchObject({ deny: 401, headers: { 'www-authenticate': expect.stringMatching(/^Bearer /) } });
      expect(JSON.stringify(wrong)).not.toContain('farm_nope');
    });

    test('a revoked token is refused from the next request on, and its name can be given again', async () => {
      const auth = new TokenAuthenticator(tokens);
      const first = await tokens.create({ name: `bot-${run}`, scopes: ['read'] }, 'token:admin');
      expect(await auth.authenticate(first.token)).toBeDefined();
      await expect(tokens.create({ name: `bot-${run}`, scopes: ['read'] }, 'token:admin')).rejects.toThrow(
        TokenNameTaken,
      );
      const revoked = await tokens.revoke(`bot-${run}`, 'token:admin');
      expect(revoked).toMatchObject({ id: first.id, revokedBy: 'token:admin', revokedAt: expect.any(String) });
      expect(await auth.authenticate(first.token)).toBeUndefined();
      await expect(tokens.revoke(first.id, 'token:admin')).rejects.toThrow(TokenNotFound);
      const again = await tokens.create({ name: `bot-${run}`, scopes: ['read'] }, 'token:admin');
      expect((await tokens.list()).map((t) => t.id)).toContain(again.id);
      expect((await tokens.list()).map((t) => t.id)).not.toContain(first.id);
      expect((await tokens.list({ includeRevoked: true })).map((t) => t.id)).toContain(first.id);
    });

    test('bad names and scopes are refused, naming the field', async () => {
      await expect(tokens.create({ name: 'has space', scopes: ['read'] }, 'x')).rejects.toMatchObject({
        field: 'name',
      });
      await expect(tokens.create({ name: `s-${run}`, scopes: ['read', 'root'] }, 'x')).rejects.toThrow(/unknown root/);
      await expect(tokens.create({ name: `s-${run}`, scopes: [] }, 'x')).rejects.toBeInstanceOf(InvalidTokenRequest);
    });

    test('the audit holds who created and revoked which token, newest first, without the secret', async () => {
      const made = await tokens.create({ name: `audited-${run}`, scopes: ['cancel'] }, `token:boss-${run}`);
      await tokens.revoke(made.id, `token:boss-${run}`);
      const events = await queryAudit(store, { subject: `token:boss-${run}` });
      expect(events.map((e) => [e.action, e.detail.tokenId, e.detail.name])).toEqual([
        ['token.revoke', made.id, `audited-${run}`],
        ['token.create', made.id, `audited-${run}`],
      ]);
      expect(JSON.stringify(events)).not.toContain(made.token);
      expect(await queryAudit(store, { subject: `token:boss-${run}`, action: 'token.create' })).toHaveLength(1);
      expect(await queryAudit(store, { subject: `token:boss-${run}`, before: events[0].id })).toEqual([events[1]]);
    });
  });

scenarios('tokens on PGlite (one machine)', () => createPgliteStore());
scenarios('tokens on PostgreSQL (integration, real server)', async () => createPgStore(process.env.DATABASE_URL!));
