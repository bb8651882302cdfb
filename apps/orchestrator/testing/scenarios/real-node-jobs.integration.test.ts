/** @farm-kubernetes (waits for the test cluster and its real node; run last) */
// Jobs mode on the real node: the agent and build Jobs are containers of the farm's image under containerd,
// shaped by the chart itself — the orchestrator's and the builder's settings are read from the Deployments
// `helm template` renders (FARM_JOB_POD: the chart's pod and container security, node selection; resources,
// service accounts, pull policy), not from a copy. The pods reach Kafka, the git server, the scripted model
// and the srm on the node's gateway, as a cluster's pods reach its services.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BatchV1Api,
  CoreV1Api,
  NetworkingV1Api,
  type KubeConfig,
  type V1Deployment,
  type V1NetworkPolicy,
  type V1Pod,
} from '@kubernetes/client-node';
import { failedStepName, farm } from '@farm/proto';
import { KafkaBus } from '@farm/bus';
import { getRequest, kubernetesJobLauncherFromEnv } from '@farm/orchestrator';
import { builderConfigSchema, createBuildLauncher } from '@farm/builder';
import { loadConfig } from '@farm/runtime';
import { ADD_LOWER, MULTI_REPO_FILES, agentStep, planStep } from '@farm/cli/testing';
import {
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  orchestratorAsChartServiceAccount,
  renderChart,
} from '@farm/orchestrator/testing';
import { remoteBranchSha } from '@farm/git';
import { createPgStore, type SqlStore } from '@farm/store';
import { testRealNode, type TestRealNode } from '../../../../scripts/local-services/kubernetes-later';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from '../../../../scripts/local-services/real-node/real-node';
import { readTaskSteps, type StoredStep } from '../../src/task-steps';
import { startFarmHarness, testLog, type AgentServices, type FarmHarness } from './farm-harness';
import type { KubernetesJobLauncher } from '@farm/orchestrator';

const phasesOf = (ts: farm.v1.PhaseTransition[]) => ts.filter((t) => !t.taskId).map((t) => farm.v1.Phase[t.toPhase]);
const ONE_ITEM = [{ id: 'str', goal: 'Add lower to the strings module', symbols: ['upper'] }];
const RELEASE = 'agent-farm';

/**
 * A repository check that tries what docs/security.md "The sandbox" says it cannot: the agent's secrets (its env, every
 * visible process's environ, the service-account token, the checkout), connections to what the pod may reach
 * (`targets`, host:port), writes outside its checkout, a process left running for the next run to find. It
 * prints a LEAK line for each success and then fails; it passes when nothing leaked.
 */
function hostileCheck(targets: string[]): string {
  return `#!/bin/sh
leak=0
say() { echo "LEAK: $*"; leak=1; }
key=test-"key" # the model key's value, spelt so that this file does not hold it
env | grep -q -e "$key" -e FARM_COMPONENT_TOKEN -e OPENAI_API_KEY && say "a secret in my environment"
for f in /proc/[0-9]*/environ; do
  tr '\\0' '\\n' < "$f" 2>/dev/null | grep -q -e "$key" -e FARM_COMPONENT_TOKEN && say "a secret in $f"
done
[ -e /var/run/secrets/kubernetes.io/serviceaccount/token ] && say "the service-account token"
grep -rqs "$key" . && say "a secret in the checkout"
for p in /work /app /tmp/../work .. .git/hooks; do touch "$p/farm-hostile" 2>/dev/null && say "wrote $p/farm-hostile"; done
grep -qs farm-leftover-marker /proc/[0-9]*/cmdline && say "a process of an earlier run is still running"
(setsid node -e 'setInterval(() => {}, 1000)' farm-leftover-marker </dev/null >/dev/null 2>&1 &)
node -e '
  const net = require("net");
  const targets = ${JSON.stringify(targets)};
  let left = targets.length;
  for (const t of targets) {
    const [host, port] = [t.slice(0, t.lastIndexOf(":")), Number(t.slice(t.lastIndexOf(":") + 1))];
    const s = net.connect({ host, port, timeout: 2000 });
    s.on("connect", () => { console.log("LEAK: connected to " + t); process.exitCode = 1; s.destroy(); if (!--left) process.exit(); });
    s.on("error", () => { if (!--left) process.exit(); });
    s.on("timeout", () => { s.destroy(); if (!--left) process.exit(); });
  }' || leak=1
exit $leak
`;
}

