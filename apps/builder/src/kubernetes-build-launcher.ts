import { BatchV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import type { farm } from '@farm/proto';
import type { EventBus } from '@farm/bus';
import { JobWatcher, annotateJob, apiError, terminalCondition, type JobChange } from '@farm/kube';
import type { Logger } from '@farm/runtime';
import { reportForBuild, type BuildLauncher } from './build-launcher';
import {
  CHANGE_REQUEST_LABEL,
  REPORTED_ANNOTATION,
  buildJobFor,
  buildJobNameFor,
  buildJobSelector,
  type BuildJobSettings,
} from './build-job-spec';
import { builderMetrics } from './metrics';

export interface KubernetesBuildLauncherConfig {
  kubeConfig: KubeConfig;
  bus: EventBus;
  log: Logger;
  job: BuildJobSettings;
  /** How long the server keeps one watch of the build Jobs open (default 300 s); the watch then resumes. */
  watchTimeoutSeconds?: number;
  /** How long a launch waits for an unreachable API before the build fails (default 5 min). */
  apiPatienceMs?: number;
}

/**
 * Cluster mode: one Kubernetes Job per build, running the build's Job-style entry point with the request in
 * $FARM_BUILD_REQUEST. The Job publishes its own BuildResult and exits 0; the launcher follows its Jobs through
 * a JobWatcher (the client library's informer) and, for one that failed (deadline, OOMKilled, image pull,
 * crash), publishes BUILD_FAILED saying why and marks the Job, so that a restarted builder does not report it
 * again.
 */
export class KubernetesBuildLauncher implements BuildLauncher {
  private readonly batch: BatchV1Api;
  private readonly jobs: JobWatcher;
  /** Failed Jobs reported (or being reported) by this process; the annotation covers the next one. */
  private readonly reported = new Set<string>();
  private readonly reporting = new Set<Promise<void>>();
  /** Set while resume() keeps trying to reach an API that was away. */
  private following?: Promise<void>;
  private closed = false;

  constructor(private readonly config: KubernetesBuildLauncherConfig) {
    this.batch = config.kubeConfig.makeApiClient(BatchV1Api);
    this.jobs = new JobWatcher({
      kubeConfig: config.kubeConfig,
      namespace: config.job.namespace,
      labelSelector: buildJobSelector(config.job.instance),
      log: config.log,
      onJob: (change, job) => this.onJob(change, job),
      watchTimeoutSeconds: config.watchTimeoutSeconds,
    });
  }

  async launch(request: farm.v1.IBuildRequest): Promise<void> {
    const job = buildJobFor(request, this.config.job);
    const name = job.metadata!.name!;
    const deadline = Date.now() + (this.config.apiPatienceMs ?? 300_000);
    for (let delay = 1000; ; delay = Math.min(delay * 2, 30_000)) {
      try {
        await this.batch.createNamespacedJob(this.config.job.namespace, job);
        builderMetrics.launched.inc();
        this.config.log.info('build Job created', { changeRequestId: request.changeRequestId, jobName: name });
        return;
      } catch (err) {
        const { code, message } = apiError(err);
        if (code === 409) {
          this.config.log.info('build Job already exists', { changeRequestId: request.changeRequestId, jobName: name });
          return;
        }
        // 4xx (forbidden, invalid) will not change by waiting; neither will an API that stayed away this long.
        const hopeless = (code !== undefined && code >= 400 && code < 500) || Date.now() + delay > deadline;
        if (hopeless) {
          this.config.log.error('cannot create build Job', {
            changeRequestId: request.changeRequestId,
            code,
            err: message,
          });
          builderMetrics.unreported.inc();
          await reportForBuild(this.config.bus, request.changeRequestId!, `Job could not be created (${message})`);
          return;
        }
        this.config.log.warn('Kubernetes API not reachable; retrying', { err: message, delayMs: delay });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  async cancel(changeRequestId: string): Promise<void> {
    const name = buildJobNameFor(changeRequestId);
    try {
      // Background: the Job goes at once, the garbage collector stops its pod; nothing is reported for it.
      await this.batch.deleteNamespacedJob(
        name,
        this.config.job.namespace,
        undefined,
        undefined,
        undefined,
        undefined,
        'Background',
      );
      this.config.log.info('build Job deleted', { changeRequestId, jobName: name });
    } catch (err) {
      if (apiError(err).code !== 404)
        this.config.log.warn('could not delete build Job', { jobName: name, err: apiError(err).message });
    }
  }

  /**
   * Starts following the build Jobs: those that failed while no builder ran are reported as they are listed.
   * An unreachable API does not hold the builder up: it keeps trying in the background.
   */
  async resume(): Promise<void> {
    if (this.following || (await this.follow())) return;
    this.following = (async () => {
      for (let delay = 1000; !this.closed; delay = Math.min(delay * 2, 30_000)) {
        await new Promise((r) => setTimeout(r, delay).unref());
        if (this.closed || (await this.follow())) return;
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.jobs.stop();
    await Promise.all(this.reporting);
  }

  /** One attempt to list and watch the build Jobs; false (and a warning) when the API did not answer. */
  private async follow(): Promise<boolean> {
    try {
      await this.jobs.start();
      if (this.closed) await this.jobs.stop(); // closed while listing
      return true;
    } catch (err) {
      this.config.log.warn('cannot list build Jobs; trying again', { err: apiError(err).message });
      return false;
    }
  }

  /** The running gauge, and BUILD_FAILED for a failed Job not yet reported. */
  private onJob(change: JobChange, job: V1Job): void {
    builderMetrics.running.set(this.jobs.list().filter((j) => !terminalCondition(j)).length);
    const name = job.metadata?.name ?? '';
    if (change === 'deleted') {
      this.reported.delete(name); // a Job of the same name later is a new build
      return;
    }
    const done = terminalCondition(job);
    if (done?.type !== 'Failed' || job.metadata?.annotations?.[REPORTED_ANNOTATION] || this.reported.has(name)) return;
    this.reported.add(name);
    const reporting = this.reportFailed(job, `Job ${name} failed (${done.reason ?? 'Failed'}: ${done.message ?? ''})`)
      .catch((err) =>
        this.config.log.error('could not report a failed build Job', { jobName: name, err: apiError(err).message }),
      )
      .finally(() => this.reporting.delete(reporting));
    this.reporting.add(reporting);
  }

  private async reportFailed(job: V1Job, how: string): Promise<void> {
    const changeRequestId = job.metadata!.annotations![CHANGE_REQUEST_LABEL];
    this.config.log.error('build ended without a result', { changeRequestId, how });
    builderMetrics.unreported.inc();
    await reportForBuild(this.config.bus, changeRequestId, how);
    // If this fails, a restart reports it once more, which the orchestrator ignores.
    await annotateJob(this.batch, this.config.job.namespace, job.metadata!.name!, {
      [REPORTED_ANNOTATION]: 'true',
    }).catch((err) => this.config.log.warn('could not mark build Job reported', { err: apiError(err).message }));
  }
}
