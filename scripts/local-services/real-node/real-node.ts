/**
 * A REAL NODE for the test cluster: a kubelet (built from the control plane's module) on the machine's
 * containerd and runc, pods on a bridge (Debian's CNI plugins), NetworkPolicies enforced by kube-router, the
 * farm's image (built by scripts/image from the Dockerfile) imported into containerd. Needs root. Facts behind
 * each setting: ARCHITECTURE.md "Which tests run where" and the comments below.
 *
 * The node is tainted (REAL_NODE_TAINT): only pods that tolerate it run here; everything else keeps running on
 * the process node. Pods reach the test services on the bridge's gateway address (POD_GATEWAY), where a service
 * meant for pods listens; the host reaches them there too.
 *
 * What it changes on the host (sysctls, iptables chains, ipsets, the bridge, cgroups, mounts) is recorded first
 * and put back by `stop` (host.ts); a killed run's leftovers are put back by the next start.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { errorMessage, type Logger } from '@farm/runtime';
import { freePort, run, sleep, spawnGuarded, tail, type Guarded } from '../proc';
import { buildFarmImage } from '../../image/farm-image';
import { ensureNodeTools } from './node-tools';
import { NODE_RUN_DIR, recordHost, restoreHost, type HostRecord } from './host';

export const REAL_NODE_NAME = 'farm-real-node';
/** Pods must tolerate this (and select the node by REAL_NODE_LABEL) to run in containers. */
export const REAL_NODE_TAINT = { key: 'farm.dev/real-node', value: 'true', effect: 'NoSchedule' } as const;
export const REAL_NODE_LABEL = { 'farm.dev/node': 'containers' } as const;
const BRIDGE = 'farm-cni0';
export const POD_CIDR = '10.244.213.0/24';
/** The bridge's address: the host as pods see it. */
export const POD_GATEWAY = '10.244.213.1';
/** The pod sandbox image, made here from the kubernetes module's pause.c (the CRI default of 1.31). */
const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
const IMAGE_REPO = 'localhost/agent-farm';
const READY_TIMEOUT_MS = 120_000;

export class RealNodeError extends Error {
  override name = 'RealNodeError';
}

export interface RealNode {
  name: string;
  /** The farm's image as the node knows it (run with imagePullPolicy Never or IfNotPresent). */
  image: string;
  /** Where a pod reaches the host. */
  gateway: string;
  /** The kubelet's pod log directory (`<ns>_<pod>_<uid>/<container>/0.log`): the apiserver cannot reach the kubelet. */
  podLogsDir: string;
  /** containerd's socket, for `ctr` in tests; its config is beside it. Restarted when it dies. */
  containerdSocket: string;
  stop(): Promise<void>;
}

/** Whether this machine can run the node at all (root, the runtime, the CNI plugins, iptables, ipset). */
export function realNodeUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'the real node needs root (kubelet, containerd, bridge, iptables)';
  for (const bin of ['/usr/bin/containerd', '/usr/sbin/runc', '/usr/lib/cni/bridge', '/usr/lib/cni/host-local']) {
    if (!existsSync(bin))
      return `${bin} is missing (scripts/test.sh installs containerd, runc and containernetworking-plugins)`;
  }
  return undefined;
}

export function containerdCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'agent-farm', 'containerd');
}

export interface PreparedNode {
  /** The bridge's address, there from now on: services for pods bind it before the node starts. */
  gateway: string;
  /** On failure its processes are stopped; the host is put back by `abandon`. */
  start(opts: { kubeConfig: KubeConfig; kubeconfigFile: string; costFile?: string }): Promise<RealNode>;
  /** Puts the host back when the node was not started, or its start failed. */
  abandon(): Promise<void>;
}

/**
 * The host's part, before any service starts: the record of the host (host.ts), and the bridge with the
 * gateway address, so that Kafka and the test servers can listen where pods reach them.
 */
