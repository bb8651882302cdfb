/** @farm-kubernetes (waits for the test cluster and its real node; run last) */
// The chart's own egress NetworkPolicy (helm template of helm/agent-farm), enforced by kube-router on the real
// node and tried from inside a real pod labelled as a coding-task Job's: the bus, this release's srm and
// rag-service and the git and model endpoints the values name are reachable; the orchestrator's port, another
// release's srm, the database and any other port of an allowed host are not.
import { createServer, type Server } from 'node:net';
import { CoreV1Api, NetworkingV1Api, type V1NetworkPolicy, type V1Pod } from '@kubernetes/client-node';
import {
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  renderChart,
} from '../../apps/orchestrator/testing/kubernetes-test-cluster';
import { testRealNode, type TestRealNode } from '../local-services/kubernetes-later';
import { containerLog, podOnRealNode } from '../local-services/real-node/testing';

const admin = adminKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const net = admin.makeApiClient(NetworkingV1Api);
const RELEASE = 'agent-farm';
const SRM_PORT = 9470;
const RAG_PORT = 8470;
const API_PORT = 9464;
/** A port every app pod also listens on, which no rule allows. */
const OTHER_PORT = 8080;

let node: TestRealNode;
let ns: string;
const servers: Server[] = [];

/** A TCP server on the host (the gateway) answering `ok`. */
const hostServer = () =>
  new Promise<number>((resolve) => {
    const s = createServer((c) => c.end('ok\n'));
    servers.push(s);
    s.listen(0, node.gateway, () => resolve((s.address() as { port: number }).port));
  });

const onRealNode = (name: string, labels: Record<string, string>, command: string[]): V1Pod =>
  podOnRealNode(node, name, { command }, labels);

/** A pod listening on `port` (and OTHER_PORT) with the labels of one of the chart's apps; resolves with its IP once it serves. */
async function appPod(name: string, labels: Record<string, string>, port: number): Promise<string> {
  await core.createNamespacedPod(
    ns,
    onRealNode(name, labels, [
      'node',
      '-e',
      `for (const p of [${port}, ${OTHER_PORT}]) require("net").createServer((c) => c.end("ok\\n")).listen(p)`,
    ]),
  );
  for (let i = 0; i < 240; i++) {
    const pod = (await core.readNamespacedPod(name, ns)).body;
    if (pod.status?.podIP && pod.status.containerStatuses?.[0]?.state?.running) return pod.status.podIP;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`pod ${name} did not start`);
}

const logOf = (name: string) => containerLog(node, ns, name);

beforeAll(async () => {
  node = await testRealNode();
});
beforeEach(async () => {
  ns = await createTestNamespace(admin, 'netpol');
});
afterEach(async () => {
  await deleteTestNamespace(admin, ns);
  servers.splice(0).forEach((s) => s.close());
});

test('from a coding-task pod, the chart’s egress policy lets through what the farm needs and nothing else', async () => {
  const [bus, git, model, database, kubeApi] = await Promise.all([1, 2, 3, 4, 5].map(() => hostServer()));
  const gw = `${node.gateway}/32`;
  const dest = (port: number) =>
    JSON.stringify({ ipBlocks: [{ cidr: gw }], peers: [], ports: [{ port, protocol: 'TCP' }] });
  const [policy] = (await renderChart(admin, RELEASE, ns, [
    '-s',
    'templates/networkpolicy.yaml',
    '--set',
    'launcher.mode=jobs',
    '--set-json',
    `networkPolicy.codeEgress.bus=${dest(bus)}`,
    '--set-json',
    `networkPolicy.codeEgress.gitRemotes=${dest(git)}`,
    '--set-json',
    `networkPolicy.codeEgress.model=${dest(model)}`,
  ])) as V1NetworkPolicy[];
  expect(policy.kind).toBe('NetworkPolicy');
  await net.createNamespacedNetworkPolicy(ns, policy);

  const app = (name: string, instance = RELEASE) => ({
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/instance': instance,
  });
  const [srm, rag, orchestrator, otherSrm] = await Promise.all([
    appPod('srm', app('srm'), SRM_PORT),
    appPod('rag', app('rag-service'), RAG_PORT),
    appPod('orchestrator', app('orchestrator'), API_PORT),
    appPod('other-srm', app('srm', 'another-farm'), SRM_PORT),
  ]);
  const targets: Record<string, [string, number]> = {
    bus: [node.gateway, bus],
    git: [node.gateway, git],
    model: [node.gateway, model],
    srm: [srm, SRM_PORT],
    'rag-service': [rag, RAG_PORT],
    'orchestrator API': [orchestrator, API_PORT],
    "another release's srm": [otherSrm, SRM_PORT],
    database: [node.gateway, database],
    'Kubernetes API': [node.gateway, kubeApi],
    'srm pod, another port': [srm, OTHER_PORT],
  };
  // Each connection once, after a canary shows the policy applies to this pod (kube-router syncs on pod events).
  const probe = `
    const net = require('net');
    const targets = ${JSON.stringify(targets)};
    const tryOnce = ([host, port]) => new Promise((res) => {
      const s = net.connect({ host, port, timeout: 3000 });
      s.on('data', () => { s.destroy(); res('open'); });
      s.on('timeout', () => { s.destroy(); res('blocked'); });
      s.on('error', (e) => res(e.code === 'ECONNREFUSED' || e.code === 'EHOSTUNREACH' ? 'blocked' : e.code));
    });
    (async () => {
      if (process.argv[1] === 'selected')
        for (let i = 0; i < 40 && (await tryOnce(targets.database)) === 'open'; i++) await new Promise((r) => setTimeout(r, 500));
      for (const [name, t] of Object.entries(targets)) console.log(name + '=' + (await tryOnce(t)));
    })();`;
  const probeFrom = async (name: string, labels: Record<string, string>, arg: string) => {
    await core.createNamespacedPod(ns, onRealNode(name, labels, ['node', '-e', probe, arg]));
    for (let i = 0; ; i++) {
      const phase = (await core.readNamespacedPod(name, ns)).body.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') break;
      if (i > 480) throw new Error(`the probe ${name} did not finish`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return Object.fromEntries(
      logOf(name)
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => l.split('=')),
    );
  };
  const seen = await probeFrom(
    'probe',
    { 'app.kubernetes.io/instance': RELEASE, 'app.kubernetes.io/component': 'coding-task' },
    'selected',
  );
  expect(seen).toEqual({
    bus: 'open',
    git: 'open',
    model: 'open',
    srm: 'open',
    'rag-service': 'open',
    'orchestrator API': 'blocked',
    "another release's srm": 'blocked',
    database: 'blocked',
    'Kubernetes API': 'blocked',
    'srm pod, another port': 'blocked',
  });
  // A pod the policy does not select reaches every one of them: the policy keeps them out, not the network.
  const unselected = await probeFrom('control', { app: 'not-the-farm' }, 'control');
  expect(new Set(Object.values(unselected))).toEqual(new Set(['open']));
}, 240_000);
