/**
 * THE PROJECT'S PROCESS NODE, a test node, not a kubelet: it registers a Node with the local control plane
 * and runs every pod the scheduler binds to it as local processes, so that Jobs, Deployments and the farm's
 * Job launcher meet a real Job controller and real pod lifecycles without a container runtime.
 *
 * What it honours: each container's command and args (else the image's entrypoint and cmd), env (value,
 * secretKeyRef, configMapKeyRef, fieldRef to the pod's name/namespace/uid/node), envFrom (ConfigMaps and
 * Secrets, optional and prefix included; a missing one gives CreateContainerConfigError like a kubelet),
 * workingDir, emptyDir/ConfigMap/Secret volumes (a directory per pod), restartPolicy, native sidecars (init
 * containers with restartPolicy Always: started first, their exec startup probe awaited, restarted when they
 * end, stopped once the other containers have ended; other init containers are not run), pod deletion (SIGTERM,
 * SIGKILL after the grace period, status Failed, then delete with grace 0) and status reporting (phase,
 * conditions, containerStatuses with state.terminated.exitCode and reason; 128+signal when killed).
 *
 * What it only records: resource requests/limits, securityContext (processes run as this process's user)
 * and the image itself: only images it was told about run; any other waits in ErrImagePull, like a kubelet
 * that cannot pull. A known image maps its paths onto this machine (see ProcessNodeImage).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, posix } from 'node:path';
import {
  CoreV1Api,
  PatchUtils,
  Watch,
  type KubeConfig,
  type V1Container,
  type V1ContainerStatus,
  type V1Pod,
} from '@kubernetes/client-node';
import { errorMessage, type Logger } from '@farm/runtime';
import { ownedTempDir, sleep, spawnGuarded, type Guarded } from './proc';

/**
 * An image the node can "run": its filesystem is this machine's, seen through `paths` (container path prefix
 * to host path), e.g. the farm image's `/app` is the checkout. Mounted volumes come on top, per pod.
 */
export interface ProcessNodeImage {
  entrypoint: string[];
  cmd: string[];
  workingDir: string;
  env: Record<string, string>;
  paths: Record<string, string>;
}

export interface ProcessNodeOptions {
  kubeConfig: KubeConfig;
  name: string;
  images: Record<string, ProcessNodeImage>;
  log: Logger;
  /** Longest wait between SIGTERM and SIGKILL whatever the pod asks (keeps tests short). Default 10 s. */
  maxGraceMs?: number;
}

const STRATEGIC = { headers: { 'Content-Type': PatchUtils.PATCH_FORMAT_STRATEGIC_MERGE_PATCH } };
/** Starts a container's process; its environment and working directory, for its exec probes. */
type Launch = (() => Guarded) & { env: Record<string, string>; cwd: string };
const now = () => new Date();
type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';
const CONFIG_RETRY_MS = 2000;

interface RunningPod {
  uid: string;
  namespace: string;
  name: string;
  dir: string;
  /** Container name -> its current process. */
  procs: Map<string, Guarded>;
  statuses: Map<string, V1ContainerStatus>;
  /** The names of its native sidecars (init containers with restartPolicy Always). */
  sidecars: Set<string>;
  /** Its other containers have ended: the sidecars are being stopped, not restarted. */
  finishing?: boolean;
  startTime: Date;
  phase: Phase;
  /** The status updates in flight, in order. */
  reports: Promise<void>;
  deleting?: Promise<void>;
  stopped: boolean;
}