export async function prepareRealNode(log: Logger): Promise<PreparedNode> {
  const unavailable = realNodeUnavailable();
  if (unavailable) throw new RealNodeError(unavailable);
  mkdirSync(NODE_RUN_DIR, { recursive: true });
  const dir = mkdtempSync(join(NODE_RUN_DIR, 'node-'));
  const root = containerdCacheDir();
  const record: HostRecord = await recordHost(log, {
    bridge: BRIDGE,
    ownDirs: [dir],
    cacheDirs: [root],
    processMarks: [dir],
  }).catch((err) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  try {
    await run('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
    await run('ip', ['addr', 'add', `${POD_GATEWAY}/24`, 'dev', BRIDGE]);
    await run('ip', ['link', 'set', BRIDGE, 'up']);
  } catch (err) {
    await restoreHost(record, log);
    throw new RealNodeError(`the real node's bridge could not be made: ${errorMessage(err)}`);
  }
  return {
    gateway: POD_GATEWAY,
    start: (opts) => startNode({ ...opts, log, dir, root, record }),
    abandon: () => restoreHost(record, log),
  };
}

async function startNode(opts: {
  kubeConfig: KubeConfig;
  kubeconfigFile: string;
  /** Where to write one line of what the start cost (the test command prints it). */
  costFile?: string;
  log: Logger;
  dir: string;
  root: string;
  record: HostRecord;
}): Promise<RealNode> {
  const { log, dir, root, record } = opts;
  const procs: Guarded[] = [];
  let containerd: Guarded | undefined;
  let stopping = false;
  const stopProcesses = async () => {
    stopping = true;
    for (const p of procs.splice(0).reverse()) await p.stop(5000);
    await containerd?.stop(5000);
  };
  const stop = async () => {
    await stopProcesses();
    await restoreHost(record, log);
  };
  const started = Date.now();
  try {
    const [tools, image] = await Promise.all([ensureNodeTools(log), buildFarmImage(log)]);
    const readyMs = Date.now() - started;
    log.info('real node: tools and image ready', { ms: readyMs });
    const sock = join(dir, 'containerd.sock');
    writeContainerdConfig(dir, root, sock);
    // Supervised as systemd would: a runtime that dies is started again (its containers keep running under
    // their shims meanwhile).
    const startContainerd = async () => {
      const proc = spawnGuarded('/usr/bin/containerd', ['--config', join(dir, 'containerd.toml')], {
        logFile: join(dir, 'containerd.log'),
      });
      containerd = proc;
      void proc.exited.then((code) => {
        if (stopping || containerd !== proc) return;
        log.warn('containerd exited; starting it again', { code });
        setTimeout(() => void startContainerd().catch((err) => log.error('containerd did not restart', { err })), 1000);
      });
      await waitUntil('containerd', READY_TIMEOUT_MS, containerd, join(dir, 'containerd.log'), async () => {
        await run('ctr', ['--address', sock, 'version']);
        return true;
      });
    };
    await startContainerd();
    const importStarted = Date.now();
    const nodeImage = await importImages(sock, image.id, tools.pause, image.podman.run.bind(image.podman), dir, log);
    const importMs = Date.now() - importStarted;

    const podLogsDir = join(dir, 'pod-logs');
    const kubeletPort = await freePort();
    const healthzPort = await freePort();
    writeFileSync(join(dir, 'kubelet.yaml'), kubeletConfig(sock, kubeletPort, healthzPort, podLogsDir));
    const startKubelet = () =>
      spawnGuarded(
        tools.kubelet,
        [
          `--config=${join(dir, 'kubelet.yaml')}`,
          `--kubeconfig=${opts.kubeconfigFile}`,
          `--root-dir=${join(dir, 'kubelet')}`,
          `--hostname-override=${REAL_NODE_NAME}`,
          // Not loopback (refused as a node IP, and kube-router needs an IPv4 address of the node).
          `--node-ip=${POD_GATEWAY}`,
          `--node-labels=${Object.entries(REAL_NODE_LABEL)
            .map(([k, v]) => `${k}=${v}`)
            .join(',')}`,
          '--v=1',
        ],
        { logFile: join(dir, 'kubelet.log') },
      );
    procs.push(startKubelet());
    const core = opts.kubeConfig.makeApiClient(CoreV1Api);
    for (let attempt = 1; ; attempt++) {
      try {
        await waitUntil('the kubelet', READY_TIMEOUT_MS, procs[0], join(dir, 'kubelet.log'), async () => {
          const node = (await core.readNode(REAL_NODE_NAME)).body;
          return !!node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        });
        break;
      } catch (err) {
        // containerd answers its own API (what startContainerd waits for) before its CRI service has initialized,
        // longer while it recovers a killed node's state; the kubelet then exits at once. Started again, as
        // systemd would.
        if (attempt >= 5 || !(err instanceof RealNodeError) || !/server is not initialized yet/.test(err.message))
          throw err;
        log.warn('the kubelet exited: containerd’s CRI service is not initialized yet; starting it again', { attempt });
        await sleep(2000);
        procs[0] = startKubelet();
      }
    }
    // No node IPAM controller runs: the node's pod range is set once, as kube-router reads it.
    const node = (await core.readNode(REAL_NODE_NAME)).body;
    if (!node.spec?.podCIDR)
      await core.patchNode(
        REAL_NODE_NAME,
        [{ op: 'add', path: '/spec/podCIDR', value: POD_CIDR }],
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        {
          headers: { 'Content-Type': 'application/json-patch+json' },
        },
      );

    // kube-router as a NetworkPolicy engine only (the bridge routes, nothing proxies services).
    procs.push(
      spawnGuarded(
        tools.kubeRouter,
        [
          `--kubeconfig=${opts.kubeconfigFile}`,
          `--hostname-override=${REAL_NODE_NAME}`,
          '--run-firewall=true',
          '--run-router=false',
          '--run-service-proxy=false',
          '--enable-cni=false',
          '--enable-ipv6=false',
          '--iptables-sync-period=5s',
          '--metrics-port=0',
          `--health-port=${await freePort()}`,
          '--v=1',
        ],
        { logFile: join(dir, 'kube-router.log') },
      ),
    );
    await waitUntil(
      'kube-router',
      READY_TIMEOUT_MS,
      procs[1],
      join(dir, 'kube-router.log'),
      async () => (await run('iptables', ['-S', 'KUBE-ROUTER-FORWARD']).catch(() => '')).length > 0,
    );
    log.info('real node up', { node: REAL_NODE_NAME, image: nodeImage, dir, ms: Date.now() - started });
    // What the node cost this run, for the test command's closing lines.
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    if (opts.costFile)
      writeFileSync(
        opts.costFile,
        `real node: up in ${s(Date.now() - started)} (waiting for its tools and the image ${s(readyMs)}, importing the image ${s(importMs)})\n`,
      );
    return {
      name: REAL_NODE_NAME,
      image: nodeImage,
      gateway: POD_GATEWAY,
      podLogsDir,
      containerdSocket: sock,
      stop,
    };
  } catch (err) {
    const logs = ['containerd', 'kubelet', 'kube-router']
      .filter((n) => existsSync(join(dir, `${n}.log`)))
      .map((n) => `--- tail of ${n}.log ---\n${tail(join(dir, `${n}.log`), 15)}`)
      .join('\n');
    // The host is put back by `abandon` at the end: the bridge stays meanwhile, Kafka may be binding its address.
    await stopProcesses().catch((e) => log.error('stopping the node after a failed start failed', { err: e }));
    throw new RealNodeError(`the real node did not start: ${errorMessage(err)}\n${logs}`);
  }
}

function writeContainerdConfig(dir: string, root: string, sock: string): void {
  mkdirSync(join(dir, 'cni'), { recursive: true });
  // host-local keeps its leases in our directory; no masquerading: pods only talk to this host.
  writeFileSync(
    join(dir, 'cni', '10-farm.conflist'),
    JSON.stringify({
      cniVersion: '1.0.0',
      name: 'farm-node',
      plugins: [
        {
          type: 'bridge',
          bridge: BRIDGE,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: POD_CIDR, gateway: POD_GATEWAY }]],
            routes: [{ dst: '0.0.0.0/0' }],
            dataDir: join(dir, 'cni-ipam'),
          },
        },
      ],
    }),
  );
  mkdirSync(root, { recursive: true });
  // restrict_oom_score_adj: root here lacks CAP_SYS_RESOURCE, so the pause container's oom score -998 would
  // fail every pod ("can't get final child's PID from pipe"); runc with cgroupfs (no systemd on this machine).
  writeFileSync(
    join(dir, 'containerd.toml'),
    `version = 2
root = "${root}"
state = "${join(dir, 'state')}"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]
[grpc]
  address = "${sock}"
[ttrpc]
  address = "${sock}.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE_IMAGE}"
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${join(dir, 'cni')}"
[plugins."io.containerd.internal.v1.opt"]
  path = "${join(dir, 'opt')}"
`,
  );
}

