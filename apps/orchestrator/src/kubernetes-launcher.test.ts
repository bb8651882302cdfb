// Runs against KubernetesApiDouble, an HTTP double of the Kubernetes API (no kube-apiserver can be installed
// here); the commit results go over the real in-process bus.
import { farm } from '@farm/proto';
import { InProcessBus, Topics } from '@farm/bus';
import { silentLogger } from '@farm/runtime';
import { KubernetesApiDouble } from '../testing';
import { KubernetesJobLauncher, type KubernetesJobLauncherConfig } from './kubernetes-launcher';
import { jobNameFor, labelValue } from './kubernetes-job-spec';
import { launcherMetrics } from './kubernetes-metrics';

const NS = 'farm';
let api: KubernetesApiDouble;
let bus: InProcessBus;
let results: farm.v1.CommitResult[];
const launchers: KubernetesJobLauncher[] = [];

beforeEach(async () => {
  api = await new KubernetesApiDouble().start();
  bus = new InProcessBus();
  results = [];
  await bus.subscribe(Topics.commitResults, 'test-observer', async (r) => void results.push(r));
});

afterEach(async () => {
  await Promise.all(launchers.splice(0).map((l) => l.close()));
  await bus.close();
  await api.stop();
});

function launcher(overrides: Partial<KubernetesJobLauncherConfig> = {}): KubernetesJobLauncher {
  const l = new KubernetesJobLauncher({
    kubeConfig: api.kubeConfig(NS),
    bus,
    log: silentLogger,
    job: {
      namespace: NS,
      image: 'registry.example.com/agent-farm:1.2.3',
      secretName: 'farm-secrets',
      configMapName: 'farm-agent-env',
      serviceAccountName: 'farm-agent',
    },
    resultGraceMs: 100,
    pollIntervalMs: 50,
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

async function eventually<T>(probe: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function outcomeCount(outcome: string): Promise<number> {
  return (await launcherMetrics.jobs.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

const jobOf = (t: farm.v1.ICodingTask) => api.job(NS, jobNameFor(t.id!, t.dispatch!));
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('KubernetesJobLauncher', () => {
  test('creates one Job per task with the task, ids, limits, security context and Secret', async () => {
    const t = task();
    await launcher().launch(t);
    const job = jobOf(t)!;
    expect(job).toBeDefined();
    expect(job.metadata.name).toMatch(/^agt-[a-z0-9-]+$/);
    expect(job.metadata.name.length).toBeLessThanOrEqual(63);
    expect(job.metadata.labels).toMatchObject({
      'farm.dev/change-request-id': t.changeRequestId,
      'farm.dev/task-id': labelValue(t.id),
      'app.kubernetes.io/name': 'coding-agent',
      'app.kubernetes.io/part-of': 'agent-farm',
      'app.kubernetes.io/managed-by': 'farm-orchestrator',
    });
    expect(job.metadata.annotations['farm.dev/task-id']).toBe(t.id);
    expect(job.spec).toMatchObject({ backoffLimit: 1, activeDeadlineSeconds: 1800, ttlSecondsAfterFinished: 3600 });
    expect(job.spec.podFailurePolicy.rules).toEqual([
      { action: 'FailJob', onExitCodes: { containerName: 'agent', operator: 'In', values: [2, 3, 64] } },
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    ]);
    const pod = job.spec.template.spec;
    expect(pod).toMatchObject({
      restartPolicy: 'Never',
      serviceAccountName: 'farm-agent',
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    });
    const c = pod.containers[0];
    expect(c.image).toBe('registry.example.com/agent-farm:1.2.3');
    expect(c.args).toEqual(['node', '--import', 'tsx', 'apps/coding-agent/src/job.ts']);
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(c.resources.requests).toMatchObject({ cpu: '500m', memory: '1Gi' });
    expect(c.resources.limits).toMatchObject({ cpu: '2', memory: '2Gi' });
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'farm-agent-env' } }, { secretRef: { name: 'farm-secrets' } }]);
    const env = Object.fromEntries(c.env.map((e: { name: string; value: string }) => [e.name, e.value]));
    expect(farm.v1.CodingTask.decode(Buffer.from(env.FARM_TASK, 'base64')).toJSON()).toEqual(t.toJSON());
    expect(env.FARM_WORK_DIR).toBe('/work');
    expect(c.volumeMounts).toEqual([
      { name: 'work', mountPath: '/work' },
      { name: 'tmp', mountPath: '/tmp' },
    ]);
    expect(pod.volumes.map((v: { emptyDir?: object }) => !!v.emptyDir)).toEqual([true, true]);
  });

  test('a Job that completes counts as succeeded and publishes nothing on the agent’s behalf', async () => {
    const l = launcher();
    const before = await outcomeCount('succeeded');
    const t = task();
    await l.launch(t);
    expect(l.running).toBe(1);
    api.completeJob(NS, jobOf(t)!.metadata.name);
    await eventually(() => l.running === 0, 'the Job to finish');
    await eventually(() => jobOf(t)?.metadata.annotations['farm.dev/outcome'] === 'succeeded', 'the outcome mark');
    expect(await outcomeCount('succeeded')).toBe(before + 1);
    await settle();
    expect(results).toEqual([]);
  });

  const failures: [
    string,
    Parameters<KubernetesApiDouble['failJob']>[2],
    Parameters<KubernetesApiDouble['failJob']>[3],
    string,
    RegExp,
  ][] = [
    [
      'out of memory',
      'BackoffLimitExceeded',
      { terminated: { reason: 'OOMKilled', exitCode: 137 } },
      'oom_killed',
      /OOMKilled at its 2Gi limit/,
    ],
    ['deadline', 'DeadlineExceeded', undefined, 'deadline_exceeded', /DeadlineExceeded.*activeDeadlineSeconds 1800/],
    [
      'image pull',
      'DeadlineExceeded',
      {
        waiting: {
          reason: 'ImagePullBackOff',
          message: 'Back-off pulling image "registry.example.com/agent-farm:1.2.3"',
        },
      },
      'image_pull_failed',
      /image registry.example.com\/agent-farm:1.2.3 could not be pulled \(ImagePullBackOff/,
    ],
    [
      'crash',
      'BackoffLimitExceeded',
      { terminated: { reason: 'Error', exitCode: 1 } },
      'crashed',
      /agent exited 1 \(Error\); retries exhausted/,
    ],
    [
      'bad input',
      'PodFailurePolicy',
      { terminated: { reason: 'Error', exitCode: 64 } },
      'bad_input',
      /rejected its task or configuration/,
    ],
  ];

  test.each(failures)(
    'a Job that fails (%s) without a result gets a HARD_FAIL saying why',
    async (_what, reason, pod, outcome, why) => {
      const l = launcher();
      const before = await outcomeCount(outcome);
      const t = task();
      await l.launch(t);
      api.failJob(NS, jobOf(t)!.metadata.name, reason, pod);
      const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
      expect(r.status).toBe(farm.v1.CommitStatus.HARD_FAIL);
      expect(r.changeRequestId).toBe(t.changeRequestId);
      expect(r.dispatch).toBe(1);
      expect(r.failedStep).toBe('agent');
      expect(r.notes.join('\n')).toMatch(why);
      expect(r.notes.join('\n')).toMatch(/the agent published no result/);
      expect(await outcomeCount(outcome)).toBe(before + 1);
      expect(l.running).toBe(0);
    },
  );

  test('a Job the agent failed itself (exit 3 after reporting) gets no second result', async () => {
    const l = launcher();
    const t = task();
    await l.launch(t);
    api.failJob(NS, jobOf(t)!.metadata.name, 'PodFailurePolicy', { terminated: { reason: 'Error', exitCode: 3 } });
    await eventually(() => l.running === 0, 'the Job to finish');
    await settle();
    expect(results).toEqual([]);
  });

  test('a result published just before the deadline killed the pod is not contradicted', async () => {
    const l = launcher({ resultGraceMs: 2000 });
    const t = task();
    await l.launch(t);
    const own = farm.v1.CommitResult.create({
      taskId: t.id,
      changeRequestId: t.changeRequestId,
      dispatch: 1,
      status: farm.v1.CommitStatus.SOFT_FAIL,
    });
    await bus.publish(Topics.commitResults, own);
    api.failJob(NS, jobOf(t)!.metadata.name, 'DeadlineExceeded');
    await eventually(() => l.running === 0, 'the Job to finish');
    await settle();
    expect(results.map((r) => r.status)).toEqual([farm.v1.CommitStatus.SOFT_FAIL]);
  });

  test('a pod stuck pulling its image fails its task before the deadline and frees the slot', async () => {
    const l = launcher({ imagePullGraceMs: 0 });
    const t = task();
    await l.launch(t);
    api.setPodWaiting(NS, jobOf(t)!.metadata.name, 'ErrImagePull', 'manifest unknown');
    const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
    expect(r.notes[0]).toMatch(/could not be pulled \(ErrImagePull: manifest unknown\)/);
    await eventually(() => !jobOf(t), 'the stuck Job to be deleted');
    expect(l.running).toBe(0);
  });

  test('at most maxRunningJobs run; the rest queue in order, and the ConfigMap can raise the cap', async () => {
    const l = launcher({ maxRunningJobs: 2 });
    const tasks = [task(), task(), task(), task()];
    for (const t of tasks) await l.launch(t);
    expect(tasks.map((t) => !!jobOf(t))).toEqual([true, true, false, false]);
    expect(l.queued).toBe(2);
    expect((await launcherMetrics.running.get()).values[0].value).toBe(2);

    api.completeJob(NS, jobOf(tasks[0])!.metadata.name);
    await eventually(() => jobOf(tasks[2]), 'the third task to start');
    expect(jobOf(tasks[3])).toBeUndefined(); // in order, and still two at once

    api.setConfigMap(NS, 'farm-launcher', { maxRunningJobs: '5' }); // what `farm scale --mode jobs` writes
    await eventually(() => jobOf(tasks[3]), 'the fourth task to start after the cap was raised');
    await eventually(() => l.running === 3, 'the launcher to count it');

    api.setConfigMap(NS, 'farm-launcher', { maxRunningJobs: '0' }); // pause launching
    const paused = task();
    await l.launch(paused);
    expect(jobOf(paused)).toBeUndefined();
    expect(l.queued).toBe(1);
  });

  test('cancel deletes the request’s Jobs with their pods and drops its queued tasks', async () => {
    const l = launcher({ maxRunningJobs: 2 });
    const a1 = task('cr-a'),
      a2 = task('cr-a'),
      b1 = task('cr-b'),
      a3 = task('cr-a');
    for (const t of [a1, a2, b1, a3]) await l.launch(t);
    expect([a1, a2, b1, a3].map((t) => !!jobOf(t))).toEqual([true, true, false, false]);
    const before = await outcomeCount('cancelled');

    await l.cancel('cr-a');
    expect(jobOf(a1)).toBeUndefined();
    expect(jobOf(a2)).toBeUndefined();
    expect(api.podsOf(NS, jobNameFor(a1.id, 1))).toEqual([]);
    const del = api.requests.find((r) => r.method === 'DELETE' && r.path === `/apis/batch/v1/namespaces/${NS}/jobs`)!;
    expect(del.query.labelSelector).toContain('farm.dev/change-request-id=cr-a');
    expect(del.query.propagationPolicy ?? del.body?.propagationPolicy).toBe('Background');
    expect(await outcomeCount('cancelled')).toBe(before + 2);

    await eventually(() => jobOf(b1), 'the other request’s task to take a free slot');
    await settle();
    expect(jobOf(a3)).toBeUndefined();
    expect(l.queued).toBe(0);
    expect(results).toEqual([]); // cancelled Jobs are not failures
  });

  test('a restarted launcher adopts running Jobs and reports the ones that failed while it was away', async () => {
    const first = launcher();
    const running = task(),
      failed = task();
    await first.launch(running);
    await first.launch(failed);
    await first.close();
    api.failJob(NS, jobOf(failed)!.metadata.name, 'BackoffLimitExceeded', {
      terminated: { reason: 'OOMKilled', exitCode: 137 },
    });

    const second = launcher({ maxRunningJobs: 1 });
    await second.start();
    const r = await eventually(
      () => results.find((x) => x.taskId === failed.id),
      'a HARD_FAIL for the Job that failed meanwhile',
    );
    expect(r.notes[0]).toMatch(/OOMKilled/);
    expect(second.running).toBe(1); // the adopted one holds the only slot
    const next = task();
    await second.launch(next);
    expect(jobOf(next)).toBeUndefined();
    api.completeJob(NS, jobOf(running)!.metadata.name);
    await eventually(() => jobOf(next), 'the queued task once the adopted Job finished');
  });

  test('launching the same task twice follows the one Job', async () => {
    const l = launcher();
    const t = task();
    await l.launch(t);
    await l.launch(t);
    expect(api.jobs(NS)).toHaveLength(1);
    expect(l.running).toBe(1);
  });

  test('keeps following its Jobs across watch ends, re-listing so an expired resourceVersion cannot lose events', async () => {
    const l = launcher();
    const t1 = task(),
      t2 = task();
    await l.launch(t1);
    await l.launch(t2);
    api.closeWatches();
    api.completeJob(NS, jobOf(t1)!.metadata.name);
    await eventually(() => l.running === 1, 'the first Job to be seen finished after the watch ended');
    api.compactHistory();
    api.closeWatches();
    api.failJob(NS, jobOf(t2)!.metadata.name, 'DeadlineExceeded');
    await eventually(() => results.find((x) => x.taskId === t2.id), 'a HARD_FAIL after re-listing');
  });

  test('a Job the API refuses fails its task with the API’s reason', async () => {
    const l = launcher({
      job: { namespace: NS, image: 'x', labels: { 'team.example.com/owner': 'not a valid label value!' } },
    });
    const t = task();
    await l.launch(t);
    const r = await eventually(() => results.find((x) => x.taskId === t.id), 'a HARD_FAIL');
    expect(r.notes[0]).toMatch(/could not create Kubernetes Job .*is invalid/);
    expect(l.running).toBe(0);
  });
});
