/** @farm-kubernetes (waits for the test cluster and its real node; run last) */
// The real node: pods of the farm's image as containers under containerd and runc, with the pod security the
// farm's Jobs run with; limits enforced by the kernel; what a pod reaches on the host; the runtime restarted
// under a running pod.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CoreV1Api, type V1Container, type V1Pod } from '@kubernetes/client-node';
import {
  adminKubeConfig,
  createTestNamespace,
  deleteTestNamespace,
} from '../../../apps/orchestrator/testing/kubernetes-test-cluster';
import { testRealNode, type TestRealNode } from '../kubernetes-later';
import { containerLog, podOnRealNode as podOnRealNodeOf, runToEnd as runPodToEnd } from './testing';

const admin = adminKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
let node: TestRealNode;
let ns: string;

beforeAll(async () => {
  node = await testRealNode();
});
beforeEach(async () => {
  ns = await createTestNamespace(admin, 'real-node');
});
afterEach(async () => {
  await deleteTestNamespace(admin, ns);
});

const podOnRealNode = (name: string, container: Partial<V1Container>) => podOnRealNodeOf(node, name, container);
const runToEnd = (pod: V1Pod) => runPodToEnd(core, ns, pod);
const logOf = (pod: V1Pod) => containerLog(node, ns, pod.metadata!.name!);

const exec = promisify(execFile);

/** The node's containerd: the process started with the config beside its socket. */
function containerdPid(must = true): number {
  const config = join(dirname(node.containerdSocket), 'containerd.toml');
  const pid = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .find((d) => {
      try {
        const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        return argv[0] === '/usr/bin/containerd' && argv.includes(config);
      } catch {
        return false;
      }
    });
  if (!pid && must) throw new Error('the node has no containerd running');
  return Number(pid ?? 0);
}

async function expectEventually(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const terminated = (pod: V1Pod) => pod.status!.containerStatuses![0].state!.terminated!;

test('a pod of the farm image runs as a container with the Jobs’ pod security, on the real node', async () => {
  const pod = await runToEnd(
    podOnRealNode('security', {
      command: [
        'sh',
        '-c',
        'id -u; grep -E "^(CapEff|Seccomp|NoNewPrivs):" /proc/self/status; touch /app/x 2>&1 || true; ' +
          'touch /tmp/ok && echo tmp-writable; node -e "console.log(process.version)"',
      ],
    }),
  );
  expect(pod.spec!.nodeName).toBe(node.name);
  expect(terminated(pod).exitCode).toBe(0);
  const out = logOf(pod);
  expect(out).toMatch(/^1000$/m);
  expect(out).toMatch(/^CapEff:\s+0+$/m); // no capabilities
  expect(out).toMatch(/^Seccomp:\s+2$/m); // filtered: the runtime's default profile
  expect(out).toMatch(/^NoNewPrivs:\s+1$/m);
  expect(out).toMatch(/Read-only file system/);
  expect(out).toMatch(/^tmp-writable$/m);
  expect(out).toMatch(/^v\d+\.\d+\.\d+$/m);
});

test('a container past its memory limit is OOMKilled by the kernel, as the Job launcher diagnoses it', async () => {
  const pod = await runToEnd(
    podOnRealNode('oom', {
      command: ['node', '-e', 'const a = []; for (;;) a.push(Buffer.alloc(8 << 20, 1));'],
      resources: { limits: { memory: '96Mi', cpu: '1' }, requests: { memory: '96Mi', cpu: '100m' } },
    }),
  );
  expect(terminated(pod)).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
});

describe('what a pod reaches on the host', () => {
  let onGateway: Server;
  let onLoopback: Server;
  const listen = (host: string) =>
    new Promise<Server>((resolve) => {
      const s = createServer((c) => c.end('hello from the host\n'));
      s.listen(0, host, () => resolve(s));
    });
  beforeAll(async () => {
    [onGateway, onLoopback] = await Promise.all([listen(node.gateway), listen('127.0.0.1')]);
  });
  afterAll(() => {
    onGateway.close();
    onLoopback.close();
  });

  test('a service on the gateway answers; the host’s loopback is not the pod’s', async () => {
    const port = (s: Server) => (s.address() as { port: number }).port;
    const connect = (host: string, p: number) =>
      `require("net").connect(${p}, "${host}").on("data", (d) => process.stdout.write("${host}:" + d)).on("error", (e) => console.log("${host}:" + e.code))`;
    const pod = await runToEnd(
      podOnRealNode('reach', {
        command: ['node', '-e', `${connect(node.gateway, port(onGateway))}; ${connect('127.0.0.1', port(onLoopback))}`],
      }),
    );
    const out = logOf(pod);
    expect(out).toContain(`${node.gateway}:hello from the host`);
    expect(out).toContain('127.0.0.1:ECONNREFUSED');
  });
});

test('a running pod outlives a restart of the container runtime and is reported when it ends', async () => {
  const started = core.createNamespacedPod(
    ns,
    podOnRealNode('runtime-restart', { command: ['sh', '-c', 'sleep 8; echo survived'] }),
  );
  await started;
  for (;;) {
    const p = (await core.readNamespacedPod('runtime-restart', ns)).body;
    if (p.status?.containerStatuses?.[0]?.state?.running) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  // As a crash: the node's supervisor starts it again, as systemd would.
  const before = containerdPid();
  process.kill(before, 'SIGKILL');
  await expectEventually(async () => {
    const now = containerdPid(false);
    if (!now || now === before) return false;
    await exec('ctr', ['--address', node.containerdSocket, 'version']);
    return true;
  }, 'containerd to be running again');
  const deadline = Date.now() + 90_000;
  let pod: V1Pod;
  for (;;) {
    pod = (await core.readNamespacedPod('runtime-restart', ns)).body;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') break;
    if (Date.now() > deadline) throw new Error('the pod was not reported after the runtime restart');
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(pod.status!.phase).toBe('Succeeded');
  expect(logOf(pod)).toContain('survived');
});
