import {
  BatchV1Api,
  CoreV1Api,
  Watch,
  type KubeConfig,
  type V1Job,
  type V1JobCondition,
  type V1Pod,
} from '@kubernetes/client-node';
import { annotateJob, apiError, labelValue, terminalCondition } from '@farm/kube';
import { farm } from '@farm/proto';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { errorMessage, type Logger } from '@farm/runtime';
import {
  BAD_INPUT_EXIT_CODE,
  CONTAINER_NAME,
  LABELS,
  MANAGED_BY,
  MAX_TASK_ENV_BYTES,
  OUTCOME_ANNOTATION,
  REPORTED_EXIT_CODES,
  buildAgentJob,
  jobNameFor,
  type AgentJobSettings,
} from './kubernetes-job-spec';
import { launcherMetrics, type JobOutcome } from './kubernetes-metrics';
import { reportForAgent, type TaskLauncher } from './launcher';

export interface KubernetesJobLauncherConfig {
  kubeConfig: KubeConfig;
  bus: EventBus;
  log: Logger;
  job: AgentJobSettings;
  /** Jobs running at once when the cap ConfigMap says nothing (default 4). */
  maxRunningJobs?: number;
  /** ConfigMap in the Jobs' namespace whose key `maxRunningJobs` overrides the cap (`farm scale --mode jobs`). */
  capConfigMap?: string;
  /** Consumer group that follows commit results (default `k8s-job-launcher`). */
  resultGroup?: string;
  /** How long a failed Job's own result may still be in flight before HARD_FAIL is published (default 5 s). */
  resultGraceMs?: number;
  /** Pod scan for image pull failures; also re-reads the cap while tasks queue (default 15 s). */
  pollIntervalMs?: number;
  /** How long the agent container may wait on its image before its task fails (default 120 s). */
  imagePullGraceMs?: number;
  /** Pause before listing and watching again after a watch ended or failed (default 1 s). */
  rewatchDelayMs?: number;
  /** How long the server keeps one Job watch open before ending it (default 300 s); the launcher lists again. */
  watchTimeoutSeconds?: number;
}

export const DEFAULT_CAP_CONFIGMAP = 'farm-launcher';
export const CAP_KEY = 'maxRunningJobs';

/** Container waiting reasons that will not clear by themselves: the task fails instead of waiting for the deadline. */
const STUCK_WAITING: Record<string, JobOutcome> = {
  ImagePullBackOff: 'image_pull_failed',
  ErrImagePull: 'image_pull_failed',
  InvalidImageName: 'image_pull_failed',
  ErrImageNeverPull: 'image_pull_failed',
  CreateContainerConfigError: 'cannot_start',
  CreateContainerError: 'cannot_start',
};

interface TaskRef {
  id: string;
  changeRequestId: string;
  dispatch: number;
}

interface Tracked {
  ref: TaskRef;
  /** When it was tracked; a list taken before that may not show the Job yet. */
  since: number;
  /** When the agent container was first seen stuck waiting (image pull, missing Secret). */
  stuckSince?: number;
}

const resultKey = (taskId: string, dispatch: number) => `${taskId}#${dispatch}`;

/**
 * Cluster mode: one Kubernetes Job per CodingTask, running the agent's Job-style entry point with the task in
 * $FARM_TASK. At most `maxRunningJobs` run at once (re-read from a ConfigMap before each launch); extra tasks
 * queue in order. It lists and watches its Jobs by label and, when one fails without the agent having
 * published a result (OOMKilled, deadline, image pull, crash), publishes a HARD_FAIL CommitResult saying why.
 *
 * Whether the agent reported is known without the orchestrator's help, from two sources: the agent's exit
 * code (job.ts exits 0/2/3 only after publishing) and the launcher's own subscription to commit results (for
 * pods that are gone or were killed mid-way). Results are keyed by change request id, so the agent's own
 * result always precedes a HARD_FAIL published after its Job ended, and the orchestrator keeps the first.
 */
