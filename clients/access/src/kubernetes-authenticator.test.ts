// The authenticator's decisions and its cache, against an in-memory API server (RBAC as a table of grants);
// the integration test runs the same against the real kube-apiserver.
import { ConfigError } from '@farm/runtime';
import {
  KubernetesAuthenticator,
  KubernetesReviewFailed,
  type KubernetesReviews,
  type KubernetesUser,
} from './kubernetes-authenticator';
import { kubernetesAuthConfigSchema, kubernetesAuthenticatorFromEnv } from './kubernetes-auth-config';
import { loadConfig } from '@farm/runtime';

/** Tokens map to users; grants map a user or group to the verbs it holds on changerequests.farm.dev. */
function fakeApiServer(users: Record<string, KubernetesUser>, grants: Record<string, string[]>) {
  const calls = { tokens: 0, access: [] as string[] };
  const down = { now: false };
  const reviews: KubernetesReviews = {
    async reviewToken(token) {
      calls.tokens++;
      if (down.now) throw new KubernetesReviewFailed('TokenReview failed: connection refused', { retryable: true });
      return users[token] ? { user: users[token] } : { reason: 'invalid bearer token' };
    },
    async reviewAccess(user, { verb }) {
      calls.access.push(`${user.username}:${verb}`);
      const held = [user.username, ...user.groups].flatMap((who) => grants[who] ?? []);
      return held.includes(verb) || held.includes('*');
    },
  };
  return { reviews, calls, down };
}

const ciBot: KubernetesUser = { username: 'system:serviceaccount:ci:bot', groups: ['system:serviceaccounts:ci'] };
const operator: KubernetesUser = { username: 'alice', groups: ['platform-admins'] };

describe('KubernetesAuthenticator', () => {
  it('names the user as the subject, authenticated via kubernetes, with scopes decided per request', async () => {
    const { reviews } = fakeApiServer({ t1: ciBot }, {});
    const principal = await new KubernetesAuthenticator(reviews).authenticate('t1');
    expect(principal).toMatchObject({ subject: 'system:serviceaccount:ci:bot', via: 'kubernetes' });
    expect(principal!.scopes).toBeUndefined();
    expect(await new KubernetesAuthenticator(reviews).authenticate('nope')).toBeUndefined();
  });

  it('maps scopes to verbs on changerequests.farm.dev, a group grant counting for its members', async () => {
    const { reviews } = fakeApiServer({ t1: ciBot }, { 'system:serviceaccounts:ci': ['get', 'create'] });
    const auth = new KubernetesAuthenticator(reviews);
    const p = (await auth.authenticate('t1'))!;
    expect(await auth.allows(p, 'read')).toBe(true);
    expect(await auth.allows(p, 'submit')).toBe(true);
    expect(await auth.allows(p, 'cancel')).toBe(false);
    expect(await auth.allows(p, 'admin')).toBe(false);
  });

  it('gives every scope to a holder of the admin verb or of *', async () => {
    const { reviews } = fakeApiServer(
      { a: operator, b: ciBot },
      { 'platform-admins': ['admin'], [ciBot.username]: ['*'] },
    );
    const auth = new KubernetesAuthenticator(reviews);
    for (const token of ['a', 'b']) {
      const p = (await auth.authenticate(token))!;
      for (const scope of ['read', 'submit', 'cancel', 'admin'] as const)
        expect(await auth.allows(p, scope)).toBe(true);
    }
  });

  it('does not decide for principals it did not authenticate', async () => {
    const { reviews, calls } = fakeApiServer({}, { 'token:ci': ['*'] });
    const auth = new KubernetesAuthenticator(reviews);
    expect(await auth.allows({ subject: 'token:ci', via: 'token', scopes: ['read'] }, 'read')).toBe(false);
    expect(calls.access).toEqual([]);
  });

  it('reuses answers for the TTL, then asks again', async () => {
    let now = 1000; // lru-cache takes a start time of 0 as "no TTL"
    const { reviews, calls } = fakeApiServer({ t1: ciBot }, { [ciBot.username]: ['get'] });
    const auth = new KubernetesAuthenticator(reviews, { cacheTtlMs: 10_000, clock: { now: () => now } });
    const first = await Promise.all([auth.authenticate('t1'), auth.authenticate('t1'), auth.authenticate('t1')]);
    await auth.authenticate('bad');
    await auth.authenticate('bad');
    for (let i = 0; i < 5; i++) await auth.allows(first[0]!, 'read');
    expect(calls.tokens).toBe(2); // one per token, concurrent asks joined, a refusal remembered too
    expect(calls.access).toEqual([`${ciBot.username}:get`]);
    now += 10_001;
    await auth.authenticate('t1');
    await auth.allows(first[0]!, 'read');
    expect(calls.tokens).toBe(3);
    expect(calls.access).toHaveLength(2);
  });

  it('keeps at most cacheMaxEntries tokens, forgetting the least recently used', async () => {
    const users = Object.fromEntries(['a', 'b', 'c'].map((t) => [t, { username: t, groups: [] }]));
    const { reviews, calls } = fakeApiServer(users, {});
    const auth = new KubernetesAuthenticator(reviews, { cacheMaxEntries: 2 });
    for (const t of ['a', 'b', 'c', 'c', 'b']) await auth.authenticate(t);
    expect(calls.tokens).toBe(3);
    await auth.authenticate('a'); // evicted by c
    expect(calls.tokens).toBe(4);
  });

  it('does not remember a failed review: the caller sees the error, the next call asks again', async () => {
    const { reviews, calls, down } = fakeApiServer({ t1: ciBot }, {});
    const auth = new KubernetesAuthenticator(reviews);
    down.now = true;
    await expect(auth.authenticate('t1')).rejects.toMatchObject({ name: 'KubernetesReviewFailed', retryable: true });
    down.now = false;
    expect(await auth.authenticate('t1')).toMatchObject({ subject: ciBot.username });
    expect(calls.tokens).toBe(2);
  });
});

describe('kubernetes auth configuration', () => {
  it('is off unless FARM_AUTH_KUBERNETES=true', () => {
    expect(kubernetesAuthenticatorFromEnv({})).toBeUndefined();
    expect(kubernetesAuthenticatorFromEnv({ FARM_AUTH_KUBERNETES: 'false' })).toBeUndefined();
  });

  it('reads audiences as a list and refuses a malformed setting, naming it', () => {
    const config = loadConfig(kubernetesAuthConfigSchema, {
      FARM_AUTH_KUBERNETES: 'true',
      FARM_AUTH_KUBERNETES_AUDIENCES: 'agent-farm, https://farm.example.com',
    });
    expect(config).toMatchObject({
      FARM_AUTH_KUBERNETES: true,
      FARM_AUTH_KUBERNETES_AUDIENCES: ['agent-farm', 'https://farm.example.com'],
      FARM_AUTH_KUBERNETES_CACHE_SECONDS: 10,
    });
    expect(() => kubernetesAuthenticatorFromEnv({ FARM_AUTH_KUBERNETES: 'yes' })).toThrow(ConfigError);
    expect(() =>
      kubernetesAuthenticatorFromEnv({ FARM_AUTH_KUBERNETES: 'true', FARM_AUTH_KUBERNETES_NAMESPACE: 'Team_A' }),
    ).toThrow(/FARM_AUTH_KUBERNETES_NAMESPACE/);
  });
});
