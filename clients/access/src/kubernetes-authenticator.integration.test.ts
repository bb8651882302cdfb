/** @farm-kubernetes (waits for the test cluster; run last) */
// Kubernetes identities on the real kube-apiserver the jest global set-up starts (token auth, RBAC): the farm
// asks as its own ServiceAccount, bound to system:auth-delegator; callers are ServiceAccounts with tokens from
// the TokenRequest API, granted (or not) verbs on changerequests.farm.dev with ordinary Roles and RoleBindings.
import {
  CoreV1Api,
  RbacAuthorizationV1Api,
  type KubeConfig,
  type V1PolicyRule,
  type RbacV1Subject as V1Subject,
} from '@kubernetes/client-node';
import {
  KubernetesAuthenticator,
  KubernetesReviewFailed,
  type KubernetesReviews,
  type KubernetesUser,
} from './kubernetes-authenticator';
import { apiServerReviews } from './kubernetes-reviews';
import { kubernetesAuthenticatorFromEnv } from './kubernetes-auth-config';
import {
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  serviceAccountKubeConfig,
} from '../../../apps/orchestrator/testing/kubernetes-test-cluster';

const admin = adminKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
const CHANGE_REQUESTS = { apiGroups: ['farm.dev'], resources: ['changerequests'] };
let ns: string; // the farm's namespace: grants are RoleBindings here
let team: string; // another team's namespace, whose ServiceAccounts are granted as a group
let farm: KubeConfig; // the farm's ServiceAccount (system:auth-delegator)
const clusterBindings: string[] = [];

beforeAll(async () => {
  ns = await createTestNamespace(admin, 'kauth');
  team = await createTestNamespace(admin, 'kauth-team');
  farm = await farmServiceAccount('farm-orchestrator', { delegator: true });
  await grant('submitters', ['get', 'list', 'watch', 'create'], [serviceAccount(ns, 'ci-bot')]);
  await grant('readers', ['get', 'list', 'watch'], [{ kind: 'Group', name: `system:serviceaccounts:${team}` }]);
  await grant('operators', ['*'], [serviceAccount(ns, 'ops')]);
  await grant('approvers', ['get', 'list', 'watch', 'approve'], [serviceAccount(ns, 'lead')]);
  for (const sa of ['ci-bot', 'stranger', 'ops', 'gone', 'lead']) await createServiceAccount(ns, sa);
  await createServiceAccount(team, 'dev');
});

afterAll(async () => {
  for (const name of clusterBindings) await rbac.deleteClusterRoleBinding(name).catch(() => undefined);
  await deleteTestNamespace(admin, ns);
  await deleteTestNamespace(admin, team);
});