function kubeletConfig(sock: string, port: number, healthzPort: number, podLogsDir: string): string {
  // JSON is YAML. Loopback only, no read-only port, no anonymous access; the kernel settings it wants are set
  // by it and put back by host.ts; eviction thresholds low (a CI disk is often past 85%); the image is never
  // garbage-collected (it cannot be pulled again); podPidsLimit bounds a fork bomb per pod.
  return JSON.stringify({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: '127.0.0.1',
    port,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: false } },
    authorization: { mode: 'AlwaysAllow' },
    cgroupDriver: 'cgroupfs',
    containerRuntimeEndpoint: `unix://${sock}`,
    failSwapOn: false,
    protectKernelDefaults: false,
    registerWithTaints: [REAL_NODE_TAINT],
    evictionHard: {
      'memory.available': '50Mi',
      'nodefs.available': '1%',
      'imagefs.available': '1%',
      'nodefs.inodesFree': '1%',
    },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    podLogsDir,
    podPidsLimit: 4096,
    maxPods: 30,
    serializeImagePulls: false,
    resolvConf: '/etc/resolv.conf',
    volumeStatsAggPeriod: '0s',
  });
}

/** The pause image (made here) and the farm image (from podman), each imported once into containerd's store. */
async function importImages(
  sock: string,
  imageId: string,
  pauseBin: string,
  podman: (args: string[]) => Promise<string>,
  dir: string,
  log: Logger,
): Promise<string> {
  const ctr = (args: string[]) => run('ctr', ['--address', sock, '--namespace', 'k8s.io', ...args]);
  const has = async (name: string) => (await ctr(['images', 'ls', '-q', `name==${name}`])).trim() === name;
  if (!(await has(PAUSE_IMAGE))) {
    const archive = join(dir, 'pause.tar');
    await writePauseArchive(pauseBin, join(dir, 'pause-image'), archive);
    await ctr(['images', 'import', '--index-name', PAUSE_IMAGE, archive]);
  }
  const nodeImage = `${IMAGE_REPO}:${imageId.slice(0, 12)}`;
  if (!(await has(nodeImage))) {
    const started = Date.now();
    await podman(['tag', imageId, nodeImage]);
    const archive = join(dir, 'farm-image.tar');
    try {
      await podman(['save', '--format', 'docker-archive', '-o', archive, nodeImage]);
    } finally {
      await podman(['untag', imageId, nodeImage]).catch(() => undefined);
    }
    await ctr(['images', 'import', archive]);
    rmSync(archive, { force: true });
    log.info('farm image imported into the node', { image: nodeImage, ms: Date.now() - started });
  }
  // The store is kept between runs: only this build's image stays (containerd collects the layers no image uses).
  const older = (await ctr(['images', 'ls', '-q']))
    .split('\n')
    .filter((name) => name.startsWith(`${IMAGE_REPO}:`) && name !== nodeImage);
  if (older.length) await ctr(['images', 'rm', ...older]);
  return nodeImage;
}

