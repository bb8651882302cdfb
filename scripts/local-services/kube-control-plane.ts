/**
 * A real Kubernetes control plane for tests and local dev, without Docker or a download: etcd,
 * kube-apiserver, kube-controller-manager and kube-scheduler built from the Go module proxy (the module in
 * scripts/k8s-control-plane/ pins the versions), cached outside the clone, run on loopback in a temp dir.
 * Pods run on the project's process node (process-node.ts), not here.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger, type Logger } from '@farm/runtime';
import { alive, freePort, ownedTempDir, run, sleep, spawnGuarded, tail, type Guarded } from './proc';

export const MODULE_DIR = resolve(__dirname, '../k8s-control-plane');
/** scripts/k8s-control-plane/versions.env: the one place the Kubernetes and Helm versions are set. */
export const VERSIONS = Object.fromEntries(
  readFileSync(join(MODULE_DIR, 'versions.env'), 'utf8')
    .split('\n')
    .map((l) => l.match(/^([A-Z_]+)=(\S+)/))
    .filter((m) => !!m)
    .map((m) => [m[1], m[2]]),
) as { KUBERNETES_VERSION: string; HELM_VERSION: string };
export const KUBERNETES_VERSION = VERSIONS.KUBERNETES_VERSION;
// helm is built with them: one `go build` compiles the k8s.io libraries both use once (a cold build of helm on
// its own took 12 min of a busy machine's CI run).
const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'helm'] as const;
const PACKAGES = [
  './etcd',
  'k8s.io/kubernetes/cmd/kube-apiserver',
  'k8s.io/kubernetes/cmd/kube-controller-manager',
  'k8s.io/kubernetes/cmd/kube-scheduler',
  'helm.sh/helm/v3/cmd/helm',
];
// Without these the server reports v0.0.0 and clients that check the version (helm's kubeVersion) refuse it.
const [MAJOR, MINOR] = KUBERNETES_VERSION.slice(1).split('.');
export const LDFLAGS = [
  '-s',
  '-w',
  ...['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
    `-X ${pkg}.gitVersion=${KUBERNETES_VERSION}`,
    `-X ${pkg}.gitMajor=${MAJOR}`,
    `-X ${pkg}.gitMinor=${MINOR}`,
    `-X ${pkg}.gitTreeState=clean`,
  ]),
  `-X helm.sh/helm/v3/internal/version.version=${VERSIONS.HELM_VERSION}`,
].join(' ');
/**
 * The controllers the farm needs: Jobs (and their TTL), Deployments and ReplicaSets (pool mode, the chart),
 * the garbage collector (a Job deleted with propagation Background takes its pods), namespaces, default
 * service accounts and the root CA ConfigMap that service-account token volumes name.
 */
const CONTROLLERS = [
  'job-controller',
  'ttl-after-finished-controller',
  'deployment-controller',
  'replicaset-controller',
  'garbage-collector-controller',
  'namespace-controller',
  'serviceaccount-controller',
  'root-ca-certificate-publisher-controller',
  'pod-garbage-collector-controller',
];
const READY_TIMEOUT_MS = 60_000;
const COLD_BUILD_NOTE = 'a cold build takes 6-20 min on 2 cores; later runs use the cache';

export interface LocalKubernetes {
  /** A kubeconfig file (JSON) for the cluster's administrator (group system:masters), namespace default. */
  kubeconfig: string;
  server: string;
  /** PEM of the apiserver's self-signed CA. */
  caData: string;
  stop(): Promise<void>;
}

export class ControlPlaneError extends Error {
  override name = 'ControlPlaneError';
}

/** Where built binaries are kept between runs and clones: one directory per version and module content. */
export function controlPlaneCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'etcd/main.go']) hash.update(readFileSync(join(MODULE_DIR, f)));
  hash.update(LDFLAGS);
  return join(base, 'agent-farm', `k8s-${KUBERNETES_VERSION}-${hash.digest('hex').slice(0, 12)}`);
}

/** Builds the four binaries once (go build -mod=mod from the module proxy); a temp dir + rename keeps racing builders apart. */
export async function ensureControlPlaneBinaries(log: Logger): Promise<string> {
  const goMod = readFileSync(join(MODULE_DIR, 'go.mod'), 'utf8');
  if (!goMod.includes(`k8s.io/kubernetes ${KUBERNETES_VERSION}\n`))
    throw new ControlPlaneError(
      `scripts/k8s-control-plane/go.mod does not require k8s.io/kubernetes ${KUBERNETES_VERSION} (versions.env): make them agree`,
    );
  if (!goMod.includes(`helm.sh/helm/v3 ${VERSIONS.HELM_VERSION} `))
    throw new ControlPlaneError(
      `scripts/k8s-control-plane/go.mod does not require helm.sh/helm/v3 ${VERSIONS.HELM_VERSION} (versions.env): make them agree`,
    );
  const dir = controlPlaneCacheDir();
  const complete = () => BINARIES.every((b) => existsSync(join(dir, b)));
  if (complete()) return dir;
  const parent = resolve(dir, '..');
  mkdirSync(parent, { recursive: true });
  // One builder at a time (the test command starts one early, the test set-up may ask meanwhile): wait for it.
  const release = await buildLock(`${dir}.lock`, log);
  try {
    if (complete()) return dir;
    return await buildInto(dir, complete, log);
  } finally {
    release();
  }
}

