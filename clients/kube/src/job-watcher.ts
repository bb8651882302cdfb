import { BatchV1Api, ListWatch, Watch, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import type { Logger } from '@farm/runtime';
import { apiError } from './jobs';

export type JobChange = 'added' | 'updated' | 'deleted';

export interface JobWatcherConfig {
  kubeConfig: KubeConfig;
  namespace: string;
  /** Only these Jobs are listed and watched, e.g. one release's agent Jobs. */
  labelSelector: string;
  log: Logger;
  /** Every change the informer sees: each listed Job (`added` on the first list), then the watch's events. */
  onJob: (change: JobChange, job: V1Job) => void;
  /** How long the server keeps one watch open (default 300 s); the informer then watches again from where it was. */
  watchTimeoutSeconds?: number;
  /** First pause before watching again after the watch or a list failed (default 1 s, doubling to 30 s). */
  restartDelayMs?: number;
}

/**
 * The Jobs of one label selector, kept current by the client library's informer (list, then watch from the
 * list's resourceVersion; a 410 Expired lists again, and Jobs gone from a new list are reported deleted). Both
 * Job launchers follow their Jobs through it. What the informer leaves to its user is done here: it stops on
 * an error, so the watcher starts it again after a pause, and the server is asked to end each watch after
 * `watchTimeoutSeconds` so that a connection silently dropped by a proxy does not go unnoticed for long.
 */
export class JobWatcher {
  private readonly informer: ListWatch<V1Job>;
  private stopped = false;
  private connects = 0;
  private restartTimer?: NodeJS.Timeout;
  private restartDelay: number;
  /** Set while start() waits for the first list: a failure then rejects start() instead of restarting. */
  private failStart?: (err: unknown) => void;

  constructor(private readonly config: JobWatcherConfig) {
    const batch = config.kubeConfig.makeApiClient(BatchV1Api);
    this.restartDelay = config.restartDelayMs ?? 1000;
    const path = `/apis/batch/v1/namespaces/${encodeURIComponent(config.namespace)}/jobs`;
    const list = () =>
      batch.listNamespacedJob(config.namespace, undefined, undefined, undefined, undefined, config.labelSelector);
    // makeInformer's ListWatch, given a Watch that bounds each watch and routes the informer's failures to us.
    const watch = new BoundedWatch(config.kubeConfig, config.watchTimeoutSeconds ?? 300, (err) => this.failed(err));
    this.informer = new ListWatch<V1Job>(path, watch, list, false, config.labelSelector);
    this.informer.on('add', (job) => config.onJob('added', job));
    this.informer.on('update', (job) => config.onJob('updated', job));
    this.informer.on('delete', (job) => config.onJob('deleted', job));
    this.informer.on('error', (err) => this.failed(err));
    this.informer.on('connect', () => {
      if (this.connects++ > 0) config.log.debug('Job watch ended; watching again');
    });
  }

  /** Lists the Jobs (reporting each as added) and starts watching; rejects when the list fails. */
  async start(): Promise<void> {
    this.stopped = false;
    const failedToStart = new Promise<never>((_, reject) => (this.failStart = reject));
    try {
      await Promise.race([this.informer.start(), failedToStart]);
    } catch (err) {
      await this.informer.stop();
      throw err;
    } finally {
      this.failStart = undefined;
    }
    this.restartDelay = this.config.restartDelayMs ?? 1000;
  }

  /** The Job as last seen, if it is one of the watched ones. */
  get(name: string): V1Job | undefined {
    return this.informer.get(name, this.config.namespace);
  }

  list(): readonly V1Job[] {
    return this.informer.list(this.config.namespace);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    await this.informer.stop();
  }

  /** The informer stopped (watch or list failed): start it again after a pause that grows while it keeps failing. */
  private failed(err: unknown): void {
    if (this.failStart) return this.failStart(err);
    if (this.stopped || this.restartTimer) return;
    this.config.log.warn('Job watch failed; watching again', {
      err: apiError(err).message,
      delayMs: this.restartDelay,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopped) return;
      this.informer.start().then(
        () => (this.restartDelay = this.config.restartDelayMs ?? 1000),
        (e) => this.failed(e),
      );
    }, this.restartDelay);
    this.restartTimer.unref();
    this.restartDelay = Math.min(this.restartDelay * 2, 30_000);
  }
}

/**
 * A Watch that asks the server to end each watch after `timeoutSeconds` and to send bookmarks (so that a quiet
 * watch resumes from a recent resourceVersion rather than listing again). The informer does not await what it
 * runs from the watch's callbacks (listing again after a 410, watching again); their failures come to `failed`.
 */
class BoundedWatch extends Watch {
  constructor(
    kubeConfig: KubeConfig,
    private readonly timeoutSeconds: number,
    private readonly failed: (err: unknown) => void,
  ) {
    super(kubeConfig);
  }

  override watch(
    path: string,
    queryParams: Record<string, unknown>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): ReturnType<Watch['watch']> {
    const guard = (result: unknown) => void (result as Promise<void> | undefined)?.catch?.(this.failed);
    return super.watch(
      path,
      { ...queryParams, timeoutSeconds: this.timeoutSeconds, allowWatchBookmarks: true },
      (phase, obj, raw) => guard(callback(phase, obj, raw)),
      (err) => guard(done(err)),
    );
  }
}
