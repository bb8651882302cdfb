/** @farm-kubernetes (waits for the test cluster; run last) */
// The orchestrator's HTTP API with Kubernetes identities, end to end on the real kube-apiserver the jest global
// set-up starts: the farm reviews bearer tokens as its own ServiceAccount (bound to system:auth-delegator), and a
// platform team grants verbs on changerequests.farm.dev with an ordinary Role. A ServiceAccount granted `create`
// submits (recorded as itself); one without the grant gets a 403; the farm's own tokens keep working beside them.
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { KubernetesAuthenticator, apiServerReviews } from '@farm/access';
import { InProcessBus } from '@farm/bus';
import { serveMetrics, silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { openApiAccess } from './api-access';
import { changeRequestApi } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';
import { storeInOwnSchema } from '../testing';
import {
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  serviceAccountKubeConfig,
} from '../testing/kubernetes-test-cluster';

const admin = adminKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
let ns: string;
let binding: string;
let store: SqlStore;
let dropSchema: () => Promise<void>;
let bus: InProcessBus;
let server: { port: number; close(): Promise<void> };
let base: string;
let farmToken: string;

beforeAll(async () => {
  ns = await createTestNamespace(admin, 'kident');
  for (const name of ['farm', 'ci-bot', 'stranger']) {
    await core.createNamespacedServiceAccount(ns, { metadata: { name } });
  }
  binding = `${ns}-farm`;
  await rbac.createClusterRoleBinding({
    metadata: { name: binding },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
    subjects: [{ kind: 'ServiceAccount', name: 'farm', namespace: ns }],
  });
  const rules = [{ apiGroups: ['farm.dev'], resources: ['changerequests'], verbs: ['get', 'list', 'create'] }];
  await rbac.createNamespacedRole(ns, { metadata: { name: 'submitters' }, rules });
  await rbac.createNamespacedRoleBinding(ns, {
    metadata: { name: 'submitters' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'submitters' },
    subjects: [{ kind: 'ServiceAccount', name: 'ci-bot', namespace: ns }],
  });

  ({ store, drop: dropSchema } = await storeInOwnSchema('kident'));
  await migrate(store, orchestratorMigrations);
  bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const kubernetes = new KubernetesAuthenticator(apiServerReviews(await serviceAccountKubeConfig(admin, ns, 'farm')), {
    namespace: ns,
  });
  const access = await openApiAccess(store, {}, kubernetes);
  farmToken = (await access.tokens.create({ name: 'reader', scopes: ['read'] }, 'test')).token;
  server = await serveMetrics(0, silentLogger, changeRequestApi({ store, orchestrator, log: silentLogger, access }));
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server?.close();
  await bus?.close();
  await store?.close();
  await dropSchema?.();
  await rbac.deleteClusterRoleBinding(binding).catch(() => undefined);
  await deleteTestNamespace(admin, ns);
});

async function tokenFor(name: string): Promise<string> {
  const res = await core.createNamespacedServiceAccountToken(name, ns, { spec: { audiences: [] } });
  return res.body.status!.token;
}

async function submit(token: string, id: string, requestedBy = 'someone-else') {
  const res = await fetch(`${base}/v1/change-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      changeRequestId: id,
      title: 'Add retry',
      requestedBy,
      repo: { url: 'https://git.example.com/app.git' },
    }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
}

test('a ServiceAccount granted create on changerequests.farm.dev submits, as itself', async () => {
  const id = '0b6c3f5e-1d2a-4c7e-9f00-000000000001';
  expect((await submit(await tokenFor('ci-bot'), id)).status).toBe(202);
  const outbox = await store.query<{ payload: Buffer }>('SELECT payload FROM outbox ORDER BY id');
  const text = outbox.rows.map((r) => Buffer.from(r.payload).toString('latin1')).join('\n');
  // The request records the reviewed identity, not the body's claim.
  expect(text).toContain(`system:serviceaccount:${ns}:ci-bot`);
  expect(text).not.toContain('someone-else');
});

test('a ServiceAccount without the grant is refused with a 403 naming the scope; cancel is not granted either', async () => {
  const refused = await submit(await tokenFor('stranger'), '0b6c3f5e-1d2a-4c7e-9f00-000000000002');
  expect([refused.status, refused.body.error?.message]).toEqual([403, expect.stringMatching(/needs the submit scope/)]);
  const cancel = await fetch(`${base}/v1/change-requests/0b6c3f5e-1d2a-4c7e-9f00-000000000001/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await tokenFor('ci-bot')}` },
  });
  expect(cancel.status).toBe(403);
});

test("a token the API server does not know is a 401; the farm's own tokens still answer", async () => {
  expect((await submit('not-a-kubernetes-token', '0b6c3f5e-1d2a-4c7e-9f00-000000000003')).status).toBe(401);
  const read = await fetch(`${base}/v1/change-requests`, { headers: { authorization: `Bearer ${farmToken}` } });
  expect(read.status).toBe(200);
  expect((await submit(farmToken, '0b6c3f5e-1d2a-4c7e-9f00-000000000004')).status).toBe(403);
});
