import {
  BatchV1Api,
  CoreV1Api,
  type KubeConfig,
  type V1Job,
  type V1JobCondition,
  type V1Pod,
} from '@kubernetes/client-node';
import { JobWatcher, annotateJob, apiError, labelValue, terminalCondition, type JobChange } from '@farm/kube';
import { farm } from '@farm/proto';
import { Topics, type EventBus, type Subscription } from '@farm/bus';
import { errorMessage, type Logger } from '@farm/runtime';
import { AdmissionQueue, capFrom } from './kubernetes-admission';
import { diagnose } from './kubernetes-job-diagnosis';
import {
  LABELS,
  MANAGED_BY,
  MAX_TASK_ENV_BYTES,
  OUTCOME_ANNOTATION,
  buildAgentJob,
  jobNameFor,
  type AgentJobSettings,
} from './kubernetes-job-spec';
import { launcherMetrics, type JobOutcome } from './kubernetes-metrics';
import { scanStuck, stuckContainers } from './kubernetes-stuck-pods';
import { reportForAgent, type TaskLauncher } from './launcher';
import { ReportedResults } from './reported-results';

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
  /** First pause before watching again after the Job watch failed (default 1 s). */
  rewatchDelayMs?: number;
  /** How long the server keeps one Job watch open before ending it (default 300 s); the watch then resumes. */
  watchTimeoutSeconds?: number;
}

export const DEFAULT_CAP_CONFIGMAP = 'farm-launcher';
export const CAP_KEY = 'maxRunningJobs';

interface TaskRef {
  id: string;
  changeRequestId: string;
  dispatch: number;
}

/**
 * Cluster mode: one Kubernetes Job per CodingTask, running the agent's Job-style entry point with the task in
 * $FARM_TASK. At most `maxRunningJobs` run at once (re-read from a ConfigMap before each launch); extra tasks
 * queue in order (AdmissionQueue). It follows its Jobs through a JobWatcher (the client library's informer)
 * and, when one fails without the agent having published a result (OOMKilled, deadline, image pull, crash),
 * publishes a failure saying why (diagnose). A periodic pod scan fails tasks whose pod is stuck waiting for
 * its image or a Secret, which the Job itself would only notice at its deadline.
 *
 * Whether the agent reported is known without the orchestrator's help, from two sources: the agent's exit
 * code (job.ts exits 0/2/3 only after publishing) and the launcher's own subscription to commit results (for
 * pods that are gone or were killed mid-way). Results are keyed by change request id, so the agent's own
 * result always precedes a failure published after its Job ended, and the orchestrator keeps the first.
 */
