/** @farm-kubernetes (waits for the test cluster; run last) */
// The project's process node on the control plane the jest global set-up starts: pods it runs see the
// environment, paths and lifecycle a kubelet would give them. The pods write what they see under the
// checkout's .cache (the image's /app), where the test reads it.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { CoreV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { sandboxPodParts } from '../../clients/kube/src';
import { PROCESS_NODE_FARM_IMAGE } from './local-kubernetes';
import { mapPath } from './process-node';

const CHECKOUT = resolve(__dirname, '../..');
const kc = new KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG!.split(':')[0]);
const core = kc.makeApiClient(CoreV1Api);
const image = process.env.FARM_TEST_AGENT_IMAGE ?? PROCESS_NODE_FARM_IMAGE;
let ns: string;
let out: string;

beforeEach(async () => {
  ns = `node-${randomBytes(4).toString('hex')}`;
  await core.createNamespace({ metadata: { name: ns } });
  out = join(CHECKOUT, '.cache/test-node', ns);
  mkdirSync(out, { recursive: true });
});

afterEach(async () => {
  await core.deleteNamespace(ns).catch(() => undefined);
  rmSync(out, { recursive: true, force: true });
});

async function waitForPod(name: string, done: (p: V1Pod) => boolean, what: string): Promise<V1Pod> {
  const end = Date.now() + 30_000;
  for (;;) {
    const p = (await core.readNamespacedPod(name, ns)).body;
    if (done(p)) return p;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; status ${JSON.stringify(p.status)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('a pod runs with its command, args, env, envFrom, key refs, downward API and working directory', async () => {
  await core.createNamespacedConfigMap(ns, { metadata: { name: 'settings' }, data: { MODE: 'fast', LEVEL: '3' } });
  await core.createNamespacedSecret(ns, { metadata: { name: 'creds' }, stringData: { TOKEN: 's3cret' } });
  await core.createNamespacedPod(ns, {
    metadata: { name: 'probe', labels: { team: 'a' } },
    spec: {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'main',
          image,
          command: ['sh', '-c'],
          args: ['env | sort > "$OUT/env"; pwd > "$OUT/pwd"; echo "$@" > "$OUT/args"; exit 7', 'sh', 'x'],
          workingDir: '/app/apps',
          env: [
            { name: 'OUT', value: `/app/.cache/test-node/${ns}` },
            { name: 'LITERAL', value: 'plain' },
            { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 'creds', key: 'TOKEN' } } },
            { name: 'FROM_CONFIGMAP', valueFrom: { configMapKeyRef: { name: 'settings', key: 'LEVEL' } } },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'TEAM', valueFrom: { fieldRef: { fieldPath: "metadata.labels['team']" } } },
            { name: 'WORK', value: '/work' },
          ],
          envFrom: [{ configMapRef: { name: 'settings' }, prefix: 'CFG_' }, { secretRef: { name: 'creds' } }],
          volumeMounts: [{ name: 'work', mountPath: '/work' }],
        },
      ],
      volumes: [{ name: 'work', emptyDir: {} }],
    },
  });
  const pod = await waitForPod('probe', (p) => p.status?.phase === 'Failed', 'the pod to fail');
  expect(pod.spec!.nodeName).toBe('farm-process-node');
  expect(pod.status!.containerStatuses![0].state!.terminated).toMatchObject({ exitCode: 7, reason: 'Error' });

  const env = Object.fromEntries(
    readFileSync(join(out, 'env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  expect(env).toMatchObject({
    LITERAL: 'plain',
    FROM_SECRET: 's3cret',
    FROM_CONFIGMAP: '3',
    CFG_MODE: 'fast',
    CFG_LEVEL: '3',
    TOKEN: 's3cret',
    POD_NAME: 'probe',
    TEAM: 'a',
    HOSTNAME: 'probe',
  });
  // Container paths are mapped: the image's /app is the checkout, /work the pod's own emptyDir.
  expect(readFileSync(join(out, 'pwd'), 'utf8').trim()).toBe(join(CHECKOUT, 'apps'));
  expect(env.WORK).not.toBe('/work');
  expect(env.WORK).toMatch(/farm-node-.*\/volumes\/work$/);
  expect(readFileSync(join(out, 'args'), 'utf8').trim()).toBe('x');
});

test('a missing Secret keeps the pod Pending with CreateContainerConfigError until it exists; an unknown image gives ErrImagePull', async () => {
  await core.createNamespacedPod(ns, {
    metadata: { name: 'no-secret' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image, command: ['true'], envFrom: [{ secretRef: { name: 'absent' } }] }],
    },
  });
  await core.createNamespacedPod(ns, {
    metadata: { name: 'no-image' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: 'registry.example.com/nope:1', command: ['true'] }],
    },
  });
  const waiting = (p: V1Pod) => p.status?.containerStatuses?.[0]?.state?.waiting;
  const a = await waitForPod(
    'no-secret',
    (p) => !!waiting(p)?.reason && waiting(p)!.reason !== 'ContainerCreating',
    'a reason',
  );
  expect(a.status!.phase).toBe('Pending');
  expect(waiting(a)).toMatchObject({ reason: 'CreateContainerConfigError', message: 'secret "absent" not found' });
  // Once the Secret exists the pod starts, as a kubelet retries.
  await core.createNamespacedSecret(ns, { metadata: { name: 'absent' }, stringData: { K: 'v' } });
  await waitForPod('no-secret', (p) => p.status?.phase === 'Succeeded', 'the pod to run once its Secret exists');
  const b = await waitForPod(
    'no-image',
    (p) => !!waiting(p)?.reason && waiting(p)!.reason !== 'ContainerCreating',
    'a reason',
  );
  expect(waiting(b)!.reason).toBe('ErrImagePull');
});