export class KubernetesJobLauncher implements TaskLauncher {
  private readonly batch: BatchV1Api;
  private readonly core: CoreV1Api;
  private readonly ns: string;
  private readonly selector: string;
  private readonly active = new Map<string, Tracked>(); // by Job name
  private readonly queue: farm.v1.ICodingTask[] = [];
  /** Result keys of tasks whose Job runs or just failed, and those of them whose result arrived. */
  private readonly expected = new Set<string>();
  private readonly reported = new Set<string>();
  private readonly reporting = new Set<Promise<void>>();
  private started?: Promise<void>;
  private pumping: Promise<void> = Promise.resolve();
  private watchRequest?: { abort(): void };
  private rewatchTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private results?: Subscription;
  private cap: number;
  private closed = false;
  private closing?: Promise<void>;

  constructor(private readonly config: KubernetesJobLauncherConfig) {
    this.batch = config.kubeConfig.makeApiClient(BatchV1Api);
    this.core = config.kubeConfig.makeApiClient(CoreV1Api);
    this.ns = config.job.namespace;
    this.cap = config.maxRunningJobs ?? 4;
    // Scoped to this release so that two farms sharing a namespace never adopt each other's Jobs.
    this.selector = `${LABELS.managedBy}=${MANAGED_BY},app.kubernetes.io/instance=${config.job.instance ?? 'agent-farm'}`;
  }

  /**
   * Subscribes to results, adopts the Jobs a previous process left and starts watching; retried until the API
   * answers, so launches wait (and queue) while it is unreachable rather than fail. Idempotent.
   */
  start(): Promise<void> {
    this.started ??= (async () => {
      for (let delay = 1000; !this.closed; delay = Math.min(delay * 2, 30_000)) {
        try {
          return await this.startOnce();
        } catch (err) {
          this.config.log.error('Kubernetes API not reachable; retrying', {
            err: apiError(err).message,
            delayMs: delay,
          });
          await this.results?.stop();
          await sleep(delay);
        }
      }
    })();
    return this.started;
  }

  async launch(task: farm.v1.ICodingTask): Promise<void> {
    this.queue.push(task);
    launcherMetrics.queued.set(this.queue.length);
    await this.start();
    await this.pump();
  }

  /** Drops the request's queued tasks and deletes its Jobs (their pods go with them). */
  async cancel(changeRequestId: string): Promise<void> {
    await this.start();
    for (let i = this.queue.length - 1; i >= 0; i--)
      if (this.queue[i].changeRequestId === changeRequestId) this.queue.splice(i, 1);
    launcherMetrics.queued.set(this.queue.length);
    for (const [name, t] of this.active) {
      if (t.ref.changeRequestId !== changeRequestId) continue;
      this.untrack(name);
      this.forget(t.ref);
      launcherMetrics.jobs.inc({ outcome: 'cancelled' });
    }
    // By label rather than by name: also removes Jobs of this request that an earlier process created.
    await this.batch.deleteCollectionNamespacedJob(
      this.ns,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      `${this.selector},${LABELS.changeRequestId}=${labelValue(changeRequestId)}`,
      undefined,
      undefined,
      'Background',
    );
    this.config.log.info('cancelled coding-agent Jobs', { changeRequestId });
    await this.pump();
  }

  /** Stops watching; running Jobs go on and are adopted by the next process. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.closed = true;
    clearTimeout(this.rewatchTimer);
    clearInterval(this.pollTimer);
    this.watchRequest?.abort();
    await this.pumping;
    await Promise.all(this.reporting);
    await this.results?.stop();
  }

  /** Jobs created and not finished. */
  get running(): number {
    return this.active.size;
  }

  /** Tasks waiting for a free slot. */
  get queued(): number {
    return this.queue.length;
  }

  private async startOnce(): Promise<void> {
    this.results = await this.config.bus.subscribe(
      Topics.commitResults,
      this.config.resultGroup ?? 'k8s-job-launcher',
      async (r) => {
        const key = resultKey(r.taskId, r.dispatch ?? 0);
        if (this.expected.has(key)) this.reported.add(key);
      },
      { fromBeginning: false },
    );
    await this.listAndWatch(true);
    this.pollTimer = setInterval(() => void this.poll(), this.config.pollIntervalMs ?? 15_000);
    this.pollTimer.unref();
  }