export class KubernetesJobLauncher implements TaskLauncher {
  private readonly batch: BatchV1Api;
  private readonly core: CoreV1Api;
  private readonly ns: string;
  private readonly selector: string;
  private readonly jobs: JobWatcher;
  private readonly admission: AdmissionQueue<farm.v1.ICodingTask>;
  private readonly results = new ReportedResults();
  private readonly active = new Map<string, TaskRef>(); // by Job name
  /** When each running Job's agent container was first seen stuck (image pull, missing Secret). */
  private stuckSince = new Map<string, number>();
  private readonly background = new Set<Promise<void>>();
  private started?: Promise<void>;
  private scanTimer?: NodeJS.Timeout;
  private subscription?: Subscription;
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
    this.jobs = new JobWatcher({
      kubeConfig: config.kubeConfig,
      namespace: this.ns,
      labelSelector: this.selector,
      log: config.log,
      onJob: (change, job) => this.onJob(change, job),
      watchTimeoutSeconds: config.watchTimeoutSeconds,
      restartDelayMs: config.rewatchDelayMs,
    });
    this.admission = new AdmissionQueue(
      {
        cap: () => this.readCap(),
        running: () => this.active.size,
        launch: (task) => this.createJob(task),
        queued: (n) => launcherMetrics.queued.set(n),
      },
      (err) => config.log.error('launching queued tasks failed', { err: errorMessage(err) }),
    );
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
          await this.subscription?.stop();
          await sleep(delay);
        }
      }
    })();
    return this.started;
  }

  async launch(task: farm.v1.ICodingTask): Promise<void> {
    this.admission.add(task);
    await this.start();
    await this.admission.pump();
  }

  /** Drops the request's queued tasks and deletes its Jobs (their pods go with them). */
  async cancel(changeRequestId: string): Promise<void> {
    await this.start();
    this.admission.drop((t) => t.changeRequestId === changeRequestId);
    for (const [name, ref] of this.active) {
      if (ref.changeRequestId !== changeRequestId) continue;
      this.untrack(name);
      this.results.forget(ref.id, ref.dispatch);
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
    await this.admission.pump();
  }

  /** Stops watching; running Jobs go on and are adopted by the next process. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.closed = true;
    clearInterval(this.scanTimer);
    await this.jobs.stop();
    await this.admission.close();
    this.results.wakeAll(); // failures waiting for the agent's own result are reported now
    await Promise.all(this.background);
    await this.subscription?.stop();
  }

  /** Jobs created and not finished. */
  get running(): number {
    return this.active.size;
  }

  /** Tasks waiting for a free slot. */
  get queued(): number {
    return this.admission.length;
  }

  private async startOnce(): Promise<void> {
    this.subscription = await this.config.bus.subscribe(
      Topics.commitResults,
      this.config.resultGroup ?? 'k8s-job-launcher',
      async (r) => this.results.seen(r.taskId, r.dispatch ?? 0),
      { fromBeginning: false },
    );
    await this.jobs.start();
    if (this.closed) return this.jobs.stop(); // closed while listing
    // Adopted only from the first list: a Job seen later and not followed was cancelled or already handled.
    for (const job of this.jobs.list()) if (!this.active.has(job.metadata!.name!)) this.adopt(job);
    this.scanTimer = setInterval(() => void this.scan(), this.config.pollIntervalMs ?? 15_000);
    this.scanTimer.unref();
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
    this.follow(job.metadata!.name!, ref);
    this.config.log.info('adopted coding-agent Job', { jobName: job.metadata!.name, taskId: ref.id });
  }

  /** Tracks the Job and handles what the watcher has seen of it already (it may have finished meanwhile). */
  private follow(name: string, ref: TaskRef): void {
    this.active.set(name, ref);
    this.results.expect(ref.id, ref.dispatch);
    launcherMetrics.running.set(this.active.size);
    const seen = this.jobs.get(name);
    if (seen) this.onJob('updated', seen);
  }

  private onJob(change: JobChange, job: V1Job): void {
    const name = job.metadata?.name ?? '';
    const ref = this.active.get(name);
    if (!ref) return; // not ours to follow (cancelled, finished, or another farm's)
    if (change === 'deleted') {
      this.finish(name, ref, 'lost', 'its Job was deleted before it finished');
      return;
    }
    const done = terminalCondition(job);
    if (!done) return;
    if (done.type === 'Complete') {
      this.finish(name, ref, 'succeeded'); // exit 0: the agent published SUCCESS before exiting
      return;
    }
    this.untrack(name); // at once, so a second event for the same Job cannot finish it twice
    this.inBackground(
      this.podsOf(name).then(
        (pods) => this.finishFailed(name, ref, job, done, pods),
        (err) => this.finishFailed(name, ref, job, done, [], errorMessage(err)),
      ),
    );
  }

  private finishFailed(
    name: string,
    ref: TaskRef,
    job: V1Job,
    failed: V1JobCondition,
    pods: V1Pod[],
    podsError?: string,
  ): void {
    const d = diagnose(job, failed, pods);
    if (podsError) d.why += ` (its pods could not be read: ${podsError})`;
    this.finish(
      name,
      ref,
      d.outcome,
      d.reported ? undefined : `Kubernetes Job ${name} failed (${failed.reason}): ${d.why}`,
    );
  }

  /** Records the outcome, publishes a failure when the agent could not, marks the Job handled, launches more. */
  private finish(name: string, ref: TaskRef, outcome: JobOutcome, failure?: string): void {
    this.untrack(name);
    launcherMetrics.jobs.inc({ outcome });
    this.config.log[failure ? 'error' : 'info']('coding-agent Job finished', {
      changeRequestId: ref.changeRequestId,
      taskId: ref.id,
      jobName: name,
      outcome,
      failure,
    });
    this.inBackground(
      (async () => {
        if (failure) await this.reportFailure(ref, outcome, failure);
        else this.results.forget(ref.id, ref.dispatch);
        if (outcome !== 'lost') await this.markHandled(name, outcome);
      })(),
    );
    void this.admission.pump();
  }

  private async reportFailure(ref: TaskRef, outcome: JobOutcome, why: string): Promise<void> {
    // The agent may have published just before it was killed; give that result time to arrive.
    const grace = this.closed ? 0 : (this.config.resultGraceMs ?? 5000);
    if (await this.results.waitFor(ref.id, ref.dispatch, grace)) return;
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

  /** Creates the task's Job; false when the API failed in a way worth retrying (the task keeps its place). */
  private async createJob(task: farm.v1.ICodingTask): Promise<boolean> {
    const ref = { id: task.id!, changeRequestId: task.changeRequestId!, dispatch: task.dispatch ?? 0 };
    const name = jobNameFor(ref.id, ref.dispatch);
    const job = buildAgentJob(task, this.config.job);
    const taskEnv = job.spec!.template.spec!.containers[0].env!.find((e) => e.name === 'FARM_TASK')!.value!;
    if (taskEnv.length > MAX_TASK_ENV_BYTES) {
      launcherMetrics.jobs.inc({ outcome: 'create_failed' });
      this.inBackground(
        this.reportFailure(
          ref,
          'create_failed',
          `task is ${taskEnv.length} bytes in FARM_TASK, over the ${MAX_TASK_ENV_BYTES} an environment variable can carry`,
        ),
      );
      return true;
    }
    try {
      await this.batch.createNamespacedJob(this.ns, job);
      this.follow(name, ref);
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
        this.follow(name, ref);
        return true;
      }
      if (code !== undefined && code < 500 && code !== 429) {
        // Invalid spec, forbidden, quota: the same request will fail again.
        launcherMetrics.jobs.inc({ outcome: 'create_failed' });
        this.inBackground(
          this.reportFailure(ref, 'create_failed', `could not create Kubernetes Job ${name}: ${message}`),
        );
        return true;
      }
      this.config.log.warn('creating Job failed; will retry', { taskId: ref.id, jobName: name, err: message });
      return false;
    }
  }

  /** The cap from the ConfigMap, else the configured one; the last good value when the API is unreachable. */
  private async readCap(): Promise<number> {
    const configured = this.config.maxRunningJobs ?? 4;
    try {
      const cm = await this.core.readNamespacedConfigMap(this.config.capConfigMap ?? DEFAULT_CAP_CONFIGMAP, this.ns);
      const { cap, invalid } = capFrom(cm.body.data?.[CAP_KEY], configured, this.cap);
      if (invalid !== undefined)
        this.config.log.warn(`ConfigMap key ${CAP_KEY} is not a whole number >= 0; keeping ${cap}`, { value: invalid });
      this.cap = cap;
    } catch (err) {
      if (apiError(err).code === 404) this.cap = configured;
      else
        this.config.log.warn('could not read the Job cap; keeping the last one', {
          cap: this.cap,
          err: apiError(err).message,
        });
    }
    launcherMetrics.cap.set(this.cap);
    return this.cap;
  }

  /** Fails tasks whose agent container is stuck waiting (bad image, missing Secret); retries queued tasks. */
  private async scan(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.active.size) await this.failStuckPods();
    } catch (err) {
      this.config.log.warn('pod scan failed', { err: apiError(err).message });
    }
    if (this.admission.length) await this.admission.pump();
  }

  private async failStuckPods(): Promise<void> {
    const pods = (await this.core.listNamespacedPod(this.ns, undefined, undefined, undefined, undefined, this.selector))
      .body.items;
    const grace = this.config.imagePullGraceMs ?? 120_000;
    const scan = scanStuck(this.active.keys(), this.stuckSince, stuckContainers(pods), Date.now(), grace);
    this.stuckSince = scan.stuckSince;
    for (const stuck of scan.expired) {
      const ref = this.active.get(stuck.jobName);
      if (!ref) continue; // finished while the pods were listed
      this.finish(stuck.jobName, ref, stuck.outcome, stuck.why);
      // It would only wait out its deadline; free the slot now.
      await this.batch
        .deleteNamespacedJob(stuck.jobName, this.ns, undefined, undefined, undefined, undefined, 'Background')
        .catch((err) =>
          this.config.log.warn('could not delete stuck Job', { jobName: stuck.jobName, err: apiError(err).message }),
        );
    }
  }

  private podsOf(jobName: string): Promise<V1Pod[]> {
    return this.core
      .listNamespacedPod(this.ns, undefined, undefined, undefined, undefined, `batch.kubernetes.io/job-name=${jobName}`)
      .then((r) => r.body.items);
  }

  private untrack(name: string): void {
    this.active.delete(name);
    this.stuckSince.delete(name);
    launcherMetrics.running.set(this.active.size);
  }

  /** Keeps background work (reports, annotations) so that close() waits for it. */
  private inBackground(p: Promise<void>): void {
    const guarded = p.catch((err) =>
      this.config.log.error('launcher background work failed', { err: errorMessage(err) }),
    );
    this.background.add(guarded);
    void guarded.finally(() => this.background.delete(guarded));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