/** An OCI archive of one layer holding /pause, tagged PAUSE_IMAGE. */
async function writePauseArchive(pauseBin: string, layout: string, archive: string): Promise<void> {
  rmSync(layout, { recursive: true, force: true });
  const blobs = join(layout, 'blobs', 'sha256');
  mkdirSync(blobs, { recursive: true });
  const rootfs = join(layout, 'rootfs');
  mkdirSync(rootfs);
  writeFileSync(join(rootfs, 'pause'), readFileSync(pauseBin), { mode: 0o755 });
  const layerTar = join(layout, 'layer.tar');
  await run('tar', ['--owner=0', '--group=0', '--mtime=@0', '-C', rootfs, '-cf', layerTar, 'pause']);
  const blob = (content: Buffer) => {
    const digest = createHash('sha256').update(content).digest('hex');
    writeFileSync(join(blobs, digest), content);
    return { digest: `sha256:${digest}`, size: content.length };
  };
  const layer = blob(readFileSync(layerTar));
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        config: { Entrypoint: ['/pause'], User: '65535:65535' },
        rootfs: { type: 'layers', diff_ids: [layer.digest] },
      }),
    ),
  );
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
        layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
      }),
    ),
  );
  writeFileSync(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(layout, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          ...manifest,
          platform: { architecture: 'amd64', os: 'linux' },
          annotations: { 'org.opencontainers.image.ref.name': PAUSE_IMAGE },
        },
      ],
    }),
  );
  await run('tar', ['-C', layout, '-cf', archive, 'oci-layout', 'index.json', 'blobs']);
}

async function waitUntil(
  what: string,
  timeoutMs: number,
  proc: Guarded | undefined,
  logFile: string,
  ready: () => Promise<boolean>,
): Promise<void> {
  let exitCode: number | null | undefined;
  void proc?.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new RealNodeError(`${what} exited with code ${exitCode}: ${tail(logFile, 10)}`);
    try {
      if (await ready()) return;
    } catch (err) {
      lastErr = err;
    }
    await sleep(500);
  }
  throw new RealNodeError(`${what} not ready after ${timeoutMs / 1000}s${lastErr ? `: ${errorMessage(lastErr)}` : ''}`);
}