describe('Kubernetes identities on the real API server', () => {
  it('lets a ServiceAccount granted create on changerequests.farm.dev submit, and not cancel', async () => {
    const auth = authenticator();
    const principal = await auth.authenticate(await tokenFor(ns, 'ci-bot'));
    expect(principal).toMatchObject({ subject: `system:serviceaccount:${ns}:ci-bot`, via: 'kubernetes' });
    expect(principal!.scopes).toBeUndefined();
    expect(await auth.allows(principal!, 'submit')).toBe(true);
    expect(await auth.allows(principal!, 'read')).toBe(true);
    expect(await auth.allows(principal!, 'cancel')).toBe(false);
    expect(await auth.allows(principal!, 'approve')).toBe(false); // submitting a plan is not approving one
    expect(await auth.allows(principal!, 'admin')).toBe(false);
  });

  it('lets a ServiceAccount granted the approve verb approve plans (and read), not submit', async () => {
    const auth = authenticator();
    const principal = (await auth.authenticate(await tokenFor(ns, 'lead')))!;
    expect(await auth.allows(principal, 'approve')).toBe(true);
    expect(await auth.allows(principal, 'read')).toBe(true);
    expect(await auth.allows(principal, 'submit')).toBe(false);
    expect(await auth.allows(principal, 'admin')).toBe(false);
  });

  it('authenticates a ServiceAccount without a grant but lets it do nothing', async () => {
    const auth = authenticator();
    const principal = await auth.authenticate(await tokenFor(ns, 'stranger'));
    expect(principal?.subject).toBe(`system:serviceaccount:${ns}:stranger`);
    for (const scope of ['read', 'submit', 'cancel', 'approve', 'admin'] as const)
      expect(await auth.allows(principal!, scope)).toBe(false);
  });

  it("counts a grant to a group for its members (another team's ServiceAccounts may read)", async () => {
    const auth = authenticator();
    const principal = await auth.authenticate(await tokenFor(team, 'dev'));
    expect(principal?.subject).toBe(`system:serviceaccount:${team}:dev`);
    expect(await auth.allows(principal!, 'read')).toBe(true);
    expect(await auth.allows(principal!, 'submit')).toBe(false);
  });

  it('gives every scope to a holder of verb *', async () => {
    const auth = authenticator();
    const principal = (await auth.authenticate(await tokenFor(ns, 'ops')))!;
    for (const scope of ['read', 'submit', 'cancel', 'approve', 'admin'] as const)
      expect(await auth.allows(principal, scope)).toBe(true);
  });

  it('does not authenticate a made-up, tampered or orphaned token', async () => {
    const auth = authenticator();
    expect(await auth.authenticate('not-a-token')).toBeUndefined();
    const token = await tokenFor(ns, 'ci-bot');
    const [header, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    claims.sub = `system:serviceaccount:${ns}:ops`; // the signature no longer matches
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${token.split('.')[2]}`;
    expect(await auth.authenticate(forged)).toBeUndefined();
    // A bound token dies with its ServiceAccount.
    const orphan = await tokenFor(ns, 'gone');
    await core.deleteNamespacedServiceAccount('gone', ns);
    expect(await auth.authenticate(orphan)).toBeUndefined();
  });

  it('refuses a token for another audience when the farm names its own', async () => {
    const auth = authenticator({ audiences: ['agent-farm'] });
    expect(await auth.authenticate(await tokenFor(ns, 'ci-bot', ['agent-farm']))).toMatchObject({
      subject: `system:serviceaccount:${ns}:ci-bot`,
    });
    expect(await auth.authenticate(await tokenFor(ns, 'ci-bot'))).toBeUndefined();
  });

  it('asks the API server once per token and decision while the answer is fresh', async () => {
    const calls = { tokens: 0, access: 0 };
    const real = apiServerReviews(farm);
    const counted: KubernetesReviews = {
      reviewToken: (t, a) => (calls.tokens++, real.reviewToken(t, a)),
      reviewAccess: (u: KubernetesUser, c) => (calls.access++, real.reviewAccess(u, c)),
    };
    const auth = new KubernetesAuthenticator(counted, { namespace: ns });
    const token = await tokenFor(ns, 'ci-bot');
    // An SSE client reconnecting and a console polling the list: many asks, one review each.
    const principals = await Promise.all(Array.from({ length: 10 }, () => auth.authenticate(token)));
    for (const p of principals) expect(await auth.allows(p!, 'read')).toBe(true);
    expect(calls).toEqual({ tokens: 1, access: 1 });
  });

  it('fails loudly, not as 401, when the farm itself may not review tokens', async () => {
    const unprivileged = await farmServiceAccount('farm-without-delegation', { delegator: false });
    const auth = new KubernetesAuthenticator(apiServerReviews(unprivileged), { namespace: ns });
    const err = await auth.authenticate(await tokenFor(ns, 'ci-bot')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubernetesReviewFailed);
    expect(err).toMatchObject({ retryable: false, message: expect.stringContaining('system:auth-delegator') });
  });

  it('is built from the environment with FARM_AUTH_KUBERNETES=true', async () => {
    const auth = kubernetesAuthenticatorFromEnv(
      { FARM_AUTH_KUBERNETES: 'true', FARM_AUTH_KUBERNETES_NAMESPACE: ns },
      { kubeConfig: farm },
    )!;
    const principal = (await auth.authenticate(await tokenFor(ns, 'ci-bot')))!;
    expect(await auth.allows(principal, 'submit')).toBe(true);
    expect(await auth.allows(principal, 'cancel')).toBe(false);
  });
});

function authenticator(opts: { audiences?: string[] } = {}): KubernetesAuthenticator {
  return new KubernetesAuthenticator(apiServerReviews(farm), { namespace: ns, ...opts });
}

function serviceAccount(namespace: string, name: string): V1Subject {
  return { kind: 'ServiceAccount', name, namespace };
}

async function createServiceAccount(namespace: string, name: string): Promise<void> {
  await core.createNamespacedServiceAccount(namespace, { metadata: { name } });
}

/** A token as a pod's projected one: from the TokenRequest API, bound to the ServiceAccount. */
async function tokenFor(namespace: string, name: string, audiences: string[] = []): Promise<string> {
  const res = await core.createNamespacedServiceAccountToken(name, namespace, {
    spec: { audiences, expirationSeconds: 3600 },
  });
  return res.body.status!.token;
}

/** What a platform team writes: a Role with verbs on changerequests.farm.dev, bound to subjects. */
async function grant(name: string, verbs: string[], subjects: V1Subject[]): Promise<void> {
  const rules: V1PolicyRule[] = [{ ...CHANGE_REQUESTS, verbs }];
  await rbac.createNamespacedRole(ns, { metadata: { name }, rules });
  await rbac.createNamespacedRoleBinding(ns, {
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects,
  });
}

/** The farm's own ServiceAccount, optionally bound to system:auth-delegator (TokenReview, SubjectAccessReview). */
async function farmServiceAccount(name: string, opts: { delegator: boolean }): Promise<KubeConfig> {
  await createServiceAccount(ns, name);
  if (opts.delegator) {
    const binding = `${ns}-${name}`;
    await rbac.createClusterRoleBinding({
      metadata: { name: binding },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: [serviceAccount(ns, name)],
    });
    clusterBindings.push(binding);
  }
  return serviceAccountKubeConfig(admin, ns, name);
}
