import { BatchV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import type { farm } from '@farm/proto';
import type { EventBus } from '@farm/bus';
import { annotateJob, apiError, terminalCondition } from '@farm/kube';
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
  /** How often the build Jobs are listed for ones that failed (default 5 s). */
  pollIntervalMs?: number;
  /** How long a launch waits for an unreachable API before the build fails (default 5 min). */
  apiPatienceMs?: number;
}

/**
 * Cluster mode: one Kubernetes Job per build, running the build's Job-style entry point with the request in
 * $FARM_BUILD_REQUEST. The Job publishes its own BuildResult and exits 0; the launcher lists its Jobs and, for
 * one that failed (deadline, OOMKilled, image pull, crash), publishes BUILD_FAILED saying why and marks the Job,
 * so that a restarted builder does not report it again.
 */
export class KubernetesBuildLauncher implements BuildLauncher {
  private readonly batch: BatchV1Api;
  private timer?: NodeJS.Timeout;
  private polling: Promise<void> = Promise.resolve();

  constructor(private readonly config: KubernetesBuildLauncherConfig) {
    this.batch = config.kubeConfig.makeApiClient(BatchV1Api);
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

  async resume(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.config.pollIntervalMs ?? 5000);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
  }

  /** One pass over the build Jobs: the running gauge, and BUILD_FAILED for each failed Job not yet reported. */
  private poll(): Promise<void> {
    this.polling = this.polling.then(async () => {
      let jobs: V1Job[];
      try {
        jobs = (
          await this.batch.listNamespacedJob(
            this.config.job.namespace,
            undefined,
            undefined,
            undefined,
            undefined,
            buildJobSelector(this.config.job.instance),
          )
        ).body.items;
      } catch (err) {
        this.config.log.warn('cannot list build Jobs; trying again', { err: apiError(err).message });
        return;
      }
      builderMetrics.running.set(jobs.filter((j) => !terminalCondition(j)).length);
      for (const job of jobs) {
        const done = terminalCondition(job);
        if (done?.type !== 'Failed' || job.metadata?.annotations?.[REPORTED_ANNOTATION]) continue;
        await this.reportFailed(
          job,
          `Job ${job.metadata!.name} failed (${done.reason ?? 'Failed'}: ${done.message ?? ''})`,
        );
      }
    });
    return this.polling;
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