  /**
   * List, reconcile, then watch from the list's resourceVersion: the usual informer pattern, redone whenever
   * the watch ends (server timeout, 410 Expired, network), so no Job event is missed across reconnects.
   */
  private async listAndWatch(adopt: boolean): Promise<void> {
    const listedAt = Date.now();
    const list = await this.batch.listNamespacedJob(this.ns, undefined, undefined, undefined, undefined, this.selector);
    const seen = new Set<string>();
    for (const job of list.body.items) {
      seen.add(job.metadata!.name!);
      if (adopt && !this.active.has(job.metadata!.name!)) this.adopt(job);
      this.onJob('MODIFIED', job);
    }
    for (const [name, t] of [...this.active])
      if (!seen.has(name) && t.since < listedAt) this.onJob('DELETED', { metadata: { name } });
    if (this.closed) return;
    const path = `/apis/batch/v1/namespaces/${encodeURIComponent(this.ns)}/jobs`;
    const query = {
      labelSelector: this.selector,
      resourceVersion: list.body.metadata?.resourceVersion,
      timeoutSeconds: this.config.watchTimeoutSeconds ?? 300,
    };
    this.watchRequest = await new Watch(this.config.kubeConfig).watch(
      path,
      query,
      (type, job: V1Job) => {
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.onJob(type, job);
        // ERROR (e.g. 410 Expired): the stream ends next and we list again.
        else if (type === 'ERROR') this.config.log.warn('Job watch error; listing again', { status: job });
      },
      (err) => this.rewatch(err),
    );
  }

  private rewatch(err?: unknown): void {
    if (this.closed) return;
    if (err) this.config.log.warn('Job watch ended', { err: errorMessage(err) });
    else this.config.log.debug('Job watch ended; listing again');
    this.rewatchTimer = setTimeout(
      () => void this.listAndWatch(false).catch((e) => this.rewatch(e)),
      this.config.rewatchDelayMs ?? 1000,
    );
  }

  /** A Job left by an earlier process: count it while it runs; report it if it finished unreported. */
  private adopt(job: V1Job): void {
    if (job.metadata?.annotations?.[OUTCOME_ANNOTATION]) return;
    const ref = {
      id: job.metadata?.annotations?.[LABELS.taskId] ?? '',
      changeRequestId: job.metadata?.annotations?.[LABELS.changeRequestId] ?? '',
      dispatch: Number(job.metadata?.labels?.[LABELS.dispatch] ?? 0),
    };
    if (!ref.id || !ref.changeRequestId) return;
    this.track(job.metadata!.name!, ref);
    this.config.log.info('adopted coding-agent Job', { jobName: job.metadata!.name, taskId: ref.id });
  }

  private onJob(type: 'ADDED' | 'MODIFIED' | 'DELETED', job: V1Job): void {
    const name = job.metadata?.name ?? '';
    const tracked = this.active.get(name);
    if (!tracked) return; // not ours to follow (cancelled, finished, or another farm's)
    if (type === 'DELETED') {
      this.finish(name, tracked, 'lost', 'its Job was deleted before it finished');
      return;
    }
    const done = terminalCondition(job);
    if (!done) return;
    if (done.type === 'Complete') {
      this.finish(name, tracked, 'succeeded'); // exit 0: the agent published SUCCESS before exiting
      return;
    }
    this.untrack(name); // at once, so a second event for the same Job cannot finish it twice
    void this.track$(
      this.pods(name).then(
        (pods) => this.finishFailed(name, tracked, job, done, pods),
        (err) => this.finishFailed(name, tracked, job, done, [], errorMessage(err)),
      ),
    );
  }

  private async finishFailed(
    name: string,
    tracked: Tracked,
    job: V1Job,
    failed: V1JobCondition,
    pods: V1Pod[],
    podsError?: string,
  ): Promise<void> {
    const d = diagnose(job, failed, pods);
    if (podsError) d.why += ` (its pods could not be read: ${podsError})`;
    this.finish(
      name,
      tracked,
      d.outcome,
      d.reported ? undefined : `Kubernetes Job ${name} failed (${failed.reason}): ${d.why}`,
    );
  }