const admin = adminKubeConfig();
const batch = admin.makeApiClient(BatchV1Api);
const core = admin.makeApiClient(CoreV1Api);
const net = admin.makeApiClient(NetworkingV1Api);

describe('jobs mode on a real node: agent and build Jobs as containers, as the chart shapes them', () => {
  const topicPrefix = `real-${Date.now()}.`;
  let node: TestRealNode;
  let bus: KafkaBus;
  let store: SqlStore;
  let ns: string;
  let asOrchestrator: KubeConfig;
  let asBuilder: KubeConfig;
  let h: FarmHarness<KubernetesJobLauncher> | undefined;

  beforeAll(async () => {
    node = await testRealNode();
    if (!process.env.FARM_TEST_KAFKA_POD_BROKERS)
      throw new Error('Kafka has no listener for pods (FARM_TEST_KAFKA_POD_BROKERS)');
    bus = await KafkaBus.connect({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      clientId: 'real-node-jobs-test',
      topicPrefix,
    });
    store = createPgStore(process.env.DATABASE_URL!);
  });
  beforeEach(async () => {
    ns = await createTestNamespace(admin, 'real-jobs');
    ({ kubeConfig: asOrchestrator, builderKubeConfig: asBuilder } = await orchestratorAsChartServiceAccount(admin, ns));
  });
  afterEach(async () => {
    extraValues = [];
    await h?.close();
    h = undefined;
    await deleteTestNamespace(admin, ns);
  });
  afterAll(async () => {
    await bus.close();
    await store.close();
  });

  /** The chart's values for this cluster: the node's image, never pulled, Jobs on the real node. */
  let extraValues: string[] = [];
  const chartValues = () => {
    const [repository, tag] = node.image.split(/:(?=[^:]+$)/);
    return [
      '--set',
      'launcher.mode=jobs',
      '--set',
      `image.repository=${repository}`,
      '--set',
      `image.tag=${tag}`,
      '--set',
      'image.pullPolicy=Never',
      '--set-json',
      `jobs.nodeSelector=${JSON.stringify(REAL_NODE_LABEL)}`,
      '--set-json',
      `jobs.tolerations=${JSON.stringify([{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }])}`,
      ...extraValues,
    ];
  };

  /** A rendered Deployment's plain env values, as its container gets them, with a kubeconfig of its ServiceAccount. */
  async function chartEnv(component: 'orchestrator' | 'builder', kc: KubeConfig): Promise<Record<string, string>> {
    const objects = await renderChart(admin, RELEASE, ns, chartValues());
    const deployment = objects.find(
      (o) => o.kind === 'Deployment' && o.metadata?.name === `${RELEASE}-${component}`,
    ) as V1Deployment;
    const env = Object.fromEntries(
      deployment
        .spec!.template.spec!.containers[0].env!.filter((e) => e.value !== undefined)
        .map((e) => [e.name, e.value!]),
    );
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'farm-kc-')), 'config');
    writeFileSync(file, kc.exportConfig());
    return { ...env, KUBECONFIG: file };
  }

  /** The agents' ConfigMap and Secret under the chart's names, with the addresses pods reach. */
  async function agentConfig(agent: AgentServices, extra: Record<string, string>, env: Record<string, string>) {
    await core.createNamespacedConfigMap(ns, {
      metadata: { name: env.FARM_AGENT_CONFIGMAP ?? env.FARM_BUILD_CONFIGMAP },
      data: {
        KAFKA_BROKERS: process.env.FARM_TEST_KAFKA_POD_BROKERS!,
        FARM_TOPIC_PREFIX: topicPrefix,
        OPENAI_BASE_URL: agent.OPENAI_BASE_URL,
        FARM_LLM_MAX_RETRIES: agent.FARM_LLM_MAX_RETRIES,
        FARM_SRM_URL: agent.FARM_SRM_URL,
        ...extra,
      },
    });
    await core.createNamespacedSecret(ns, {
      metadata: { name: env.FARM_AGENT_SECRET },
      stringData: { OPENAI_API_KEY: agent.OPENAI_API_KEY, FARM_COMPONENT_TOKEN: agent.FARM_COMPONENT_TOKEN },
    });
  }

  async function startOnRealNode(
    script: Parameters<typeof startFarmHarness>[2],
    agentSettings: Record<string, string>,
  ) {
    const orchestratorEnv = await chartEnv('orchestrator', asOrchestrator);
    const builderEnv = await chartEnv('builder', asBuilder);
    return startFarmHarness(
      bus,
      store,
      script,
      async (agent) => {
        await agentConfig(agent, agentSettings, orchestratorEnv);
        return kubernetesJobLauncherFromEnv(bus, testLog.child({ component: 'job-launcher' }), orchestratorEnv);
      },
      {
        serviceHost: node.gateway,
        buildsFor: async (farmBus) =>
          createBuildLauncher(loadConfig(builderConfigSchema, builderEnv), {
            bus: farmBus,
            log: testLog.child({ component: 'build-launcher' }),
            env: builderEnv,
          }),
      },
    );
  }

  /** The chart's NetworkPolicy for the Jobs' pods, its destinations the harness' services on the gateway. */
  async function applyEgressPolicy(harness: FarmHarness<KubernetesJobLauncher>) {
    const env = await chartEnv('orchestrator', asOrchestrator);
    const config = (await core.readNamespacedConfigMap(env.FARM_AGENT_CONFIGMAP, ns)).body.data!;
    const portOf = (url: string) => Number(new URL(url).port);
    const to = (port: number) =>
      JSON.stringify({ ipBlocks: [{ cidr: `${node.gateway}/32` }], peers: [], ports: [{ port, protocol: 'TCP' }] });
    const [policy] = await renderChart(admin, RELEASE, ns, [
      ...chartValues(),
      '-s',
      'templates/networkpolicy.yaml',
      '--set-json',
      `networkPolicy.codeEgress.bus=${to(Number(config.KAFKA_BROKERS.split(':').at(-1)))}`,
      '--set-json',
      `networkPolicy.codeEgress.gitRemotes=${to(portOf(harness.git.url))}`,
      '--set-json',
      `networkPolicy.codeEgress.model=${to(portOf(config.OPENAI_BASE_URL))}`,
      '--set-json',
      `networkPolicy.codeEgress.extraEgress=[{"to":[{"ipBlock":{"cidr":"${node.gateway}/32"}}],"ports":[{"port":${portOf(config.FARM_SRM_URL)},"protocol":"TCP"}]}]`,
    ]);
    await net.createNamespacedNetworkPolicy(ns, policy as V1NetworkPolicy);
  }

  const podsOf = async (id: string, managedBy: string): Promise<V1Pod[]> =>
    (
      await core.listNamespacedPod(
        ns,
        undefined,
        undefined,
        undefined,
        undefined,
        `farm.dev/change-request-id=${id},app.kubernetes.io/managed-by=${managedBy}`,
      )
    ).body.items;

  test('with the chart’s defaults a hostile check runs confined in the sandbox sidecar: nothing leaks, the request is DONE', async () => {
    h = await startOnRealNode({ chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] }, {});
    // Under the chart's own egress policy, opened for exactly the bus, git server, model and srm the pods use.
    await applyEgressPolicy(h);
    const config = (
      await core.readNamespacedConfigMap((await chartEnv('orchestrator', asOrchestrator)).FARM_AGENT_CONFIGMAP, ns)
    ).body.data!;
    const targets = [
      config.KAFKA_BROKERS,
      new URL(config.OPENAI_BASE_URL).host,
      new URL(config.FARM_SRM_URL).host,
      new URL(h.git.url).host,
    ];
    const repo = await h.seed('real-hostile.git', { ...MULTI_REPO_FILES, 'hostile.sh': hostileCheck(targets) });
    const id = await h.submit({
      repoUrl: repo.url,
      title: 'Lower-case strings',
      checkCommand: 'sh hostile.sh && node --test',
    });
    const ts = await h.watch(id);
    const own = h.results.filter((r) => r.changeRequestId === id);
    // A leak makes the check fail, and the task with it: its notes then carry the LEAK lines.
    expect(own.flatMap((r) => r.notes).join('\n')).not.toMatch(/LEAK/);
    expect(phasesOf(ts).at(-1)).toBe('DONE');
    const state = await getRequest(store, id);
    expect(state!.tasks.map((t) => t.status)).toEqual(['SUCCESS']);
    expect(await remoteBranchSha(repo.url, state!.tasks[0].branch)).toBe(state!.tasks[0].commitSha);
    const build = h.builds.filter((b) => b.changeRequestId === id);
    expect(build.map((b) => farm.v1.BuildStatus[b.status])).toEqual(['BUILD_PASSED']);
    expect(await remoteBranchSha(repo.url, `farm/${id}`)).toBe(build[0].commitSha);

    // Followed live from the pod: its agent published each step to Kafka as it took it, the orchestrator kept them
    // (what GET .../tasks/{taskId}/events streams). Steps and the result travel on different topics: wait for the last.
    let steps: StoredStep[] = [];
    for (let i = 0; i < 80; i++) {
      steps = await readTaskSteps(store, id, state!.tasks[0].id, 0, 1000);
      if (steps.some((s) => s.step.event === 'result')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const events = steps.map((s) => s.step.event);
    expect(events).toEqual(expect.arrayContaining(['check_started', 'check_step', 'result']));
    expect(events.indexOf('check_started')).toBeLessThan(events.indexOf('result'));
    expect(new Set(steps.map((s) => `${s.dispatch} ${s.runId}`)).size).toBe(1);

    // Both ran on the real node, from the image, with the chart's securityContext, each with its sandbox sidecar:
    // a native sidecar without the Secret, its own seccomp profile (Unconfined), the chart's container security.
    const chart = JSON.parse((await chartEnv('orchestrator', asOrchestrator)).FARM_JOB_POD) as {
      securityContext: object;
      containerSecurityContext: object;
    };
    // The results are published before the containers exit: wait for both pods to have ended.
    let pods: V1Pod[] = [];
    for (let i = 0; i < 240; i++) {
      pods = [...(await podsOf(id, 'farm-orchestrator')), ...(await podsOf(id, 'farm-builder'))];
      if (pods.length === 2 && pods.every((p) => p.status?.phase === 'Succeeded')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(pods.map((p) => p.status!.phase)).toEqual(['Succeeded', 'Succeeded']);
    for (const pod of pods) {
      expect(pod.spec!.nodeName).toBe(node.name);
      expect(pod.spec!.containers[0].image).toBe(node.image);
      expect(pod.spec!.securityContext).toEqual(chart.securityContext);
      expect(pod.spec!.containers[0].securityContext).toEqual(chart.containerSecurityContext);
      expect(pod.status!.containerStatuses![0].containerID).toMatch(/^containerd:\/\//);
      const [sidecar] = pod.spec!.initContainers!;
      expect(sidecar).toMatchObject({ name: 'sandbox', restartPolicy: 'Always' });
      expect(sidecar.envFrom ?? []).toEqual([]);
      expect(sidecar.securityContext).toEqual({
        ...chart.containerSecurityContext,
        runAsUser: 1000,
        runAsGroup: 1000,
        seccompProfile: { type: 'Unconfined' },
      });
    }
    expect((await batch.listNamespacedJob(ns)).body.items).toHaveLength(2);
  }, 300_000);

  test('the same check without the sidecar, the risk accepted, finds the secrets and the connections: the control', async () => {
    extraValues = ['--set', 'sandbox.sidecar=false'];
    h = await startOnRealNode(
      { chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] },
      { FARM_SANDBOX_ACCEPT_RISK: 'all' },
    );
    await applyEgressPolicy(h);
    const config = (
      await core.readNamespacedConfigMap((await chartEnv('orchestrator', asOrchestrator)).FARM_AGENT_CONFIGMAP, ns)
    ).body.data!;
    const repo = await h.seed('real-unconfined.git', {
      ...MULTI_REPO_FILES,
      'hostile.sh': hostileCheck([config.KAFKA_BROKERS, new URL(h.git.url).host]),
    });
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings', checkCommand: 'sh hostile.sh' });
    const ts = await h.watch(id);
    expect(phasesOf(ts).at(-1)).toBe('FAILED');
    const notes = h.results
      .filter((r) => r.changeRequestId === id)
      .flatMap((r) => r.notes)
      .join('\n');
    expect(notes).toMatch(/LEAK: a secret in \/proc\/\d+\/environ/); // the environment itself is scrubbed even so
    expect(notes).toMatch(/LEAK: wrote \/work\/farm-hostile/);
    expect(notes).toMatch(/LEAK: connected to /);
  }, 300_000);

  test('with the sidecar under RuntimeDefault the sandbox cannot confine the checks: the task is refused, naming the setting', async () => {
    extraValues = ['--set', 'sandbox.seccompProfile.type=RuntimeDefault'];
    h = await startOnRealNode({ chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] }, {});
    const repo = await h.seed('real-refused.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    const ts = await h.watch(id);
    expect(phasesOf(ts).at(-1)).toBe('FAILED');
    const own = h.results.filter((r) => r.changeRequestId === id);
    expect(own.map((r) => [farm.v1.CommitStatus[r.status], failedStepName(r.failedStep)])).toEqual([
      ['HARD_FAIL', 'check'],
    ]);
    expect(own[0].notes.join('\n')).toMatch(/sandbox\.seccompProfile/);
    const [pod] = await podsOf(id, 'farm-orchestrator');
    expect(pod.spec!.nodeName).toBe(node.name);
    expect(await remoteBranchSha(repo.url, `agt/${own[0].taskId}`)).toBeUndefined();
  }, 240_000);

  test('an agent past the chart’s memory limit is OOMKilled by the kernel and the task fails saying so', async () => {
    extraValues = [
      '--set',
      'jobs.resources.limits.memory=40Mi',
      '--set',
      'jobs.resources.requests.memory=40Mi',
      '--set',
      'jobs.backoffLimit=0', // one pod is enough to see it
    ];
    h = await startOnRealNode({ chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] }, {});
    const repo = await h.seed('real-oom.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    const ts = await h.watch(id);
    expect(phasesOf(ts).at(-1)).toBe('FAILED');
    const own = h.results.filter((r) => r.changeRequestId === id);
    expect(own.map((r) => farm.v1.CommitStatus[r.status])).toEqual(['HARD_FAIL']);
    expect(own[0].notes.join('\n')).toMatch(/out of memory: the agent was OOMKilled at its 40Mi limit/);
    const pods = await podsOf(id, 'farm-orchestrator');
    expect(pods.map((p) => p.status!.containerStatuses![0].state!.terminated!.reason)).toContain('OOMKilled');
  }, 240_000);

  test('an agent pod deleted mid-task (kubectl delete pod): its container is stopped, the task runs again and the request is DONE', async () => {
    // The model answers slowly, so the pod is deleted while the agent waits on it.
    h = await startOnRealNode({ chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER, 8000)] }, {});
    const repo = await h.seed('real-deleted.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    let deleted: string | undefined;
    const watching = h.watch(id);
    for (let i = 0; i < 400 && !deleted; i++) {
      const running = (await podsOf(id, 'farm-orchestrator')).find(
        (p) => p.status?.containerStatuses?.find((c) => c.name === 'agent')?.state?.running,
      );
      if (running) {
        deleted = running.metadata!.name!;
        await core.deleteNamespacedPod(deleted, ns);
      } else await new Promise((r) => setTimeout(r, 250));
    }
    expect(deleted).toBeDefined();
    const ts = await watching;
    expect(phasesOf(ts).at(-1)).toBe('DONE');
    const state = await getRequest(store, id);
    expect(state!.tasks.map((t) => t.status)).toEqual(['SUCCESS']);
    expect(await remoteBranchSha(repo.url, state!.tasks[0].branch)).toBe(state!.tasks[0].commitSha);
    // The deleted pod is gone; the task's work was done by another pod.
    const pods = await podsOf(id, 'farm-orchestrator');
    expect(pods.map((p) => p.metadata!.name)).not.toContain(deleted);
    expect(pods.length).toBeGreaterThanOrEqual(1);
  }, 300_000);
});
