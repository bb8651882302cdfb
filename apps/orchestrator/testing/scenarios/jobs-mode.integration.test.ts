/** @farm-kubernetes (waits for the test cluster; run last) */
// Jobs mode end to end: change requests on real Kafka and PostgreSQL whose coding tasks run as Kubernetes Jobs
// on the real control plane, each pod the real agent (apps/coding-agent/src/job.ts from the farm image, which
// the project's process node maps onto this checkout), with the git server and the scripted model. The
// orchestrator's launcher talks to the API as the chart's ServiceAccount. All of it is started by the jest
// global set-up unless KAFKA_BROKERS / DATABASE_URL / KUBECONFIG are given.
import { BatchV1Api, CoreV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import { failedStepName, farm } from '@farm/proto';
import { KafkaBus, type EventBus } from '@farm/bus';
import { getRequest } from '@farm/orchestrator';
import { KubernetesJobLauncher, type KubernetesJobLauncherConfig } from '@farm/orchestrator';
import { KubernetesBuildLauncher, type BuildJobSettings } from '@farm/builder';
import { startFarmHarness, testLog, type AgentServices, type FarmHarness } from './farm-harness';
import {
  ADD_DIVIDE_AFTER_MULTIPLY,
  ADD_LOWER,
  ADD_MULTIPLY,
  MULTI_REPO_FILES,
  agentStep,
  planStep,
} from '@farm/cli/testing';
import {
  TEST_AGENT_IMAGE,
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  orchestratorAsChartServiceAccount,
} from '@farm/orchestrator/testing';
import { remoteBranchSha } from '@farm/git';
import { createPgStore, type SqlStore } from '@farm/store';
import { cancelChangeRequest } from '@farm/cli';

const phasesOf = (ts: farm.v1.PhaseTransition[]) => ts.filter((t) => !t.taskId).map((t) => farm.v1.Phase[t.toPhase]);
const THREE_ITEMS = [
  { id: 'mul', goal: 'Add multiply to the calculator', symbols: ['calculatorExports'] },
  { id: 'str', goal: 'Add lower to the strings module', symbols: ['upper'] },
  { id: 'div', goal: 'Add divide to the calculator', symbols: ['calculatorExports'] },
];
const ONE_ITEM = [THREE_ITEMS[1]];

const admin = adminKubeConfig();
const batch = admin.makeApiClient(BatchV1Api);
const core = admin.makeApiClient(CoreV1Api);

describe('jobs mode: coding tasks as Kubernetes Jobs, on Kafka and PostgreSQL', () => {
  const topicPrefix = `jobs-${Date.now()}.`;
  let bus: KafkaBus;
  let store: SqlStore;
  let ns: string;
  let asOrchestrator: KubeConfig;
  let asBuilder: KubeConfig;
  let agentServiceAccount: string;
  let h: FarmHarness<KubernetesJobLauncher> | undefined;

  beforeAll(async () => {
    bus = await KafkaBus.connect({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      clientId: 'jobs-mode-test',
      topicPrefix,
    });
    store = createPgStore(process.env.DATABASE_URL!);
  });
  beforeEach(async () => {
    ns = await createTestNamespace(admin, 'jobs');
    ({
      kubeConfig: asOrchestrator,
      builderKubeConfig: asBuilder,
      agentServiceAccount,
    } = await orchestratorAsChartServiceAccount(admin, ns));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await deleteTestNamespace(admin, ns);
  });
  afterAll(async () => {
    await bus.close();
    await store.close();
  });

  /**
   * The agents' settings as the chart gives them: non-secret ones in a ConfigMap, the model key in a Secret,
   * both passed whole to the Job (envFrom); the launcher as the orchestrator's main.ts builds it.
   */
  function jobsLauncher(job: Partial<KubernetesJobLauncherConfig['job']> = {}, maxRunningJobs = 4) {
    return async (agent: AgentServices) => {
      await core
        .createNamespacedConfigMap(ns, {
          metadata: { name: 'agent-farm-config' },
          data: {
            KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
            FARM_TOPIC_PREFIX: topicPrefix,
            OPENAI_BASE_URL: agent.OPENAI_BASE_URL,
            FARM_LLM_MAX_RETRIES: agent.FARM_LLM_MAX_RETRIES,
            FARM_SRM_URL: agent.FARM_SRM_URL,
          },
        })
        .catch(ignoreConflict); // a restarted orchestrator finds them there
      await core
        .createNamespacedSecret(ns, {
          metadata: { name: 'agent-farm-secrets' },
          stringData: { OPENAI_API_KEY: agent.OPENAI_API_KEY, FARM_COMPONENT_TOKEN: agent.FARM_COMPONENT_TOKEN },
        })
        .catch(ignoreConflict);
      return new KubernetesJobLauncher({
        kubeConfig: asOrchestrator,
        bus,
        log: testLog.child({ component: 'job-launcher' }),
        maxRunningJobs,
        resultGraceMs: 2000,
        pollIntervalMs: 1000,
        job: {
          namespace: ns,
          image: TEST_AGENT_IMAGE,
          serviceAccountName: agentServiceAccount,
          configMapName: 'agent-farm-config',
          secretName: 'agent-farm-secrets',
          ...job,
        },
      });
    };
  }

  /**
   * The builds as the builder's main.ts runs them in jobs mode: a Job per build, created as the chart's builder
   * ServiceAccount, with the agents' ConfigMap (the Kafka settings) as environment.
   */
  const buildsAsJobs = (job: Partial<BuildJobSettings> = {}) => ({
    buildsFor: async (farmBus: EventBus) =>
      new KubernetesBuildLauncher({
        kubeConfig: asBuilder,
        bus: farmBus,
        log: testLog.child({ component: 'build-launcher' }),
        job: {
          namespace: ns,
          image: TEST_AGENT_IMAGE,
          serviceAccountName: agentServiceAccount,
          configMapName: 'agent-farm-config',
          ...job,
        },
      }),
  });

  const selecting = (id: string, managedBy: string) =>
    `farm.dev/change-request-id=${id},app.kubernetes.io/managed-by=${managedBy}`;
  const jobsOf = async (id: string, managedBy = 'farm-orchestrator'): Promise<V1Job[]> =>
    (await batch.listNamespacedJob(ns, undefined, undefined, undefined, undefined, selecting(id, managedBy))).body
      .items;
  const podsOf = async (id: string, managedBy = 'farm-orchestrator') =>
    (await core.listNamespacedPod(ns, undefined, undefined, undefined, undefined, selecting(id, managedBy))).body.items;

  test('three tasks run as Jobs to DONE across an orchestrator restart, none launched twice', async () => {
    h = await startFarmHarness(
      bus,
      store,
      {
        chat: [
          planStep(THREE_ITEMS),
          agentStep('Add multiply', ADD_MULTIPLY, 2500),
          agentStep('Add divide', ADD_DIVIDE_AFTER_MULTIPLY),
          agentStep('Add lower', ADD_LOWER),
        ],
      },
      jobsLauncher(),
      buildsAsJobs(),
    );
    const repo = await h.seed('jobs-three.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    let restarted: Promise<void> | undefined;
    const ts = await h.watch(id, (t) => {
      // A new orchestrator with a new launcher while the first Jobs run: it re-attaches to them.
      if (!restarted && t.taskState === farm.v1.TaskState.TASK_DISPATCHED) restarted = h!.restartOrchestrator();
    });
    await restarted;
    expect(phasesOf(ts).at(-1)).toBe('DONE');
    const state = await getRequest(store, id);
    expect(state!.tasks.map((t) => t.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    for (const t of state!.tasks) expect(await remoteBranchSha(repo.url, t.branch)).toBe(t.commitSha);
    expect(await remoteBranchSha(repo.url, `farm/${id}`)).toBeTruthy();

    const jobs = await jobsOf(id);
    expect(jobs.map((j) => j.metadata!.annotations!['farm.dev/task-id']).sort()).toEqual(
      state!.tasks.map((t) => t.id).sort(),
    );
    // The agent publishes before it exits, so DONE may come before the Job controller counts the last pod.
    await expectEventually(
      async () => (await jobsOf(id)).every((j) => j.status?.succeeded === 1),
      'every Job to count its pod succeeded',
    );
    expect((await jobsOf(id)).every((j) => !j.status!.failed)).toBe(true);
    expect(await podsOf(id)).toHaveLength(3); // one pod per task: nothing launched twice
    const successes = h.results.filter((r) => r.changeRequestId === id && r.status === farm.v1.CommitStatus.SUCCESS);
    expect(successes).toHaveLength(3);
    // The build ran as its own Job (not in the orchestrator): one Job, one pod, which pushed farm/<id>.
    const build = h.builds.filter((b) => b.changeRequestId === id);
    expect(build.map((b) => farm.v1.BuildStatus[b.status])).toEqual(['BUILD_PASSED']);
    expect(await remoteBranchSha(repo.url, `farm/${id}`)).toBe(build[0].commitSha);
    const buildJobs = await jobsOf(id, 'farm-builder');
    expect(buildJobs.map((j) => j.metadata!.annotations!['farm.dev/change-request-id'])).toEqual([id]);
    await expectEventually(
      async () => (await jobsOf(id, 'farm-builder'))[0].status?.succeeded === 1,
      'the build Job to count its pod succeeded',
    );
    expect(await podsOf(id, 'farm-builder')).toHaveLength(1);
  }, 300_000);

  test('a build Job that fails without reporting fails the request, saying why', async () => {
    h = await startFarmHarness(
      bus,
      store,
      { chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] },
      jobsLauncher(),
      buildsAsJobs({ args: ['sh', '-c', 'exit 1'] }), // the build crashes before it publishes anything
    );
    const repo = await h.seed('jobs-build-crash.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    const ts = await h.watch(id);
    const last = ts.filter((t) => !t.taskId).at(-1)!;
    expect(farm.v1.Phase[last.toPhase]).toBe('FAILED');
    expect(last.reason).toMatch(/^build failed: build Job bld-[a-z0-9-]+ failed \(BackoffLimitExceeded/);
    const build = h.builds.filter((b) => b.changeRequestId === id);
    expect(build.map((b) => farm.v1.BuildStatus[b.status])).toEqual(['BUILD_FAILED']);
    // Reported once, and marked so that a restarted builder does not report it again.
    const [job] = await jobsOf(id, 'farm-builder');
    expect(job.metadata!.annotations!['farm.dev/reported']).toBe('true');
    expect(await remoteBranchSha(repo.url, `farm/${id}`)).toBeUndefined();
  }, 180_000);

  test('an agent’s HARD_FAIL (exit 3) fails its Job through the podFailurePolicy without a retry', async () => {
    h = await startFarmHarness(
      bus,
      store,
      { chat: [planStep(ONE_ITEM), { match: 'TASK GOAL:\nAdd lower', repeat: true, fault: { status: 401 } }] },
      jobsLauncher({ backoffLimit: 3 }), // retries allowed: only the policy keeps the Job from using them
    );
    const repo = await h.seed('jobs-hard.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    const ts = await h.watch(id);
    const last = ts.filter((t) => !t.taskId).at(-1)!;
    expect(farm.v1.Phase[last.toPhase]).toBe('FAILED');
    expect(last.reason).toMatch(/HARD_FAIL/);
    const own = h.results.filter((r) => r.changeRequestId === id);
    expect(own.map((r) => [farm.v1.CommitStatus[r.status], failedStepName(r.failedStep)])).toEqual([
      ['HARD_FAIL', 'llm'],
    ]);
    const [job] = await jobsOf(id);
    await expectEventually(async () => {
      const j = (await batch.readNamespacedJob(job.metadata!.name!, ns)).body;
      return (
        j.status?.conditions?.find((c) => c.type === 'Failed' && c.status === 'True')?.reason === 'PodFailurePolicy'
      );
    }, 'the Job failed by its podFailurePolicy');
    const pods = await podsOf(id);
    expect(pods).toHaveLength(1);
    expect(pods[0].status!.containerStatuses![0].state!.terminated!.exitCode).toBe(3);
  }, 180_000);

  test('a pod killed without a result is a SOFT_FAIL agent-died that says so: dispatched again, then FAILED', async () => {
    h = await startFarmHarness(
      bus,
      store,
      { chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] },
      // The agent is killed (SIGKILL) before it can report anything.
      jobsLauncher({ backoffLimit: 0, args: ['sh', '-c', 'kill -KILL $$'] }),
    );
    const repo = await h.seed('jobs-killed.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    const ts = await h.watch(id);
    expect(phasesOf(ts).at(-1)).toBe('FAILED');
    // Every dispatch's pod is killed the same way: each is a SOFT_FAIL agent-died, until dispatches run out.
    const mine = h.results.filter((x) => x.changeRequestId === id);
    expect(mine.map((r) => [farm.v1.CommitStatus[r.status], failedStepName(r.failedStep), r.dispatch])).toEqual([
      ['SOFT_FAIL', 'agent-died', 1],
      ['SOFT_FAIL', 'agent-died', 2],
    ]);
    expect(mine[0].notes.join('\n')).toMatch(/the agent exited 137 \(Error\).*the agent published no result/s);
  }, 180_000);

  test('the Job deadline (activeDeadlineSeconds) turns into a HARD_FAIL naming it', async () => {
    h = await startFarmHarness(
      bus,
      store,
      { chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER, 60_000)] }, // the model never answers in time
      jobsLauncher({ activeDeadlineSeconds: 5 }),
    );
    const repo = await h.seed('jobs-deadline.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    const ts = await h.watch(id);
    expect(phasesOf(ts).at(-1)).toBe('FAILED');
    const r = h.results.find((x) => x.changeRequestId === id)!;
    expect(farm.v1.CommitStatus[r.status]).toBe('HARD_FAIL');
    expect(r.notes.join('\n')).toMatch(
      /failed \(DeadlineExceeded\): ran longer than its deadline \(activeDeadlineSeconds 5\)/,
    );
    // The Job controller stopped the pod, and the node its process.
    await expectEventually(async () => (await podsOf(id)).every((p) => p.status?.phase === 'Failed'), 'the pod to end');
  }, 180_000);

  test('farm cancel during the build deletes the build Job', async () => {
    h = await startFarmHarness(
      bus,
      store,
      { chat: [planStep(ONE_ITEM), agentStep('Add lower', ADD_LOWER)] },
      jobsLauncher(),
      buildsAsJobs({ args: ['sh', '-c', 'sleep 120'] }), // a build that would run for minutes
    );
    const repo = await h.seed('jobs-build-cancel.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Lower-case strings' });
    let cancelled: Promise<void> | undefined;
    const ts = await h.watch(id, (t) => {
      if (cancelled || t.taskId || farm.v1.Phase[t.toPhase] !== 'BUILD') return;
      cancelled = expectEventually(
        async () => (await podsOf(id, 'farm-builder')).some((p) => p.status?.phase === 'Running'),
        'the build pod running',
      ).then(() => cancelChangeRequest(bus, id, 'not needed any more'));
    });
    await cancelled;
    expect(phasesOf(ts).at(-1)).toBe('CANCELLED');
    await expectEventually(async () => (await jobsOf(id, 'farm-builder')).length === 0, 'the build Job to be deleted');
    await expectEventually(async () => (await podsOf(id, 'farm-builder')).length === 0, 'its pod to be deleted');
    expect(h.builds.filter((b) => b.changeRequestId === id)).toEqual([]);
  }, 180_000);

  test('farm cancel deletes the request’s Jobs and their pods', async () => {
    h = await startFarmHarness(
      bus,
      store,
      {
        chat: [
          planStep(THREE_ITEMS.slice(0, 2)),
          agentStep('Add multiply', ADD_MULTIPLY, 60_000),
          agentStep('Add lower', ADD_LOWER, 60_000),
        ],
      },
      jobsLauncher(),
    );
    const repo = await h.seed('jobs-cancel.git', MULTI_REPO_FILES);
    const id = await h.submit({ repoUrl: repo.url, title: 'Extend the library' });
    let cancelled: Promise<void> | undefined;
    const ts = await h.watch(id, (t) => {
      if (cancelled || t.taskState !== farm.v1.TaskState.TASK_DISPATCHED) return;
      // Once both agents' pods run, the user cancels.
      cancelled = expectEventually(
        async () => (await podsOf(id)).filter((p) => p.status?.phase === 'Running').length === 2,
        'both pods running',
      ).then(() => cancelChangeRequest(bus, id, 'changed my mind'));
    });
    await cancelled;
    expect(phasesOf(ts).at(-1)).toBe('CANCELLED');
    await expectEventually(async () => (await jobsOf(id)).length === 0, 'the Jobs to be deleted');
    await expectEventually(async () => (await podsOf(id)).length === 0, 'their pods to be deleted');
    expect(h.results.filter((r) => r.changeRequestId === id)).toEqual([]); // killed agents, no failures reported
  }, 180_000);
});

function ignoreConflict(err: unknown): void {
  if ((err as { statusCode?: number }).statusCode !== 409) throw err;
}

async function expectEventually(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