  /** Records the outcome, publishes a failure when the agent could not, marks the Job handled, launches more. */
  private finish(name: string, tracked: Tracked, outcome: JobOutcome, failure?: string): void {
    this.untrack(name);
    launcherMetrics.jobs.inc({ outcome });
    this.config.log[failure ? 'error' : 'info']('coding-agent Job finished', {
      changeRequestId: tracked.ref.changeRequestId,
      taskId: tracked.ref.id,
      jobName: name,
      outcome,
      failure,
    });
    void this.track$(
      (async () => {
        if (failure) await this.reportHardFail(tracked.ref, outcome, failure);
        else this.forget(tracked.ref);
        if (outcome !== 'lost') await this.markHandled(name, outcome);
      })(),
    );
    void this.pump();
  }

  private async reportHardFail(ref: TaskRef, outcome: JobOutcome, why: string): Promise<void> {
    const key = resultKey(ref.id, ref.dispatch);
    // The agent may have published just before it was killed; give that result time to arrive.
    const deadline = Date.now() + (this.config.resultGraceMs ?? 5000);
    while (!this.reported.has(key) && Date.now() < deadline && !this.closed) await sleep(50);
    const reported = this.reported.has(key);
    this.forget(ref);
    if (reported) return;
    // A crashed or vanished agent may have pushed already: another dispatch completes (or redoes) the task.
    // What would fail the same way again (bad input, no image, no Secret, OOM, its deadline) fails it for good.
    const died = outcome === 'crashed' || outcome === 'lost';
    const status = died ? farm.v1.CommitStatus.SOFT_FAIL : farm.v1.CommitStatus.HARD_FAIL;
    await reportForAgent(
      this.config.bus,
      ref,
      status,
      died ? farm.v1.FailedStep.STEP_AGENT_DIED : farm.v1.FailedStep.STEP_AGENT,
      [`${why}; the agent published no result`, `launcher outcome: ${outcome}`],
    );
  }

  private async markHandled(name: string, outcome: JobOutcome): Promise<void> {
    // If this fails, a restart may report this Job once more, which is harmless.
    await annotateJob(this.batch, this.ns, name, { [OUTCOME_ANNOTATION]: outcome }).catch((err) =>
      this.config.log.warn('could not mark Job handled', { jobName: name, err: apiError(err).message }),
    );
  }

  /** Launches queued tasks while fewer than the cap run; serialised so the cap holds. */
  private pump(): Promise<void> {
    this.pumping = this.pumping
      .then(() => this.launchQueued())
      .catch((err) => {
        this.config.log.error('launching queued tasks failed', { err: errorMessage(err) });
      });
    return this.pumping;
  }

  private async launchQueued(): Promise<void> {
    while (this.queue.length && !this.closed) {
      if (this.active.size >= (await this.readCap())) break;
      const task = this.queue.shift()!;
      launcherMetrics.queued.set(this.queue.length);
      if (!(await this.createJob(task))) {
        this.queue.unshift(task); // transient API trouble: keep its place and try again on the next poll
        break;
      }
    }
    launcherMetrics.queued.set(this.queue.length);
  }

