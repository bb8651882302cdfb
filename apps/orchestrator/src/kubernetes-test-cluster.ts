// Test support for the Kubernetes tests: they run on the cluster in $KUBECONFIG, which the jest global set-up
// starts (etcd, kube-apiserver, kube-controller-manager, kube-scheduler and the project's process node, see
// scripts/local-services/) unless KUBECONFIG is given. Each test works in a namespace of its own, with the
// chart's ServiceAccounts and Role, and the orchestrator talks to the API with its ServiceAccount's token.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  loadAllYaml,
  type KubernetesObject,
} from '@kubernetes/client-node';

const exec = promisify(execFile);
export const CHART = path.resolve(__dirname, '../../../helm/agent-farm');

/** The farm image as the test cluster's nodes know it (the process node maps it onto this checkout). */
export const TEST_AGENT_IMAGE = process.env.FARM_TEST_AGENT_IMAGE ?? 'agent-farm:checkout';

export function adminKubeConfig(): KubeConfig {
  const file = process.env.KUBECONFIG?.split(':')[0];
  if (!file) throw new Error('KUBECONFIG is not set: the jest global set-up starts a control plane and sets it');
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** A fresh namespace per test; deleting it takes every object in it (the namespace controller). */
export async function createTestNamespace(kc: KubeConfig, prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(4).toString('hex')}`;
  await kc.makeApiClient(CoreV1Api).createNamespace({ metadata: { name, labels: { 'farm.dev/test': prefix } } });
  return name;
}

export async function deleteTestNamespace(kc: KubeConfig, name: string): Promise<void> {
  await kc
    .makeApiClient(CoreV1Api)
    .deleteNamespace(name)
    .catch(() => undefined); // already gone
}

export function helmBinary(): string {
  return process.env.FARM_TEST_HELM ?? 'helm';
}

/** `helm template` of the chart; the manifests as objects. */
export async function renderChart(
  release: string,
  namespace: string,
  args: string[] = [],
): Promise<KubernetesObject[]> {
  const { stdout } = await exec(helmBinary(), ['template', release, CHART, '--namespace', namespace, ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return loadAllYaml(stdout).filter((o): o is KubernetesObject => !!o?.kind);
}

/** Creates each object as the API server validates it (strict field validation: an unknown field is an error). */
export async function createObjects(kc: KubeConfig, objects: KubernetesObject[]): Promise<void> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const o of objects) await api.create(o, undefined, undefined, 'farm-test', { headers: {} });
}

/**
 * The chart's ServiceAccounts, Role and RoleBinding for jobs mode (helm template -s templates/rbac.yaml) in
 * `namespace`, and a kubeconfig that authenticates as the orchestrator's ServiceAccount with a bound token.
 */
export async function orchestratorAsChartServiceAccount(
  admin: KubeConfig,
  namespace: string,
  release = 'agent-farm',
  values: string[] = [],
): Promise<{ kubeConfig: KubeConfig; agentServiceAccount: string; orchestratorServiceAccount: string }> {
  await createObjects(
    admin,
    await renderChart(release, namespace, ['-s', 'templates/rbac.yaml', '--set', 'launcher.mode=jobs', ...values]),
  );
  const orchestratorServiceAccount = `${release}-orchestrator`;
  const kubeConfig = await serviceAccountKubeConfig(admin, namespace, orchestratorServiceAccount);
  return { kubeConfig, agentServiceAccount: `${release}-agent`, orchestratorServiceAccount };
}

/** A kubeconfig for a ServiceAccount, with a token from the TokenRequest API, as a pod's projected token. */
export async function serviceAccountKubeConfig(admin: KubeConfig, namespace: string, sa: string): Promise<KubeConfig> {
  const res = await admin
    .makeApiClient(CoreV1Api)
    .createNamespacedServiceAccountToken(sa, namespace, { spec: { audiences: [], expirationSeconds: 3600 } });
  const cluster = admin.getCurrentCluster()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name: sa, token: res.body.status!.token }],
    contexts: [{ name: sa, cluster: cluster.name, user: sa, namespace }],
    currentContext: sa,
  });
  return kc;
}
