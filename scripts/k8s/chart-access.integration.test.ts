/** @farm-kubernetes (waits for the test cluster; run last) */
// The chart's access objects on the real kube-apiserver the jest global set-up starts: its NetworkPolicies,
// Ingress, token Secret and RBAC are accepted with strict validation, the NetworkPolicies select the pods that
// run repository code (the Jobs' pods as the launchers build them), and with kubernetes auth on, the
// orchestrator's ServiceAccount may review tokens and a grant from the values lets its subjects submit.
// The test cluster's process node does not enforce NetworkPolicies: that traffic is blocked is for the
// cluster's network plugin; here the API server accepts them and the selectors are checked.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CoreV1Api,
  RbacAuthorizationV1Api,
  type KubernetesObject,
  type V1LabelSelector,
  type V1Deployment,
  type V1NetworkPolicy,
} from '@kubernetes/client-node';
import { farm } from '../../proto/src';
import { buildAgentJob } from '../../apps/orchestrator/src/kubernetes-job-spec';
import { buildJobFor } from '../../apps/builder/src/build-job-spec';
import { kubernetesAuthenticatorFromEnv } from '../../clients/access/src';
import {
  CHART,
  adminKubeConfig,
  createObjects,
  createTestNamespace,
  deleteTestNamespace,
  orchestratorAsChartServiceAccount,
  readObject,
  renderChart,
} from '../../apps/orchestrator/testing/kubernetes-test-cluster';

const admin = adminKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
const ACCESS_VALUES = ['-f', path.join(CHART, 'ci/access-values.yaml')];
let ns: string;

beforeEach(async () => {
  ns = await createTestNamespace(admin, 'chart-access');
});

afterEach(async () => {
  await rbac.deleteClusterRoleBinding(`${ns}-agent-farm-auth-delegator`).catch(() => undefined);
  await deleteTestNamespace(admin, ns);
});

const ofKind = (objects: KubernetesObject[], ...kinds: string[]) => objects.filter((o) => kinds.includes(o.kind!));
const policy = (objects: KubernetesObject[], name: string) =>
  objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata!.name === name) as V1NetworkPolicy;