  /** Creates the task's Job; false when the API failed in a way worth retrying. */
  private async createJob(task: farm.v1.ICodingTask): Promise<boolean> {
    const ref = { id: task.id!, changeRequestId: task.changeRequestId!, dispatch: task.dispatch ?? 0 };
    const name = jobNameFor(ref.id, ref.dispatch);
    const job = buildAgentJob(task, this.config.job);
    const taskEnv = job.spec!.template.spec!.containers[0].env!.find((e) => e.name === 'FARM_TASK')!.value!;
    if (taskEnv.length > MAX_TASK_ENV_BYTES) {
      launcherMetrics.jobs.inc({ outcome: 'create_failed' });
      void this.track$(
        this.reportHardFail(
          ref,
          'create_failed',
          `task is ${taskEnv.length} bytes in FARM_TASK, over the ${MAX_TASK_ENV_BYTES} an environment variable can carry`,
        ),
      );
      return true;
    }
    try {
      await this.batch.createNamespacedJob(this.ns, job);
      this.track(name, ref);
      this.config.log.info('coding-agent Job created', {
        changeRequestId: ref.changeRequestId,
        taskId: ref.id,
        jobName: name,
      });
      return true;
    } catch (err) {
      const { code, message } = apiError(err);
      if (code === 409) {
        // Launched again (e.g. after an orchestrator restart): follow the existing Job instead of a second one.
        this.track(name, ref);
        const existing = await this.batch.readNamespacedJob(name, this.ns).catch(() => undefined);
        if (existing) this.onJob('MODIFIED', existing.body);
        return true;
      }
      if (code !== undefined && code < 500 && code !== 429) {
        // Invalid spec, forbidden, quota: the same request will fail again.
        launcherMetrics.jobs.inc({ outcome: 'create_failed' });
        void this.track$(
          this.reportHardFail(ref, 'create_failed', `could not create Kubernetes Job ${name}: ${message}`),
        );
        return true;
      }
      this.config.log.warn('creating Job failed; will retry', { taskId: ref.id, jobName: name, err: message });
      return false;
    }
  }

  /** The cap from the ConfigMap, else the configured one; the last good value when the API is unreachable. */
  private async readCap(): Promise<number> {
    const fallback = this.config.maxRunningJobs ?? 4;
    try {
      const cm = await this.core.readNamespacedConfigMap(this.config.capConfigMap ?? DEFAULT_CAP_CONFIGMAP, this.ns);
      const raw = cm.body.data?.[CAP_KEY];
      const n = Number(raw);
      if (raw === undefined) this.cap = fallback;
      else if (Number.isInteger(n) && n >= 0) this.cap = n;
      else
        this.config.log.warn(`ConfigMap key ${CAP_KEY} is not a whole number >= 0; keeping ${this.cap}`, {
          value: raw,
        });
    } catch (err) {
      if (apiError(err).code === 404) this.cap = fallback;
      else
        this.config.log.warn('could not read the Job cap; keeping the last one', {
          cap: this.cap,
          err: apiError(err).message,
        });
    }
    return this.cap;
  }

  /** Fails tasks whose agent container is stuck waiting (bad image, missing Secret); retries queued tasks. */
  private async poll(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.active.size) await this.failStuckPods();
    } catch (err) {
      this.config.log.warn('pod scan failed', { err: apiError(err).message });
    }
    if (this.queue.length) await this.pump();
  }

  private async failStuckPods(): Promise<void> {
    const pods = (await this.core.listNamespacedPod(this.ns, undefined, undefined, undefined, undefined, this.selector))
      .body.items;
    const grace = this.config.imagePullGraceMs ?? 120_000;
    const stuck = new Map<string, { reason: string; message: string; image: string }>();
    for (const pod of pods) {
      const jobName = pod.metadata?.labels?.['batch.kubernetes.io/job-name'] ?? pod.metadata?.labels?.['job-name'];
      const c = pod.status?.containerStatuses?.find((s) => s.name === CONTAINER_NAME);
      const w = c?.state?.waiting;
      if (jobName && w?.reason && STUCK_WAITING[w.reason])
        stuck.set(jobName, { reason: w.reason, message: w.message ?? '', image: c!.image });
    }
    for (const [name, t] of [...this.active]) {
      const s = stuck.get(name);
      if (!s) {
        t.stuckSince = undefined;
        continue;
      }
      t.stuckSince ??= Date.now();
      if (Date.now() - t.stuckSince < grace) continue;
      const outcome = STUCK_WAITING[s.reason];
      const what =
        outcome === 'image_pull_failed'
          ? `image ${s.image} could not be pulled`
          : 'the agent container could not start';
      this.finish(
        name,
        t,
        outcome,
        `Kubernetes Job ${name}: ${what} (${s.reason}${s.message ? `: ${s.message}` : ''})`,
      );
      // It would only wait out its deadline; free the slot now.
      await this.batch
        .deleteNamespacedJob(name, this.ns, undefined, undefined, undefined, undefined, 'Background')
        .catch((err) =>
          this.config.log.warn('could not delete stuck Job', { jobName: name, err: apiError(err).message }),
        );
    }
  }

  private pods(jobName: string): Promise<V1Pod[]> {
    return this.core
      .listNamespacedPod(this.ns, undefined, undefined, undefined, undefined, `batch.kubernetes.io/job-name=${jobName}`)
      .then((r) => r.body.items);
  }

  private track(name: string, ref: TaskRef): void {
    this.active.set(name, { ref, since: Date.now() });
    this.expected.add(resultKey(ref.id, ref.dispatch));
    launcherMetrics.running.set(this.active.size);
  }

  private forget(ref: TaskRef): void {
    const key = resultKey(ref.id, ref.dispatch);
    this.expected.delete(key);
    this.reported.delete(key);
  }

  private untrack(name: string): void {
    this.active.delete(name);
    launcherMetrics.running.set(this.active.size);
  }

  /** Keeps background work (reports, annotations) so that close() waits for it. */
  private track$(p: Promise<void>): Promise<void> {
    const guarded = p.catch((err) =>
      this.config.log.error('launcher background work failed', { err: errorMessage(err) }),
    );
    this.reporting.add(guarded);
    void guarded.finally(() => this.reporting.delete(guarded));
    return guarded;
  }
}