export class ProcessNode {
  private readonly core: CoreV1Api;
  private readonly pods = new Map<string, RunningPod>(); // by uid
  private readonly dir = ownedTempDir('farm-node-');
  private watchReq?: { abort(): void };
  private relist?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly opts: ProcessNodeOptions) {
    this.core = opts.kubeConfig.makeApiClient(CoreV1Api);
  }

  get name(): string {
    return this.opts.name;
  }

  /** Registers the Node (Ready) and starts following the pods bound to it. */
  async start(): Promise<void> {
    await this.register();
    await this.listAndWatch();
  }

  /** Stops following, kills every pod process; the Node object stays (a node that went away). */
  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relist);
    this.watchReq?.abort();
    await Promise.all([...this.pods.values()].flatMap((p) => [...p.procs.values()].map((proc) => proc.stop(1000))));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async register(): Promise<void> {
    const resources = { cpu: '64', memory: '256Gi', pods: '250', 'ephemeral-storage': '1Ti' };
    const status = {
      capacity: resources,
      allocatable: resources,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ProcessNodeReady',
          message: 'the farm process node runs pods as local processes',
          lastHeartbeatTime: now(),
          lastTransitionTime: now(),
        },
      ],
      addresses: [
        { type: 'InternalIP', address: '127.0.0.1' },
        { type: 'Hostname', address: hostname() },
      ],
      nodeInfo: {
        machineID: this.opts.name,
        systemUUID: this.opts.name,
        bootID: String(process.pid),
        kernelVersion: '',
        osImage: 'farm process node',
        containerRuntimeVersion: 'farm-process://0',
        kubeletVersion: 'farm-process-node',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    };
    try {
      await this.core.createNode({
        metadata: {
          name: this.opts.name,
          labels: {
            'kubernetes.io/hostname': this.opts.name,
            'kubernetes.io/os': 'linux',
            'kubernetes.io/arch': 'amd64',
            'farm.dev/process-node': 'true',
          },
        },
      });
    } catch (err) {
      if (apiCode(err) !== 409) throw err;
    }
    await this.core.patchNodeStatus(
      this.opts.name,
      { status },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      STRATEGIC,
    );
  }

  /** Informer pattern: list, reconcile, watch from the list's resourceVersion; again whenever the watch ends. */
  private async listAndWatch(): Promise<void> {
    const selector = `spec.nodeName=${this.opts.name}`;
    const list = await this.core.listPodForAllNamespaces(undefined, undefined, selector);
    for (const pod of list.body.items) this.onPod(pod);
    if (this.closed) return;
    this.watchReq = await new Watch(this.opts.kubeConfig).watch(
      '/api/v1/pods',
      { fieldSelector: selector, resourceVersion: list.body.metadata?.resourceVersion, timeoutSeconds: 300 },
      (type, pod: V1Pod) => {
        if (type === 'ADDED' || type === 'MODIFIED') this.onPod(pod);
      },
      (err) => {
        if (this.closed) return;
        if (err) this.opts.log.warn('process node: pod watch ended', { err: errorMessage(err) });
        this.relist = setTimeout(
          () =>
            void this.listAndWatch().catch((e) =>
              this.opts.log.error('process node: relist failed', { err: errorMessage(e) }),
            ),
          500,
        );
      },
    );
  }

  private onPod(pod: V1Pod): void {
    if (this.closed) return;
    const uid = pod.metadata!.uid!;
    const known = this.pods.get(uid);
    if (pod.metadata?.deletionTimestamp) {
      if (known) {
        known.deleting ??= this.terminate(known, pod).catch((err) => this.warn('terminating pod failed', pod, err));
      } else {
        // Never started here (or already finished): nothing to kill, just let it go.
        void this.forceDelete(pod).catch((err) => this.warn('deleting pod failed', pod, err));
      }
      return;
    }
    if (known || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    void this.run(pod).catch((err) => this.warn('starting pod failed', pod, err));
  }

  private async run(pod: V1Pod): Promise<void> {
    const meta = pod.metadata!;
    const spec = pod.spec!;
    const p: RunningPod = {
      uid: meta.uid!,
      namespace: meta.namespace!,
      name: meta.name!,
      dir: join(this.dir, `${meta.namespace}_${meta.name}_${meta.uid}`),
      procs: new Map(),
      statuses: new Map(),
      sidecars: new Set((spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name)),
      startTime: now(),
      phase: 'Pending',
      reports: Promise.resolve(),
      stopped: false,
    };
    this.pods.set(p.uid, p);
    mkdirSync(p.dir, { recursive: true });

    const prepared: { c: V1Container; launch?: Launch; waiting?: { reason: string; message: string } }[] = [];
    const sidecars = (spec.initContainers ?? []).filter((c) => p.sidecars.has(c.name));
    for (const c of [...sidecars, ...spec.containers]) {
      try {
        prepared.push({ c, launch: await this.prepare(pod, p, c) });
      } catch (err) {
        prepared.push({ c, waiting: waitingOf(err) });
      }
    }
    for (const { c, waiting } of prepared)
      p.statuses.set(c.name, {
        name: c.name,
        image: c.image ?? '',
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: waiting ?? { reason: 'ContainerCreating' } },
      });
    if (prepared.some((x) => x.waiting)) {
      // Like a kubelet that cannot pull or configure: the pod stays Pending and says why. A missing Secret or
      // ConfigMap may still come, so that is tried again; an image this node does not have never will.
      await this.report(p, 'Pending');
      if (prepared.some((x) => x.waiting?.reason === 'CreateContainerConfigError'))
        setTimeout(() => {
          if (this.closed || p.stopped || this.pods.get(p.uid) !== p) return;
          this.pods.delete(p.uid);
          void this.run(pod).catch((err) => this.warn('starting pod failed', pod, err));
        }, CONFIG_RETRY_MS).unref();
      return;
    }
    // Sidecars first, each awaited through its startup probe, as a kubelet does; then the other containers.
    for (const { c, launch } of prepared.filter((x) => p.sidecars.has(x.c.name))) {
      this.startContainer(p, c, launch!, 'Always');
      await this.awaitStartup(p, c, launch!);
    }
    for (const { c, launch } of prepared.filter((x) => !p.sidecars.has(x.c.name)))
      this.startContainer(p, c, launch!, spec.restartPolicy ?? 'Always');
    await this.report(p, 'Running');
  }

  /** Runs a container's exec startup probe (with its environment, on this machine) until it passes or gives up. */
  private async awaitStartup(p: RunningPod, c: V1Container, launch: Launch): Promise<void> {
    const probe = c.startupProbe?.exec?.command;
    if (!probe?.length) return;
    const tries = c.startupProbe!.failureThreshold ?? 3;
    for (let i = 0; i < tries && !p.stopped; i++) {
      const passed = await new Promise<boolean>((resolve) =>
        execFile(probe[0], probe.slice(1), { env: launch.env, cwd: launch.cwd, timeout: 5000 }, (err) => resolve(!err)),
      );
      if (passed) return;
      await sleep((c.startupProbe!.periodSeconds ?? 10) * 1000);
    }
    this.opts.log.warn('process node: a sidecar never passed its startup probe', { pod: p.name, container: c.name });
  }

  private startContainer(p: RunningPod, c: V1Container, launch: () => Guarded, restartPolicy: string): void {
    if (p.stopped || (p.finishing && p.sidecars.has(c.name))) return;
    const proc = launch();
    p.procs.set(c.name, proc);
    const startedAt = now();
    const prev = p.statuses.get(c.name)!;
    p.statuses.set(c.name, { ...prev, ready: true, started: true, state: { running: { startedAt } } });
    this.opts.log.debug('process node: container started', {
      pod: `${p.namespace}/${p.name}`,
      container: c.name,
      pid: proc.child.pid,
    });
    void proc.exited.then(async (code) => {
      const exitCode = code ?? 137;
      const terminated = {
        exitCode,
        reason: exitCode === 0 ? 'Completed' : 'Error',
        startedAt,
        finishedAt: now(),
        containerID: `farm-process://${proc.child.pid}`,
      };
      const cur = p.statuses.get(c.name)!;
      if (p.stopped) return; // terminate() reports the end of a deleted pod
      const restart = !p.finishing && (restartPolicy === 'Always' || (restartPolicy === 'OnFailure' && exitCode !== 0));
      if (restart) {
        p.statuses.set(c.name, {
          ...cur,
          ready: false,
          started: false,
          restartCount: (cur.restartCount ?? 0) + 1,
          lastState: { terminated },
          state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off restarting container ${c.name}` } },
        });
        await this.report(p, 'Running').catch((err) => this.warn('status update failed', p, err));
        await sleep(Math.min(1000 * 2 ** Math.min(cur.restartCount ?? 0, 5), 30_000));
        this.startContainer(p, c, launch, restartPolicy);
        await this.report(p, 'Running').catch((err) => this.warn('status update failed', p, err));
        return;
      }
      p.statuses.set(c.name, { ...cur, ready: false, started: false, state: { terminated } });
      p.procs.delete(c.name);
      if (p.sidecars.has(c.name) && p.finishing) return; // stopped below, once the others had ended
      const others = [...p.procs.keys()].filter((name) => !p.sidecars.has(name));
      if (others.length) {
        await this.report(p, 'Running').catch((err) => this.warn('status update failed', p, err));
        return;
      }
      // The other containers have ended: the sidecars are stopped (their exit codes do not decide the phase).
      p.finishing = true;
      await Promise.all(
        [...p.procs.entries()].filter(([name]) => p.sidecars.has(name)).map(([, sidecar]) => sidecar.stop(2000)),
      );
      const failed = [...p.statuses.values()]
        .filter((s) => !p.sidecars.has(s.name))
        .some((s) => (s.state?.terminated?.exitCode ?? 0) !== 0);
      await this.report(p, failed ? 'Failed' : 'Succeeded').catch((err) => this.warn('status update failed', p, err));
    });
  }

  /** Kills the pod's processes (TERM, then KILL after its grace), reports it Failed, then removes it as a kubelet does. */
  private async terminate(p: RunningPod, pod: V1Pod): Promise<void> {
    p.stopped = true;
    const graceMs = Math.min((pod.metadata?.deletionGracePeriodSeconds ?? 30) * 1000, this.opts.maxGraceMs ?? 10_000);
    await Promise.all(
      [...p.procs.entries()].map(async ([name, proc]) => {
        const startedAt = p.statuses.get(name)?.state?.running?.startedAt ?? p.startTime;
        await proc.stop(graceMs);
        const code = (await proc.exited) ?? 137;
        p.statuses.set(name, {
          ...p.statuses.get(name)!,
          ready: false,
          started: false,
          state: {
            terminated: { exitCode: code, reason: code === 0 ? 'Completed' : 'Error', startedAt, finishedAt: now() },
          },
        });
      }),
    );
    p.procs.clear();
    // Stays Succeeded when it had finished before the deletion.
    await this.report(p, 'Failed').catch((err) => this.warn('status update failed', p, err));
    await this.forceDelete(pod).catch((err) => this.warn('deleting pod failed', p, err));
    this.pods.delete(p.uid);
    rmSync(p.dir, { recursive: true, force: true });
  }

  private async forceDelete(pod: V1Pod): Promise<void> {
    try {
      await this.core.deleteNamespacedPod(
        pod.metadata!.name!,
        pod.metadata!.namespace!,
        undefined,
        undefined,
        0,
        undefined,
        undefined,
        {
          gracePeriodSeconds: 0,
          preconditions: { uid: pod.metadata!.uid },
        },
      );
    } catch (err) {
      if (apiCode(err) !== 404 && apiCode(err) !== 409) throw err;
    }
  }

  /**
   * Sends the pod's status as it is when the previous update is through: updates go out one at a time and in
   * order, so a quick exit's Succeeded is never overtaken by the Running sent at start. A phase never leaves
   * Succeeded or Failed.
   */
  private report(p: RunningPod, phase: Phase): Promise<void> {
    if (p.phase !== 'Succeeded' && p.phase !== 'Failed') p.phase = phase;
    const sent = p.reports.then(() => this.sendStatus(p));
    p.reports = sent.catch(() => undefined);
    return sent;
  }

  private async sendStatus(p: RunningPod): Promise<void> {
    const phase = p.phase;
    const all = [...p.statuses.values()];
    const statuses = all.filter((s) => !p.sidecars.has(s.name));
    const sidecarStatuses = all.filter((s) => p.sidecars.has(s.name));
    const ready = phase === 'Running' && all.every((s) => s.ready);
    const t = now();
    const condition = (type: string, status: boolean, reason?: string) => ({
      type,
      status: status ? 'True' : 'False',
      lastTransitionTime: t,
      ...(reason ? { reason } : {}),
    });
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    await this.core.patchNamespacedPodStatus(
      p.name,
      p.namespace,
      {
        metadata: { uid: p.uid }, // a pod recreated under the same name is not this one
        status: {
          phase,
          hostIP: '127.0.0.1',
          hostIPs: [{ ip: '127.0.0.1' }],
          podIP: '127.0.0.1',
          podIPs: [{ ip: '127.0.0.1' }],
          startTime: p.startTime,
          conditions: [
            condition('PodReadyToStartContainers', true),
            condition('Initialized', true),
            condition('ContainersReady', ready, terminal ? 'PodCompleted' : undefined),
            condition('Ready', ready, terminal ? 'PodCompleted' : undefined),
          ],
          containerStatuses: statuses,
          ...(sidecarStatuses.length ? { initContainerStatuses: sidecarStatuses } : {}),
        },
      },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      STRATEGIC,
    );
  }

  /** Resolves image, environment, volumes and paths; throws a ContainerWaiting when a kubelet would wait. */
  private async prepare(pod: V1Pod, p: RunningPod, c: V1Container): Promise<Launch> {
    const image = this.opts.images[c.image ?? ''];
    if (!image)
      throw new ContainerWaiting(
        'ErrImagePull',
        `the farm process node has no image "${c.image}" (it runs only images it maps to this machine)`,
      );
    const paths = { ...image.paths };
    for (const v of pod.spec?.volumes ?? []) {
      const host = join(p.dir, 'volumes', v.name);
      mkdirSync(host, { recursive: true });
      if (v.configMap) await this.writeVolume(host, p.namespace, 'configmap', v.configMap.name!, v.configMap.optional);
      if (v.secret) await this.writeVolume(host, p.namespace, 'secret', v.secret.secretName!, v.secret.optional);
    }
    for (const m of c.volumeMounts ?? []) paths[m.mountPath] = join(p.dir, 'volumes', m.name, m.subPath ?? '');
    const toHost = (containerPath: string) => mapPath(containerPath, paths);

    const env: Record<string, string> = { ...image.env };
    for (const from of c.envFrom ?? []) {
      const data = from.configMapRef
        ? await this.readData(p.namespace, 'configmap', from.configMapRef.name!, from.configMapRef.optional)
        : await this.readData(p.namespace, 'secret', from.secretRef!.name!, from.secretRef!.optional);
      for (const [k, v] of Object.entries(data)) env[(from.prefix ?? '') + k] = v;
    }
    for (const e of c.env ?? []) {
      const v = await this.envValue(pod, e);
      if (v !== undefined) env[e.name] = v;
    }
    for (const [k, v] of Object.entries(env)) if (v.startsWith('/')) env[k] = toHost(v);
    const argv = [...(c.command ?? image.entrypoint), ...(c.args ?? (c.command ? [] : image.cmd))].map((a) =>
      a.startsWith('/') ? toHost(a) : a,
    );
    if (!argv.length)
      throw new ContainerWaiting('CreateContainerError', 'no command: neither the container nor its image gives one');
    const cwd = toHost(c.workingDir ?? image.workingDir);
    for (const dir of Object.values(paths)) mkdirSync(dir, { recursive: true });
    const logFile = join(p.dir, `${c.name}.log`);
    const fullEnv = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOSTNAME: p.name,
      ...env,
    };
    return Object.assign(() => spawnGuarded(argv[0], argv.slice(1), { env: fullEnv, cwd, logFile }), {
      env: fullEnv,
      cwd,
    });
  }

  private async envValue(pod: V1Pod, e: NonNullable<V1Container['env']>[number]): Promise<string | undefined> {
    if (e.value !== undefined) return e.value;
    const from = e.valueFrom;
    if (!from) return '';
    if (from.secretKeyRef || from.configMapKeyRef) {
      const ref = (from.secretKeyRef ?? from.configMapKeyRef)!;
      const kind = from.secretKeyRef ? 'secret' : 'configmap';
      const data = await this.readData(pod.metadata!.namespace!, kind, ref.name!, ref.optional);
      if (data[ref.key] === undefined && !ref.optional)
        throw new ContainerWaiting(
          'CreateContainerConfigError',
          `couldn't find key ${ref.key} in ${kind === 'secret' ? 'Secret' : 'ConfigMap'} ${pod.metadata!.namespace}/${ref.name}`,
        );
      return data[ref.key];
    }
    if (from.fieldRef) {
      const fields: Record<string, string | undefined> = {
        'metadata.name': pod.metadata?.name,
        'metadata.namespace': pod.metadata?.namespace,
        'metadata.uid': pod.metadata?.uid,
        'spec.nodeName': pod.spec?.nodeName,
        'spec.serviceAccountName': pod.spec?.serviceAccountName,
        'status.hostIP': '127.0.0.1',
        'status.podIP': '127.0.0.1',
      };
      const path = from.fieldRef.fieldPath;
      const label = path.match(/^metadata\.(labels|annotations)\['(.+)'\]$/);
      if (label) return (label[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[label[2]] ?? '';
      return fields[path] ?? '';
    }
    return ''; // resourceFieldRef: limits are recorded, not enforced
  }

  /** A ConfigMap's or Secret's data as strings; a missing one is CreateContainerConfigError unless optional. */
  private async readData(
    ns: string,
    kind: 'secret' | 'configmap',
    name: string,
    optional?: boolean,
  ): Promise<Record<string, string>> {
    try {
      if (kind === 'configmap') return (await this.core.readNamespacedConfigMap(name, ns)).body.data ?? {};
      const data = (await this.core.readNamespacedSecret(name, ns)).body.data ?? {};
      return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    } catch (err) {
      if (apiCode(err) !== 404) throw err;
      if (optional) return {};
      throw new ContainerWaiting('CreateContainerConfigError', `${kind} "${name}" not found`);
    }
  }

  private async writeVolume(dir: string, ns: string, kind: 'secret' | 'configmap', name: string, optional?: boolean) {
    for (const [k, v] of Object.entries(await this.readData(ns, kind, name, optional))) writeFileSync(join(dir, k), v);
  }

  private warn(what: string, pod: V1Pod | RunningPod, err: unknown): void {
    const name =
      'uid' in pod && 'dir' in pod
        ? `${pod.namespace}/${pod.name}`
        : `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    const e = err as { statusCode?: number; body?: { message?: string } };
    // 404: the pod went meanwhile (its Job or namespace was deleted), as happens to a kubelet too.
    this.opts.log[e?.statusCode === 404 ? 'debug' : 'warn'](`process node: ${what}`, {
      pod: name,
      code: e?.statusCode,
      err: e?.body?.message ?? errorMessage(err),
    });
  }
}

/** A container that cannot start yet (the reason and message a kubelet would show in state.waiting). */
export class ContainerWaiting extends Error {
  override name = 'ContainerWaiting';
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

function waitingOf(err: unknown): { reason: string; message: string } {
  if (err instanceof ContainerWaiting) return { reason: err.reason, message: err.message };
  return { reason: 'CreateContainerError', message: errorMessage(err) };
}

/** The host path of a container path: the longest mapped prefix wins (a volume inside the image's tree). */
export function mapPath(containerPath: string, paths: Record<string, string>): string {
  const p = posix.normalize(containerPath);
  const prefix = Object.keys(paths)
    .filter((k) => p === k || p.startsWith(k.endsWith('/') ? k : k + '/'))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? p : join(paths[prefix], p.slice(prefix.length));
}

function apiCode(err: unknown): number | undefined {
  const e = err as { statusCode?: number; body?: { code?: number } };
  return e?.statusCode ?? e?.body?.code;
}

/**
 * The farm's own image (Dockerfile) on this checkout: /app is the checkout, tini's reaping is the node's
 * job, and the image's environment (FARM_WORK_DIR=/work, HOME=/tmp) points into the pod's volumes.
 */
export function farmImageOnCheckout(checkout: string): ProcessNodeImage {
  return {
    entrypoint: [],
    cmd: ['node', 'dist/orchestrator.mjs'], // the checkout's bundles: `pnpm build` first
    workingDir: '/app',
    env: { FARM_WORK_DIR: '/work', FARM_METRICS_PORT: '9464', HOME: '/tmp' },
    paths: { '/app': checkout },
  };
}
