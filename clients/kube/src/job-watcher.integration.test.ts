/** @farm-kubernetes (waits for the test cluster; run last) */
// The JobWatcher on the control plane the jest global set-up starts, as a ServiceAccount that may list and watch
// Jobs through a RoleBinding the tests take away and give back. The Jobs are suspended: no pod ever runs.
import { randomBytes } from 'node:crypto';
import {
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  PatchUtils,
  RbacAuthorizationV1Api,
  type V1Job,
  type V1RoleBinding,
} from '@kubernetes/client-node';
import { createLogger } from '@farm/runtime';
import { apiError } from './jobs';
import { JobWatcher, type JobChange, type JobWatcherConfig } from './job-watcher';

const admin = new KubeConfig();
const adminBatch = () => admin.makeApiClient(BatchV1Api);
let ns: string;
let asWatcher: KubeConfig;
let events: [JobChange, string][];
let lines: string[];
const watchers: JobWatcher[] = [];

const binding = (): V1RoleBinding => ({
  metadata: { name: 'job-watcher' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'job-watcher' },
  subjects: [{ kind: 'ServiceAccount', name: 'job-watcher', namespace: ns }],
});

beforeAll(() => {
  const file = process.env.KUBECONFIG?.split(':')[0];
  if (!file) throw new Error('KUBECONFIG is not set: the jest global set-up starts a control plane and sets it');
  admin.loadFromFile(file);
});

beforeEach(async () => {
  ns = `job-watcher-${randomBytes(4).toString('hex')}`;
  const core = admin.makeApiClient(CoreV1Api);
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await core.createNamespace({ metadata: { name: ns, labels: { 'farm.dev/test': 'job-watcher' } } });
  await core.createNamespacedServiceAccount(ns, { metadata: { name: 'job-watcher' } });
  await rbac.createNamespacedRole(ns, {
    metadata: { name: 'job-watcher' },
    rules: [{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['list', 'watch'] }],
  });
  await rbac.createNamespacedRoleBinding(ns, binding());
  const token = await core.createNamespacedServiceAccountToken('job-watcher', ns, {
    spec: { audiences: [], expirationSeconds: 3600 },
  });
  const cluster = admin.getCurrentCluster()!;
  asWatcher = new KubeConfig();
  asWatcher.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'job-watcher', token: token.body.status!.token }],
    contexts: [{ name: 'job-watcher', cluster: cluster.name, user: 'job-watcher', namespace: ns }],
    currentContext: 'job-watcher',
  });
  events = [];
  lines = [];
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.stop()));
  await admin
    .makeApiClient(CoreV1Api)
    .deleteNamespace(ns)
    .catch(() => undefined);
});

function watcher(overrides: Partial<JobWatcherConfig> = {}): JobWatcher {
  const w = new JobWatcher({
    kubeConfig: asWatcher,
    namespace: ns,
    labelSelector: 'farm.dev/watched=yes',
    log: createLogger('job-watcher-test', { level: 'debug', write: (line) => lines.push(line) }),
    onJob: (change, job) => events.push([change, job.metadata!.name!]),
    restartDelayMs: 50,
    ...overrides,
  });
  watchers.push(w);
  return w;
}

/** A suspended Job (no pod), watched or not by its label. */
async function createJob(name: string, watched = true): Promise<void> {
  const job: V1Job = {
    metadata: { name, labels: { 'farm.dev/watched': watched ? 'yes' : 'no' } },
    spec: {
      suspend: true,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'none', command: ['true'] }] } },
    },
  };
  await adminBatch().createNamespacedJob(ns, job);
}

const annotate = (name: string, value: string) =>
  adminBatch().patchNamespacedJob(
    name,
    ns,
    { metadata: { annotations: { 'farm.dev/note': value } } },
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    { headers: { 'Content-Type': PatchUtils.PATCH_FORMAT_JSON_MERGE_PATCH } },
  );

async function eventually(probe: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const saw = (change: JobChange, name: string) => events.some(([c, n]) => c === change && n === name);

describe('JobWatcher on a real control plane', () => {
  test('lists the Jobs there are as added, then follows changes and deletions of its selector’s Jobs only', async () => {
    await createJob('before');
    await createJob('other', false);
    const w = watcher();
    await w.start();
    expect(events).toEqual([['added', 'before']]);
    expect(w.list().map((j) => j.metadata!.name)).toEqual(['before']);

    await createJob('after');
    await eventually(() => saw('added', 'after'), 'the new Job');
    await annotate('before', 'changed');
    await eventually(() => saw('updated', 'before'), 'the change');
    expect(w.get('before')!.metadata!.annotations!['farm.dev/note']).toBe('changed');
    await adminBatch().deleteNamespacedJob('after', ns);
    await eventually(() => saw('deleted', 'after'), 'the deletion');
    expect(w.get('after')).toBeUndefined();
    await annotate('other', 'changed');
    await createJob('another', false);
    await createJob('last');
    await eventually(() => saw('added', 'last'), 'the last Job');
    expect(events.some(([, n]) => n === 'other' || n === 'another')).toBe(false);
  });

  test('keeps following across watch ends, watching again from where it was', async () => {
    const w = watcher({ watchTimeoutSeconds: 1 });
    await w.start();
    const ends = () => lines.filter((l) => l.includes('Job watch ended; watching again')).length;
    await eventually(() => ends() >= 2, 'the server to end the watch twice');
    await createJob('late');
    await eventually(() => saw('added', 'late'), 'a Job created after two watch ends');
    expect(events.filter(([c, n]) => c === 'added' && n === 'late')).toHaveLength(1); // not once per watch
  });

  test('starting fails when the Jobs cannot be listed', async () => {
    await admin.makeApiClient(RbacAuthorizationV1Api).deleteNamespacedRoleBinding('job-watcher', ns);
    const refused = await watcher()
      .start()
      .then(
        () => undefined,
        (err) => err,
      );
    expect(apiError(refused).code).toBe(403);
  });

  test('a watch that fails is started again once the API lets it, and nothing that happened meanwhile is missed', async () => {
    await createJob('kept');
    await createJob('removed');
    const w = watcher({ watchTimeoutSeconds: 1 });
    await w.start();
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await rbac.deleteNamespacedRoleBinding('job-watcher', ns);
    await eventually(() => lines.some((l) => l.includes('Job watch failed; watching again')), 'the watch to fail');
    await createJob('created-meanwhile');
    await adminBatch().deleteNamespacedJob('removed', ns);
    await annotate('kept', 'changed-meanwhile');
    expect(saw('added', 'created-meanwhile')).toBe(false);

    await rbac.createNamespacedRoleBinding(ns, binding());
    await eventually(
      () => saw('added', 'created-meanwhile') && saw('deleted', 'removed') && saw('updated', 'kept'),
      'what happened while the watch was down',
    );
    expect(
      w
        .list()
        .map((j) => j.metadata!.name)
        .sort(),
    ).toEqual(['created-meanwhile', 'kept']);
    await createJob('after');
    await eventually(() => saw('added', 'after'), 'a Job created after it recovered');
  });
});
