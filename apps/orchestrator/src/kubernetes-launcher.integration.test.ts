/** @farm-kubernetes (waits for the test cluster; run last) */
// The Job launcher on a real control plane (kube-apiserver, the Job controller, the scheduler) with pods run by
// the project's process node, all started by the jest global set-up unless KUBECONFIG is given. It talks to
// the API as the chart's orchestrator ServiceAccount; the commit results go over the real in-process bus.
// The pods run a small shell script in place of the agent that exits with whatever code the test writes into
// a file for its Job (under the checkout, which the process node maps to the image's /app).
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BatchV1Api, CoreV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import { failedStepName, farm } from '@farm/proto';
import { InProcessBus, Topics } from '@farm/bus';
import { createLogger, silentLogger } from '@farm/runtime';
import { KubernetesJobLauncher, type KubernetesJobLauncherConfig } from './kubernetes-launcher';
import { apiError, labelValue } from '@farm/kube';
import { jobNameFor } from './kubernetes-job-spec';
import { kubernetesJobLauncherFromEnv } from './kubernetes-launcher-config';
import { launcherMetrics } from './kubernetes-metrics';
import {
  TEST_AGENT_IMAGE,
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
  orchestratorAsChartServiceAccount,
} from '../testing';

const CHECKOUT = path.resolve(__dirname, '../../..');
/**
 * Waits for `$SIGNALS/<hash of its task>` and exits with the code in it, or is killed by SIGKILL on `KILL`.
 * (By task, not by pod name: a long Job name is cut short in its pods' names.)
 */
const WAIT_FOR_SIGNAL = [
  'sh',
  '-c',
  'f="$SIGNALS/$(printf %s "$FARM_TASK" | sha256sum | cut -c1-16)"; until [ -e "$f" ]; do sleep 0.1; done; ' +
    'c=$(cat "$f"); [ "$c" = KILL ] && kill -KILL $$; exit "$c"',
];

const admin = adminKubeConfig();
const adminBatch = admin.makeApiClient(BatchV1Api);
const adminCore = admin.makeApiClient(CoreV1Api);
let ns: string;
let asOrchestrator: KubeConfig;
let agentSa: string;
let signals: string;
let bus: InProcessBus;
let results: farm.v1.CommitResult[];
const launchers: KubernetesJobLauncher[] = [];

beforeEach(async () => {
  ns = await createTestNamespace(admin, 'launcher');
  const rbac = await orchestratorAsChartServiceAccount(admin, ns);
  asOrchestrator = rbac.kubeConfig;
  agentSa = rbac.agentServiceAccount;
  signals = path.join(CHECKOUT, '.cache/test-signals', ns);
  mkdirSync(signals, { recursive: true });
  bus = new InProcessBus();
  results = [];
  await bus.subscribe(Topics.commitResults, 'test-observer', async (r) => void results.push(r));
});

afterEach(async () => {
  await Promise.all(launchers.splice(0).map((l) => l.close()));
  await bus?.close();
  await deleteTestNamespace(admin, ns);
  rmSync(signals, { recursive: true, force: true });
});

/** Job settings whose pods wait for the test's signal (WAIT_FOR_SIGNAL), as the agent's ServiceAccount. */
const waitingJob = (): KubernetesJobLauncherConfig['job'] => ({
  namespace: ns,
  image: TEST_AGENT_IMAGE,
  serviceAccountName: agentSa,
  args: WAIT_FOR_SIGNAL,
  env: { SIGNALS: `/app/.cache/test-signals/${ns}` },
});
const waiting = (job: Partial<KubernetesJobLauncherConfig['job']>) => ({ job: { ...waitingJob(), ...job } });

function launcher(overrides: Partial<KubernetesJobLauncherConfig> = {}): KubernetesJobLauncher {
  const l = new KubernetesJobLauncher({
    kubeConfig: asOrchestrator,
    bus,
    log: silentLogger,
    job: waitingJob(),
    resultGraceMs: 100,
    pollIntervalMs: 200,
    rewatchDelayMs: 20,
    ...overrides,
  });
  launchers.push(l);
  return l;
}

