/** @farm-kubernetes (waits for the test cluster; run last) */
// The orchestrator's egress policy check on a real API server, as the chart's ServiceAccount (its Role from
// templates/rbac.yaml), against the chart's own NetworkPolicy (templates/networkpolicy.yaml).
import { NetworkingV1Api, type V1NetworkPolicy } from '@kubernetes/client-node';
import { silentLogger } from '@farm/runtime';
import {
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  orchestratorAsChartServiceAccount,
  renderChart,
} from '../testing';
import { watchEgressPolicy, type EgressPolicyWatch } from './egress-policy-watch';

const admin = adminKubeConfig();
const net = admin.makeApiClient(NetworkingV1Api);
let ns: string;
let watch: EgressPolicyWatch | undefined;

beforeEach(async () => {
  ns = await createTestNamespace(admin, 'egress');
});
afterEach(async () => {
  watch?.stop();
  await deleteTestNamespace(admin, ns);
});

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('ready with the chart’s policy; not ready, saying why, when another policy reopens egress or it is gone', async () => {
  const { kubeConfig } = await orchestratorAsChartServiceAccount(admin, ns);
  const [policy] = (await renderChart(admin, 'agent-farm', ns, [
    '-s',
    'templates/networkpolicy.yaml',
    '--set',
    'launcher.mode=jobs',
  ])) as V1NetworkPolicy[];
  await net.createNamespacedNetworkPolicy(ns, policy);
  watch = watchEgressPolicy({
    kubeConfig,
    namespace: ns,
    release: 'agent-farm',
    policy: policy.metadata!.name!,
    log: silentLogger,
    everyMs: 100,
  });
  await eventually(() => watch!.readiness().healthy, 'ready');

  await net.createNamespacedNetworkPolicy(ns, {
    metadata: { name: 'allow-all-egress' },
    spec: { podSelector: {}, policyTypes: ['Egress'], egress: [{}] },
  });
  await eventually(() => !watch!.readiness().healthy, 'not ready');
  expect(watch.readiness().reasons).toEqual([
    'the NetworkPolicy allow-all-egress also selects the agent Job pods and allows egress (policies add up: it opens what agent-farm-code-egress closes)',
    'the NetworkPolicy allow-all-egress also selects the build Job pods and allows egress (policies add up: it opens what agent-farm-code-egress closes)',
  ]);

  await net.deleteNamespacedNetworkPolicy('allow-all-egress', ns);
  await net.deleteNamespacedNetworkPolicy(policy.metadata!.name!, ns);
  await eventually(() => watch!.readiness().reasons.some((r) => r.includes('is missing')), 'missing');
});

test('a ServiceAccount that may not list NetworkPolicies is not ready, naming the permission', async () => {
  const { builderKubeConfig } = await orchestratorAsChartServiceAccount(admin, ns);
  watch = watchEgressPolicy({
    kubeConfig: builderKubeConfig,
    namespace: ns,
    release: 'agent-farm',
    policy: 'agent-farm-code-egress',
    log: silentLogger,
    everyMs: 100,
  });
  await eventually(() => watch!.readiness().reasons.some((r) => r.includes('(403)')), 'forbidden');
  expect(watch.readiness().reasons[0]).toMatch(/needs list on networkpolicies/);
});