/** Why a Job failed and whether its agent got to publish a result, from the Job's condition and its pods. */
export function diagnose(
  job: V1Job,
  failed: V1JobCondition,
  pods: V1Pod[],
): { outcome: JobOutcome; reported: boolean; why: string } {
  const statuses = pods.flatMap((p) => p.status?.containerStatuses ?? []).filter((c) => c.name === CONTAINER_NAME);
  const ended = statuses.flatMap((c) => [c.state?.terminated, c.lastState?.terminated]).filter((t) => !!t);
  const exit = ended.find((t) => REPORTED_EXIT_CODES.includes(t.exitCode));
  if (exit)
    return { outcome: 'agent_failed', reported: true, why: `the agent exited ${exit.exitCode} after reporting` };
  const waiting = statuses
    .map((c) => ({ w: c.state?.waiting, image: c.image }))
    .find((x) => x.w?.reason && STUCK_WAITING[x.w.reason]);
  if (waiting) {
    const outcome = STUCK_WAITING[waiting.w!.reason!];
    const what =
      outcome === 'image_pull_failed'
        ? `image ${waiting.image} could not be pulled`
        : 'the agent container could not start';
    return {
      outcome,
      reported: false,
      why: `${what} (${waiting.w!.reason}${waiting.w!.message ? `: ${waiting.w!.message}` : ''})`,
    };
  }
  const limit = job.spec?.template.spec?.containers.find((c) => c.name === CONTAINER_NAME)?.resources?.limits?.memory;
  if (ended.some((t) => t.reason === 'OOMKilled'))
    return {
      outcome: 'oom_killed',
      reported: false,
      why: `out of memory: the agent was OOMKilled${limit ? ` at its ${limit} limit` : ''}`,
    };
  if (ended.some((t) => t.exitCode === BAD_INPUT_EXIT_CODE))
    return {
      outcome: 'bad_input',
      reported: false,
      why: 'the agent rejected its task or configuration (exit 64; its log names the setting)',
    };
  if (failed.reason === 'DeadlineExceeded')
    return {
      outcome: 'deadline_exceeded',
      reported: false,
      why: `ran longer than its deadline (activeDeadlineSeconds ${job.spec?.activeDeadlineSeconds})`,
    };
  const last = ended.at(-1);
  const how = last
    ? `the agent exited ${last.exitCode}${last.reason ? ` (${last.reason})` : ''}`
    : (failed.message ?? 'no pod status');
  return {
    outcome: 'crashed',
    reported: false,
    why: `${how}; retries exhausted (backoffLimit ${job.spec?.backoffLimit})`,
  };
}

/** Status code and message of a client-node error (HttpError carries the API's Status object as body). */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