let seq = 0;
function task(changeRequestId = 'cr-7d1c0b2e-4f0a-4b8e-9a55-2d3c1e0f9a11', n = ++seq): farm.v1.CodingTask {
  return farm.v1.CodingTask.create({
    id: `${changeRequestId}-item-${n}`,
    changeRequestId,
    goal: 'Add multiply to the calculator',
    repo: { url: 'http://git.farm.svc/calc.git', baseRef: 'main', baseCommit: 'a'.repeat(40) },
    dispatch: 1,
  });
}

/** Ends the task's pod: an exit code, or KILL for a SIGKILL without a result. */
function finish(t: farm.v1.ICodingTask, how: number | 'KILL'): void {
  const farmTask = Buffer.from(farm.v1.CodingTask.encode(t).finish()).toString('base64');
  const file = path.join(signals, createHash('sha256').update(farmTask).digest('hex').slice(0, 16));
  writeFileSync(`${file}.tmp`, String(how));
  renameSync(`${file}.tmp`, file); // never half-written when the pod reads it
}

async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function outcomeCount(outcome: string): Promise<number> {
  return (await launcherMetrics.jobs.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

async function jobOf(t: farm.v1.ICodingTask): Promise<V1Job | undefined> {
  try {
    return (await adminBatch.readNamespacedJob(jobNameFor(t.id!, t.dispatch!), ns)).body;
  } catch (err) {
    if (apiError(err).code === 404) return undefined;
    throw err;
  }
}
const exists = async (ts: farm.v1.ICodingTask[]) => Promise.all(ts.map(async (t) => !!(await jobOf(t))));
const podsOf = async (t: farm.v1.ICodingTask) =>
  (
    await adminCore.listNamespacedPod(
      ns,
      undefined,
      undefined,
      undefined,
      undefined,
      `batch.kubernetes.io/job-name=${jobNameFor(t.id!, t.dispatch!)}`,
    )
  ).body.items;
const setCap = async (value: string) => {
  const body = { metadata: { name: 'farm-launcher' }, data: { maxRunningJobs: value } }; // what `farm scale --mode jobs` writes
  await adminCore.replaceNamespacedConfigMap('farm-launcher', ns, body).catch(async (err) => {
    if (apiError(err).code !== 404) throw err;
    await adminCore.createNamespacedConfigMap(ns, body);
  });
};
const settle = () => new Promise((r) => setTimeout(r, 1000));

describe('KubernetesJobLauncher on a real control plane', () => {
  test('creates one Job per task with the task, ids, limits, security context and Secret', async () => {
    const t = task();
    await launcher({
      job: {
        namespace: ns,
        image: 'registry.example.com/agent-farm:1.2.3',
        secretName: 'farm-secrets',
        configMapName: 'farm-agent-env',
        serviceAccountName: agentSa,
      },
    }).launch(t);
    const job = (await jobOf(t))!;
    expect(job).toBeDefined();
    expect(job.metadata!.name).toMatch(/^agt-[a-z0-9-]+$/);
    expect(job.metadata!.name!.length).toBeLessThanOrEqual(63);
    expect(job.metadata!.labels).toMatchObject({
      'farm.dev/change-request-id': t.changeRequestId,
      'farm.dev/task-id': labelValue(t.id),
      'app.kubernetes.io/name': 'coding-agent',
      'app.kubernetes.io/part-of': 'agent-farm',
      'app.kubernetes.io/managed-by': 'farm-orchestrator',
    });
    expect(job.metadata!.annotations!['farm.dev/task-id']).toBe(t.id);
    expect(job.spec).toMatchObject({ backoffLimit: 1, activeDeadlineSeconds: 1800, ttlSecondsAfterFinished: 3600 });
    expect(job.spec!.podFailurePolicy!.rules).toEqual([
      { action: 'FailJob', onExitCodes: { containerName: 'agent', operator: 'In', values: [2, 3, 64] } },
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    ]);
    const pod = job.spec!.template.spec!;
    expect(pod).toMatchObject({
      restartPolicy: 'Never',
      serviceAccountName: agentSa,
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    });
    const c = pod.containers[0];
    expect(c.image).toBe('registry.example.com/agent-farm:1.2.3');
    expect(c.args).toEqual(['node', 'dist/agent-job.mjs']);
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(c.resources!.requests).toMatchObject({ cpu: '500m', memory: '1Gi' });
    expect(c.resources!.limits).toMatchObject({ cpu: '2', memory: '2Gi' });
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'farm-agent-env' } }, { secretRef: { name: 'farm-secrets' } }]);
    const env = Object.fromEntries(c.env!.map((e) => [e.name, e.value!]));
    expect(farm.v1.CodingTask.decode(Buffer.from(env.FARM_TASK, 'base64')).toJSON()).toEqual(t.toJSON());
    expect(env.FARM_WORK_DIR).toBe('/work');
    expect(env.FARM_CHECKOUT_DIR).toBe('/work/checkouts');
    expect(env.FARM_SANDBOX_RUNNER).toBe('/run/farm-sandbox/runner.sock');
    expect(c.volumeMounts!.map(({ name, mountPath }) => ({ name, mountPath }))).toEqual([
      { name: 'work', mountPath: '/work' },
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'checkouts', mountPath: '/work/checkouts' },
      { name: 'sandbox-control', mountPath: '/run/farm-sandbox' },
    ]);
    expect(pod.volumes!.map((v) => !!v.emptyDir)).toEqual([true, true, true, true, true]);
    // the repository's commands run in the sandbox sidecar: no Secret, no ConfigMap, its own seccomp profile
    const [sandbox] = pod.initContainers!;
    expect(sandbox).toMatchObject({
      name: 'sandbox',
      restartPolicy: 'Always',
      args: ['node', 'dist/sandbox-runner.mjs'],
    });
    expect(sandbox.envFrom).toBeUndefined();
    expect(sandbox.securityContext!.seccompProfile).toEqual({ type: 'Unconfined' });
  });

  test('a Job that completes counts as succeeded and publishes nothing on the agent’s behalf', async () => {
    const l = launcher();
    const before = await outcomeCount('succeeded');
    const t = task();
    await l.launch(t);
    expect(l.running).toBe(1);
    finish(t, 0);
    await eventually(() => l.running === 0, 'the Job to finish');
    await eventually(
      async () => (await jobOf(t))?.metadata?.annotations?.['farm.dev/outcome'] === 'succeeded',
      'the outcome mark',
    );
    expect((await jobOf(t))!.status!.succeeded).toBe(1);
    expect(await outcomeCount('succeeded')).toBe(before + 1);
    await settle();
    expect(results).toEqual([]);
  });

  const failures: [string, Partial<KubernetesJobLauncherConfig['job']>, number | 'KILL' | undefined, string, RegExp][] =
    [
      [
        'deadline',
        { activeDeadlineSeconds: 2 },
        undefined,
        'deadline_exceeded',
        /\(DeadlineExceeded\).*activeDeadlineSeconds 2/,
      ],
      [
        'crash',
        { backoffLimit: 0 },
        1,
        'crashed',
        /\(BackoffLimitExceeded\).*agent exited 1 \(Error\); retries exhausted \(backoffLimit 0\)/,
      ],
      ['killed', { backoffLimit: 0 }, 'KILL', 'crashed', /agent exited 137 \(Error\); retries exhausted/],
      ['bad input', {}, 64, 'bad_input', /\(PodFailurePolicy\).*rejected its task or configuration/],
    ];

  test.each(failures)(
    'a Job that fails (%s) without a result gets a failure saying why (SOFT_FAIL agent-died when it crashed)',
    async (_what, job, how, outcome, why) => {
      const l = launcher(waiting(job));
      const before = await outcomeCount(outcome);
      const t = task();
      await l.launch(t);
      if (how !== undefined) finish(t, how);
      const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
      const crashed = outcome === 'crashed';
      expect(r.status).toBe(crashed ? farm.v1.CommitStatus.SOFT_FAIL : farm.v1.CommitStatus.HARD_FAIL);
      expect(r.changeRequestId).toBe(t.changeRequestId);
      expect(r.dispatch).toBe(1);
      expect(failedStepName(r.failedStep)).toBe(crashed ? 'agent-died' : 'agent');
      expect(r.notes.join('\n')).toMatch(why);
      expect(r.notes.join('\n')).toMatch(/the agent published no result/);
      expect(await outcomeCount(outcome)).toBe(before + 1);
      expect(l.running).toBe(0);
    },
  );

  test('a Job the agent failed itself (exit 3 after reporting) fails at once through the podFailurePolicy and gets no second result', async () => {
    const l = launcher(); // backoffLimit 1: without the policy the Job controller would start a second pod
    const t = task();
    await l.launch(t);
    finish(t, 3);
    await eventually(() => l.running === 0, 'the Job to finish');
    const job = (await jobOf(t))!;
    expect(job.status!.conditions!.find((c) => c.type === 'Failed')?.reason).toBe('PodFailurePolicy');
    expect(job.status!.failed).toBe(1); // no retry
    await settle();
    expect(results).toEqual([]);
  });

  test('a result published just before the deadline killed the pod is not contradicted', async () => {
    const l = launcher({ ...waiting({ activeDeadlineSeconds: 2 }), resultGraceMs: 2000 });
    const t = task();
    await l.launch(t);
    const own = farm.v1.CommitResult.create({
      taskId: t.id,
      changeRequestId: t.changeRequestId,
      dispatch: 1,
      status: farm.v1.CommitStatus.SOFT_FAIL,
    });
    await bus.publish(Topics.commitResults, own);
    await eventually(() => l.running === 0, 'the deadline to fail the Job');
    await settle();
    expect(results.map((r) => r.status)).toEqual([farm.v1.CommitStatus.SOFT_FAIL]);
  });

  test('a pod stuck pulling its image fails its task before the deadline and frees the slot', async () => {
    const l = launcher({
      job: { namespace: ns, image: 'registry.example.com/agent-farm:1.2.3', serviceAccountName: agentSa },
      imagePullGraceMs: 0,
    });
    const t = task();
    await l.launch(t);
    const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
    expect(r.notes[0]).toMatch(
      /image registry.example.com\/agent-farm:1.2.3 could not be pulled \(ErrImagePull: the farm process node has no image/,
    );
    await eventually(async () => !(await jobOf(t)), 'the stuck Job to be deleted');
    expect(l.running).toBe(0);
  });

  test('a pod whose Secret is missing fails its task as unable to start', async () => {
    const l = launcher({ ...waiting({ secretName: 'no-such-secret' }), imagePullGraceMs: 0 });
    const t = task();
    await l.launch(t);
    const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
    expect(r.notes[0]).toMatch(/could not start \(CreateContainerConfigError: secret "no-such-secret" not found\)/);
    expect(await outcomeCount('cannot_start')).toBeGreaterThan(0);
  });

  test('at most maxRunningJobs run; the rest queue in order, and the ConfigMap can raise the cap', async () => {
    const l = launcher({ maxRunningJobs: 2 });
    const tasks = [task(), task(), task(), task()];
    for (const t of tasks) await l.launch(t);
    expect(await exists(tasks)).toEqual([true, true, false, false]);
    expect(l.queued).toBe(2);
    expect((await launcherMetrics.running.get()).values[0].value).toBe(2);

    finish(tasks[0], 0);
    await eventually(() => jobOf(tasks[2]), 'the third task to start');
    expect(await jobOf(tasks[3])).toBeUndefined(); // in order, and still two at once

    await setCap('5');
    await eventually(() => jobOf(tasks[3]), 'the fourth task to start after the cap was raised');
    await eventually(() => l.running === 3, 'the launcher to count it');

    await setCap('0'); // pause launching
    const paused = task();
    await l.launch(paused);
    expect(await jobOf(paused)).toBeUndefined();
    expect(l.queued).toBe(1);
  });

  test('twenty queued tasks never have more than the cap of Jobs running at once, and all of them finish', async () => {
    const cap = 3;
    const l = launcher({ maxRunningJobs: cap });
    const tasks = Array.from({ length: 20 }, () => task('cr-twenty'));
    for (const t of tasks) await l.launch(t);
    let most = 0;
    const done = new Set<string>();
    while (done.size < tasks.length) {
      const jobs = (await adminBatch.listNamespacedJob(ns)).body.items;
      const unfinished = jobs.filter(
        (j) => !j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'),
      );
      most = Math.max(most, unfinished.length);
      // Finish the running ones, two at a time, so that launches and completions interleave.
      for (const j of unfinished.slice(0, 2)) {
        const t = tasks.find((x) => jobNameFor(x.id, 1) === j.metadata!.name)!;
        if (!done.has(t.id)) finish(t, 0);
        done.add(t.id);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await eventually(() => l.running === 0 && l.queued === 0, 'every task to finish', 90_000);
    expect(most).toBeLessThanOrEqual(cap);
    expect(most).toBe(cap);
    const jobs = (await adminBatch.listNamespacedJob(ns)).body.items;
    expect(jobs).toHaveLength(20);
    expect(jobs.every((j) => j.status?.succeeded === 1)).toBe(true);
  }, 180_000);

  test('cancel deletes the request’s Jobs with their pods and drops its queued tasks', async () => {
    const l = launcher({ maxRunningJobs: 2 });
    const a1 = task('cr-a'),
      a2 = task('cr-a'),
      b1 = task('cr-b'),
      a3 = task('cr-a');
    for (const t of [a1, a2, b1, a3]) await l.launch(t);
    expect(await exists([a1, a2, b1, a3])).toEqual([true, true, false, false]);
    await eventually(async () => (await podsOf(a1)).some((p) => p.status?.phase === 'Running'), 'a1’s pod to run');
    const before = await outcomeCount('cancelled');

    await l.cancel('cr-a');
    expect(await jobOf(a1)).toBeUndefined();
    expect(await jobOf(a2)).toBeUndefined();
    // Propagation Background: the garbage collector deletes the pods and the node kills their processes.
    await eventually(async () => (await podsOf(a1)).length === 0 && (await podsOf(a2)).length === 0, 'the pods to go');
    expect(await outcomeCount('cancelled')).toBe(before + 2);

    await eventually(() => jobOf(b1), 'the other request’s task to take a free slot');
    await settle();
    expect(await jobOf(a3)).toBeUndefined();
    expect(l.queued).toBe(0);
    expect(results).toEqual([]); // cancelled Jobs are not failures
  });

  test('a restarted launcher adopts running Jobs and reports the ones that failed while it was away', async () => {
    const first = launcher(waiting({ backoffLimit: 0 }));
    const running = task(),
      failed = task();
    await first.launch(running);
    await first.launch(failed);
    await first.close();
    finish(failed, 'KILL');
    await eventually(
      async () => (await jobOf(failed))?.status?.conditions?.some((c) => c.type === 'Failed'),
      'the Job to fail while no launcher runs',
    );

    const second = launcher({ ...waiting({ backoffLimit: 0 }), maxRunningJobs: 1 });
    await second.start();
    const r = await eventually(
      () => results.find((x) => x.taskId === failed.id),
      'a HARD_FAIL for the Job that failed meanwhile',
    );
    expect(r.notes[0]).toMatch(/the agent exited 137/);
    expect(second.running).toBe(1); // the adopted one holds the only slot
    const next = task();
    await second.launch(next);
    expect(await jobOf(next)).toBeUndefined();
    finish(running, 0);
    await eventually(() => jobOf(next), 'the queued task once the adopted Job finished');
    expect(results.filter((x) => x.taskId === failed.id)).toHaveLength(1);
  });

  test('launching the same task twice follows the one Job', async () => {
    const l = launcher();
    const t = task();
    await l.launch(t);
    await l.launch(t);
    expect((await adminBatch.listNamespacedJob(ns)).body.items).toHaveLength(1);
    expect(l.running).toBe(1);
  });

  test('keeps following its Jobs across watch ends, watching again each time', async () => {
    const lines: string[] = [];
    const log = createLogger('launcher-test', { level: 'debug', write: (line) => lines.push(line) });
    const relists = () => lines.filter((x) => x.includes('Job watch ended; watching again')).length;
    const l = launcher({ log, watchTimeoutSeconds: 1 });
    const t1 = task(),
      t2 = task();
    await l.launch(t1);
    await l.launch(t2);
    await eventually(() => relists() >= 1, 'the server to end the watch', 10_000);
    finish(t1, 0);
    await eventually(() => l.running === 1, 'the first Job to be seen finished across watch ends');
    const seen = relists();
    await eventually(() => relists() > seen, 'the server to end the watch again', 10_000);
    finish(t2, 'KILL');
    await eventually(() => results.find((x) => x.taskId === t2.id), 'a HARD_FAIL after watching again');
  });

  test('a Job the API refuses fails its task with the API’s reason', async () => {
    const l = launcher({
      job: { namespace: ns, image: 'x', labels: { 'team.example.com/owner': 'not a valid label value!' } },
    });
    const t = task();
    await l.launch(t);
    const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
    expect(r.notes[0]).toMatch(/could not create Kubernetes Job .*is invalid/);
    expect(l.running).toBe(0);
  });

  test('the orchestrator’s ServiceAccount may run Jobs in its namespace and nothing more', async () => {
    const batch = asOrchestrator.makeApiClient(BatchV1Api);
    const core = asOrchestrator.makeApiClient(CoreV1Api);
    await expect(batch.listNamespacedJob(ns)).resolves.toBeDefined();
    await expect(core.listNamespacedPod(ns)).resolves.toBeDefined();
    const other = await createTestNamespace(admin, 'elsewhere');
    try {
      const refused = async (p: Promise<unknown>) =>
        apiError(
          await p.then(
            () => undefined,
            (e) => e,
          ),
        ).code;
      expect(await refused(batch.listNamespacedJob(other))).toBe(403);
      expect(await refused(batch.createNamespacedJob(other, { metadata: { name: 'x' } }))).toBe(403);
      expect(await refused(core.listNamespacedSecret(ns))).toBe(403);
      expect(await refused(core.readNamespacedSecret('agent-farm-secrets', ns))).toBe(403);
      expect(await refused(core.createNamespacedConfigMap(ns, { metadata: { name: 'other' } }))).toBe(403);
      expect(await refused(core.readNamespacedConfigMap('agent-farm-config', ns))).toBe(403);
    } finally {
      await deleteTestNamespace(admin, other);
    }
  });

  test('the launcher takes the Job settings the Helm chart gives the orchestrator', async () => {
    const dir = path.join(signals, 'kubeconfig');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'config'), asOrchestrator.exportConfig());
    const l = kubernetesJobLauncherFromEnv(bus, silentLogger, {
      KUBECONFIG: path.join(dir, 'config'),
      FARM_AGENT_IMAGE: 'registry.example.com/agent-farm:0.2.0',
      FARM_K8S_NAMESPACE: ns,
      FARM_RELEASE: 'farm-a',
      FARM_AGENT_SECRET: 'farm-a-secrets',
      FARM_JOB_MEMORY_LIMIT: '6Gi',
      FARM_JOB_DEADLINE_S: '900',
      FARM_JOB_BACKOFF_LIMIT: '0',
      FARM_SANDBOX_SECCOMP: 'Localhost',
      FARM_SANDBOX_SECCOMP_PROFILE: 'farm/sandbox-runner.json',
      FARM_SANDBOX_MEMORY_LIMIT: '3Gi',
    });
    launchers.push(l);
    const t = farm.v1.CodingTask.create({
      id: 'cr-1-item-1',
      changeRequestId: 'cr-1',
      goal: 'g',
      repo: { url: 'http://git/x.git', baseCommit: 'b'.repeat(40) },
    });
    await l.launch(t);
    const job = (await adminBatch.readNamespacedJob(jobNameFor(t.id, 0), ns)).body;
    expect(job.metadata!.labels!['app.kubernetes.io/instance']).toBe('farm-a');
    expect(job.spec).toMatchObject({ activeDeadlineSeconds: 900, backoffLimit: 0 });
    const c = job.spec!.template.spec!.containers[0];
    expect(c.image).toBe('registry.example.com/agent-farm:0.2.0');
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '6Gi' } });
    expect(c.envFrom).toEqual([{ secretRef: { name: 'farm-a-secrets' } }]);
    const sandbox = job.spec!.template.spec!.initContainers![0];
    expect(sandbox.securityContext!.seccompProfile).toEqual({
      type: 'Localhost',
      localhostProfile: 'farm/sandbox-runner.json',
    });
    expect(sandbox.resources!.limits).toMatchObject({ memory: '3Gi' });
  });
});