test('restartPolicy OnFailure restarts a failing container and counts it', async () => {
  await core.createNamespacedPod(ns, {
    metadata: { name: 'flaky' },
    spec: {
      restartPolicy: 'OnFailure',
      containers: [
        {
          name: 'c',
          image,
          // Fails on its first run, succeeds on the second (the marker survives in the pod's volume; only
          // whole arguments and env values are container paths to the node, hence $DATA).
          command: ['sh', '-c', 'if [ -e "$DATA/ran" ]; then exit 0; fi; touch "$DATA/ran"; exit 1'],
          env: [{ name: 'DATA', value: '/data' }],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
  });
  const pod = await waitForPod('flaky', (p) => p.status?.phase === 'Succeeded', 'the pod to succeed after a restart');
  const c = pod.status!.containerStatuses![0];
  expect(c.restartCount).toBe(1);
  expect(c.lastState!.terminated!.exitCode).toBe(1);
  expect(c.state!.terminated!.exitCode).toBe(0);
});

test('deleting a running pod stops its process (SIGTERM) and removes the pod', async () => {
  await core.createNamespacedPod(ns, {
    metadata: { name: 'sleeper' },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 5,
      containers: [
        {
          name: 'c',
          image,
          env: [{ name: 'OUT', value: `/app/.cache/test-node/${ns}` }],
          command: [
            'sh',
            '-c',
            'trap "touch $OUT/termed; exit 0" TERM; touch "$OUT/started"; while true; do sleep 0.1; done',
          ],
        },
      ],
    },
  });
  await waitForPod('sleeper', (p) => p.status?.phase === 'Running' && existsSync(join(out, 'started')), 'it to run');
  await core.deleteNamespacedPod('sleeper', ns);
  const end = Date.now() + 30_000;
  while ((await core.listNamespacedPod(ns)).body.items.some((p) => p.metadata!.name === 'sleeper')) {
    if (Date.now() > end) throw new Error('the pod was not removed');
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(existsSync(join(out, 'termed'))).toBe(true);
});

test('a native sidecar starts first (its startup probe awaited), serves the pod, and is stopped once the others end', async () => {
  // The farm's own: the sandbox runner that the agent and build Jobs get (@farm/kube), and a main container that
  // asks it for its confinement as the agent does at start.
  const sandbox = sandboxPodParts({
    image,
    imagePullPolicy: 'Never',
    checkoutDir: '/work/checkouts',
    checkoutSizeLimit: '1Gi',
  });
  const env = { ...sandbox.env, OUT: `/app/.cache/test-node/${ns}` };
  await core.createNamespacedPod(ns, {
    metadata: { name: 'with-sidecar' },
    spec: {
      restartPolicy: 'Never',
      initContainers: sandbox.initContainers,
      containers: [
        {
          name: 'agent',
          image,
          workingDir: '/app',
          command: ['sh', '-c', 'node --import tsx scripts/image/pod-sandbox-agent.ts status > "$OUT/status"'],
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
          volumeMounts: sandbox.mounts,
        },
      ],
      volumes: sandbox.volumes,
    },
  });
  const pod = await waitForPod('with-sidecar', (p) => p.status?.phase === 'Succeeded', 'the pod to complete');
  const status = JSON.parse(readFileSync(join(out, 'status'), 'utf8')) as { missing: unknown[]; runner: string };
  expect(status.missing).toEqual([]);
  expect(status.runner).toMatch(/\/sandbox-control\/runner\.sock$/); // the pod's shared directory, on this machine
  expect(pod.status!.containerStatuses!.map((c) => c.name)).toEqual(['agent']);
  const [sidecar] = pod.status!.initContainerStatuses!;
  expect(sidecar.name).toBe('sandbox');
  expect(sidecar.state!.terminated).toBeDefined(); // stopped after the agent ended; its exit code decides nothing
});

test('container paths map onto the longest mapped prefix', () => {
  const paths = { '/app': '/src/farm', '/app/data': '/vol/data', '/tmp': '/pods/p1/tmp' };
  expect(mapPath('/app/apps/x.ts', paths)).toBe('/src/farm/apps/x.ts');
  expect(mapPath('/app/data/f', paths)).toBe('/vol/data/f');
  expect(mapPath('/tmp', paths)).toBe('/pods/p1/tmp');
  expect(mapPath('/application', paths)).toBe('/application');
  expect(mapPath('/etc/hosts', paths)).toBe('/etc/hosts');
});
