// Test support for the Kubernetes tests: they run on the cluster in $KUBECONFIG, which the jest global set-up
// starts (etcd, kube-apiserver, kube-controller-manager, kube-scheduler and the project's process node, see
// scripts/local-services/) unless KUBECONFIG is given. Each test works in a namespace of its own, with the
// chart's ServiceAccounts and Role, and the orchestrator talks to the API with its ServiceAccount's token.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, KubeConfig, VersionApi, loadAllYaml, type KubernetesObject } from '@kubernetes/client-node';

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

/** The cluster's version, for `helm template` (which otherwise assumes an old one and refuses the chart). */
export async function serverVersion(kc: KubeConfig): Promise<string> {
  return (await kc.makeApiClient(VersionApi).getCode()).body.gitVersion;
}

/** `helm template` of the chart for the cluster in `kc`; the manifests as objects. */
export async function renderChart(
  kc: KubeConfig,
  release: string,
  namespace: string,
  args: string[] = [],
): Promise<KubernetesObject[]> {
  const { stdout } = await exec(
    helmBinary(),
    ['template', release, CHART, '--namespace', namespace, '--kube-version', await serverVersion(kc), ...args],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return loadAllYaml(stdout).filter((o): o is KubernetesObject => !!o?.kind);
}

/**
 * Creates each object with strict field validation (an unknown or duplicate field is an error, not a
 * warning), or only validates it with `dryRun`. The error carries the server's Status message.
 */
export async function createObjects(
  kc: KubeConfig,
  objects: KubernetesObject[],
  opts: { dryRun?: boolean } = {},
): Promise<void> {
  const query = `fieldValidation=Strict&fieldManager=farm-test${opts.dryRun ? '&dryRun=All' : ''}`;
  for (const o of objects) await apiRequest(kc, 'POST', `${collectionPath(o)}?${query}`, o);
}

/** The object as the server has it (rejects with statusCode 404 when it is not there). */
export function readObject(kc: KubeConfig, o: KubernetesObject): Promise<KubernetesObject> {
  return apiRequest(kc, 'GET', `${collectionPath(o)}/${o.metadata!.name}`) as Promise<KubernetesObject>;
}

function collectionPath(o: KubernetesObject): string {
  const [group, version] = o.apiVersion!.includes('/') ? o.apiVersion!.split('/') : ['', o.apiVersion!];
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const ns = CLUSTER_SCOPED.has(o.kind!) ? '' : `/namespaces/${o.metadata!.namespace ?? 'default'}`;
  return `${base}${ns}/${plural(o.kind!)}`;
}

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'Node']);
const plural = (kind: string) =>
  kind
    .toLowerCase()
    .replace(/(s|x|ch|sh)$/, '$1e')
    .replace(/([^aeiou])y$/, '$1ie') + 's';

/** One API call with the kubeconfig's credentials; rejects with the Status message on a non-2xx answer. */
export async function apiRequest(kc: KubeConfig, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = new URL(kc.getCurrentCluster()!.server + path);
  const opts: https.RequestOptions = { method, headers: { 'Content-Type': 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const req = https.request(url, opts, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const parsed = text ? JSON.parse(text) : undefined;
        if (res.statusCode! < 300) resolve(parsed);
        else reject(Object.assign(new Error(parsed?.message ?? text), { statusCode: res.statusCode, body: parsed }));
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * The chart's ServiceAccounts, Roles and RoleBindings for jobs mode (helm template -s templates/rbac.yaml) in
 * `namespace`, and kubeconfigs that authenticate as the orchestrator's and the builder's ServiceAccounts with
 * bound tokens.
 */
export async function orchestratorAsChartServiceAccount(
  admin: KubeConfig,
  namespace: string,
  release = 'agent-farm',
  values: string[] = [],
): Promise<{
  kubeConfig: KubeConfig;
  builderKubeConfig: KubeConfig;
  agentServiceAccount: string;
  orchestratorServiceAccount: string;
}> {
  await createObjects(
    admin,
    await renderChart(admin, release, namespace, [
      '-s',
      'templates/rbac.yaml',
      '--set',
      'launcher.mode=jobs',
      ...values,
    ]),
  );
  const orchestratorServiceAccount = `${release}-orchestrator`;
  const kubeConfig = await serviceAccountKubeConfig(admin, namespace, orchestratorServiceAccount);
  const builderKubeConfig = await serviceAccountKubeConfig(admin, namespace, `${release}-builder`);
  return { kubeConfig, builderKubeConfig, agentServiceAccount: `${release}-agent`, orchestratorServiceAccount };
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