/** Takes `file` (pid inside) exclusively; waits while a live process holds it, takes over a dead one's. */
export async function buildLock(file: string, log: Logger, what = 'the Go tools'): Promise<() => void> {
  let waiting = false;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(file, 'utf8').trim() || 0);
    if (!holder || !alive(holder)) {
      rmSync(file, { force: true });
      continue;
    }
    if (!waiting) log.info(`waiting for another build of ${what} to finish`, { pid: holder, lock: file });
    waiting = true;
    await sleep(2000);
  }
}

async function buildInto(dir: string, complete: () => boolean, log: Logger): Promise<string> {
  const staging = mkdtempSync(`${dir}.build-`);
  const started = Date.now();
  log.info(`building the Kubernetes control plane ${KUBERNETES_VERSION} with go (${COLD_BUILD_NOTE})`, {
    cacheDir: dir,
  });
  try {
    await run('go', ['build', `-ldflags=${LDFLAGS}`, '-o', staging + '/', ...PACKAGES], {
      cwd: MODULE_DIR,
      // -mod=mod lets go record sums go.sum lacks; no VCS stamping: the binaries depend on the sources only.
      env: { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' },
    });
    if (complete()) rmSync(staging, { recursive: true, force: true });
    else renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (complete()) return dir; // a concurrent builder won
    const hint = (err as Error).message.includes('ENOENT') ? ' (install Go 1.22 or newer)' : '';
    throw new ControlPlaneError(`building the Kubernetes control plane failed${hint}: ${(err as Error).message}`);
  }
  log.info('Kubernetes control plane built', { cacheDir: dir, ms: Date.now() - started });
  return dir;
}

/**
 * Helm, as scripts/check-deploy.sh installs it (go install into $(go env GOPATH)/bin), at HELM_VERSION; the
 * path of a helm already there at that version is returned as is.
 */
const VALIDATOR_DIR = resolve(__dirname, '../k8s/validate');

/**
 * The manifest validator of scripts/check-deploy.sh (scripts/k8s/validate: its own module, newer k8s.io
 * libraries), cached beside the control plane so a fresh clone does not build it again.
 */
export async function ensureManifestValidator(log: Logger): Promise<string> {
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(join(VALIDATOR_DIR, f)));
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const bin = join(base, 'agent-farm', `k8s-validate-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(bin)) return bin;
  mkdirSync(resolve(bin, '..'), { recursive: true });
  const release = await buildLock(`${bin}.lock`, log);
  try {
    if (existsSync(bin)) return bin;
    const started = Date.now();
    log.info('building the manifest validator with go', { bin });
    await run('go', ['build', '-o', `${bin}.tmp`, '.'], {
      cwd: VALIDATOR_DIR,
      env: { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' },
    });
    renameSync(`${bin}.tmp`, bin);
    log.info('manifest validator built', { bin, ms: Date.now() - started });
    return bin;
  } finally {
    release();
  }
}

/** helm, built with the control plane (same cache directory). */
export async function ensureHelm(log: Logger): Promise<string> {
  return join(await ensureControlPlaneBinaries(log), 'helm');
}

export async function startKubeControlPlane(opts: { log?: Logger } = {}): Promise<LocalKubernetes> {
  const log = opts.log ?? createLogger('local-services', { fields: { service: 'kubernetes' } });
  const bin = await ensureControlPlaneBinaries(log);
  const dir = ownedTempDir('farm-k8s-');
  const [etcdPort, peerPort, apiPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const server = `https://127.0.0.1:${apiPort}`;
  const procs: Guarded[] = [];
  const stop = async () => {
    // Dependents first: controllers and scheduler, then the apiserver, then its store.
    for (const p of procs.splice(0).reverse()) await p.stop(5000);
    rmSync(dir, { recursive: true, force: true });
  };
  const start = (name: string, args: string[]) => {
    const p = spawnGuarded(join(bin, name), args, { logFile: join(dir, `${name}.log`), cwd: dir });
    procs.push(p);
    return p;
  };
  const failed = async (err: unknown, logName: string): Promise<never> => {
    const logTail = tail(join(dir, `${logName}.log`));
    await stop();
    throw new ControlPlaneError(`${(err as Error).message}\n--- tail of ${logName}.log ---\n${logTail}`);
  };

  // Service-account tokens are signed with this key; the token file names the administrator the tests use.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  const adminToken = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${adminToken},farm-admin,farm-admin,"system:masters"\n`, { mode: 0o600 });

  const etcd = start('etcd', [
    '--name=farm',
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
    `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=farm=http://127.0.0.1:${peerPort}`,
    '--unsafe-no-fsync', // throwaway data: durability only costs time
    '--log-level=warn',
  ]);
  try {
    await waitFor(`etcd on ${etcdPort}`, etcd, async () => {
      const body = await get(`http://127.0.0.1:${etcdPort}/health`);
      return JSON.parse(body).health === 'true';
    });
  } catch (err) {
    return failed(err, 'etcd');
  }

  const apiserver = start('kube-apiserver', [
    `--etcd-servers=http://127.0.0.1:${etcdPort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${apiPort}`,
    `--cert-dir=${join(dir, 'certs')}`, // a self-signed serving certificate for 127.0.0.1 and localhost
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${join(dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // Loopback is no valid endpoint for the `kubernetes` Service, and nothing in a test dials it.
    '--endpoint-reconciler-type=none',
    // It taints every new Node not-ready until the node-lifecycle controller sees heartbeats; the process
    // node reports Ready once and sends none, so that controller does not run and the taint would stay.
    '--disable-admission-plugins=TaintNodesByCondition',
    '--profiling=false',
    '--v=0',
  ]);
  let caData = '';
  const admin = { token: adminToken, ca: () => caData };
  try {
    await waitFor(`kube-apiserver on ${apiPort}`, apiserver, async () => {
      const crt = join(dir, 'certs/apiserver.crt');
      if (!existsSync(crt)) return false;
      caData = readFileSync(crt, 'utf8');
      return (await get(`${server}/readyz`, admin)) === 'ok';
    });
  } catch (err) {
    return failed(err, 'kube-apiserver');
  }

  const kubeconfig = join(dir, 'admin.kubeconfig');
  writeFileSync(kubeconfig, JSON.stringify(kubeconfigFor(server, caData, 'farm-admin', adminToken)), {
    mode: 0o600,
  });
  const common = [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--secure-port=0', '--v=0'];
  const cm = start('kube-controller-manager', [
    ...common,
    `--controllers=${CONTROLLERS.join(',')}`,
    `--service-account-private-key-file=${join(dir, 'sa.key')}`,
    `--root-ca-file=${join(dir, 'certs/apiserver.crt')}`,
    '--use-service-account-credentials=false',
  ]);
  start('kube-scheduler', common); // binds pods to the process node; its log says why one stays Pending
  try {
    // The serviceaccount controller creating `default` shows the controller manager is running its loops.
    await waitFor('kube-controller-manager', cm, async () => {
      const sa = await get(`${server}/api/v1/namespaces/default/serviceaccounts/default`, admin).catch(() => '');
      return sa.includes('"kind":"ServiceAccount"');
    });
  } catch (err) {
    return failed(err, 'kube-controller-manager');
  }
  log.debug('kubernetes control plane up', { server, dir, kubeconfig });
  return { kubeconfig, server, caData, stop };
}

/** A kubeconfig (JSON is YAML) for one bearer-token user. */
export function kubeconfigFor(server: string, caData: string, user: string, token: string, namespace = 'default') {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'farm-local', cluster: { server, 'certificate-authority-data': Buffer.from(caData).toString('base64') } },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: 'farm-local', user, namespace } }],
    'current-context': user,
  };
}

async function waitFor(what: string, proc: Guarded, ready: () => Promise<boolean>): Promise<void> {
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new ControlPlaneError(`${what} exited with code ${exitCode} before being ready`);
    try {
      if (await ready()) return;
    } catch (err) {
      lastErr = err;
    }
    await sleep(200);
  }
  throw new ControlPlaneError(
    `${what} not ready after ${READY_TIMEOUT_MS / 1000}s${lastErr ? `: ${(lastErr as Error).message}` : ''}`,
  );
}

function get(url: string, auth?: { token: string; ca: () => string }): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const opts = auth ? { headers: { Authorization: `Bearer ${auth.token}` }, ca: auth.ca(), timeout: 5000 } : {};
    const req = (url.startsWith('https:') ? request : httpRequest)(url, opts, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () =>
        res.statusCode === 200 ? resolvePromise(body) : reject(new Error(`${url}: HTTP ${res.statusCode} ${body}`)),
      );
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
    req.end();
  });
}