describe('the chart’s access objects on a real API server', () => {
  it('creates the NetworkPolicies, Ingress, admin token Secret and auth RBAC of ci/access-values.yaml as rendered', async () => {
    const objects = await renderChart(admin, 'agent-farm', ns, ACCESS_VALUES);
    const access = ofKind(objects, 'NetworkPolicy', 'Ingress', 'Secret', 'ClusterRoleBinding', 'Role', 'RoleBinding');
    expect(access.map((o) => o.kind).sort()).toEqual(
      expect.arrayContaining(['ClusterRoleBinding', 'Ingress', 'NetworkPolicy', 'NetworkPolicy', 'Secret']),
    );
    await createObjects(admin, ofKind(objects, 'ServiceAccount')); // the bindings' subjects
    await createObjects(admin, access);
    // The rest (Deployments, Services) only validated: the process node would run them.
    await createObjects(
      admin,
      objects.filter((o) => !access.includes(o) && o.kind !== 'ServiceAccount'),
      {
        dryRun: true,
      },
    );
    for (const name of ['agent-farm-code-egress', 'agent-farm-api-ingress']) {
      const stored = (await readObject(admin, policy(objects, name))) as V1NetworkPolicy;
      expect(stored.spec).toEqual(policy(objects, name).spec);
    }
    const egress = policy(objects, 'agent-farm-code-egress').spec!.egress!;
    // DNS, bus, git remotes, model, srm, rag-service, the extra rule: no rule without a destination.
    expect(egress).toHaveLength(7);
    expect(egress.slice(1).every((r) => r.to?.length)).toBe(true);
    const token = await core.readNamespacedSecret('agent-farm-admin-token', ns);
    expect(Buffer.from(token.body.data!.FARM_ADMIN_TOKEN, 'base64').toString()).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('creates the default values’ NetworkPolicy, which keeps agents off private addresses', async () => {
    const objects = await renderChart(admin, 'agent-farm', ns);
    const policies = ofKind(objects, 'NetworkPolicy') as V1NetworkPolicy[];
    expect(policies.map((p) => p.metadata!.name)).toEqual(['agent-farm-code-egress']);
    await createObjects(admin, policies);
    const stored = (await readObject(admin, policies[0])) as V1NetworkPolicy;
    const cidrs = stored.spec!.egress!.flatMap((r) => r.to ?? []).flatMap((p) => (p.ipBlock ? [p.ipBlock] : []));
    expect(cidrs.length).toBeGreaterThan(0);
    for (const block of cidrs) expect(block.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16']));
  });

  it.each([
    ['jobs', ['coding-task Job', 'build Job'], ['orchestrator', 'builder', 'srm', 'code-planner']],
    ['pool', ['coding-agent', 'builder'], ['orchestrator', 'srm', 'rag-service', 'request-planner']],
  ])('in %s mode the egress policy selects the pods that run repository code: %j, not %j', async (mode, yes, no) => {
    const objects = await renderChart(admin, 'agent-farm', ns, ['--set', `launcher.mode=${mode}`]);
    const selector = policy(objects, 'agent-farm-code-egress').spec!.podSelector;
    const pods = podLabels(objects);
    for (const name of yes) expect([name, matches(selector, pods[name])]).toEqual([name, true]);
    for (const name of no) expect([name, matches(selector, pods[name])]).toEqual([name, false]);
  });

  it('with kubernetes auth on, the orchestrator’s ServiceAccount reviews tokens and a grant from the values lets its subjects submit', async () => {
    const values = path.join(tmpdir(), `${ns}-values.yaml`);
    writeFileSync(
      values,
      JSON.stringify({
        auth: {
          kubernetes: {
            enabled: true,
            grants: [
              {
                name: 'submitters',
                verbs: ['get', 'create'],
                subjects: [{ kind: 'ServiceAccount', name: 'ci-bot', namespace: ns }],
              },
            ],
          },
        },
      }),
    );
    const { kubeConfig } = await orchestratorAsChartServiceAccount(admin, ns, 'agent-farm', ['-f', values]);
    for (const name of ['ci-bot', 'stranger']) await core.createNamespacedServiceAccount(ns, { metadata: { name } });
    const auth = kubernetesAuthenticatorFromEnv(
      { FARM_AUTH_KUBERNETES: 'true', FARM_AUTH_KUBERNETES_NAMESPACE: ns },
      { kubeConfig },
    )!;
    const ciBot = (await auth.authenticate(await tokenFor('ci-bot')))!;
    expect(ciBot.subject).toBe(`system:serviceaccount:${ns}:ci-bot`);
    expect(await auth.allows(ciBot, 'submit')).toBe(true);
    expect(await auth.allows(ciBot, 'cancel')).toBe(false);
    const stranger = (await auth.authenticate(await tokenFor('stranger')))!;
    expect(await auth.allows(stranger, 'submit')).toBe(false);
  });

  it('mounts the orchestrator’s token and turns kubernetes auth on in pool mode too (no Jobs to manage)', async () => {
    const orchestrator = async (values: string[]) => {
      const objects = await renderChart(admin, 'agent-farm', ns, ['--set', 'launcher.mode=pool', ...values]);
      const d = objects.find(
        (o) => o.kind === 'Deployment' && o.metadata!.name === 'agent-farm-orchestrator',
      ) as V1Deployment;
      const env = d.spec!.template.spec!.containers[0].env!;
      return { mounted: d.spec!.template.spec!.automountServiceAccountToken, env: env.map((e) => e.name) };
    };
    expect(await orchestrator([])).toMatchObject({ mounted: false });
    expect((await orchestrator([])).env).not.toContain('FARM_AUTH_KUBERNETES');
    const on = await orchestrator(['--set', 'auth.kubernetes.enabled=true']);
    expect(on.mounted).toBe(true);
    expect(on.env).toEqual(
      expect.arrayContaining(['FARM_AUTH_KUBERNETES', 'FARM_ADMIN_TOKEN', 'FARM_COMPONENT_TOKEN']),
    );
  });
});

async function tokenFor(name: string): Promise<string> {
  const res = await core.createNamespacedServiceAccountToken(name, ns, {
    spec: { audiences: [], expirationSeconds: 600 },
  });
  return res.body.status!.token;
}

/** The pod labels of each workload: the chart's Deployments, and the Jobs as the launchers build them. */
function podLabels(objects: KubernetesObject[]): Record<string, Record<string, string>> {
  const pods: Record<string, Record<string, string>> = {};
  for (const o of objects) {
    if (o.kind !== 'Deployment') continue;
    const labels = (o as { spec: { template: { metadata: { labels: Record<string, string> } } } }).spec.template
      .metadata.labels;
    pods[labels['app.kubernetes.io/name']] = labels;
  }
  const settings = { namespace: ns, image: 'farm:test', secretName: 's', configMapName: 'c', instance: 'agent-farm' };
  const repo = { url: 'https://git.example.com/app.git', baseRef: 'main', baseCommit: 'a'.repeat(40) };
  const task = farm.v1.CodingTask.create({ id: 'cr-1-item-1', changeRequestId: 'cr-1', goal: 'g', repo });
  pods['coding-task Job'] = buildAgentJob(task, {
    ...settings,
    serviceAccountName: 'a',
  }).spec!.template.metadata!.labels!;
  const build = farm.v1.BuildRequest.create({ changeRequestId: 'cr-1', repo, branches: ['agt/cr-1-item-1'] });
  pods['build Job'] = buildJobFor(build, { ...settings, serviceAccountName: 'a' }).spec!.template.metadata!.labels!;
  return pods;
}

/** A LabelSelector as the API server applies it (matchLabels and the In/NotIn/Exists/DoesNotExist expressions). */
function matches(selector: V1LabelSelector, labels: Record<string, string> | undefined): boolean {
  if (!labels) throw new Error('no such workload');
  const exact = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    exact &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      if (operator === 'In') return key in labels && values.includes(labels[key]);
      if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]);
      if (operator === 'Exists') return key in labels;
      return !(key in labels);
    })
  );
}
