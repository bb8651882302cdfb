/** @farm-image (waits for the background build of the image; run late) */
// The agent Job's pod, made of podman containers of the farm's image as the Job spec describes them
// (buildAgentJob: the `agent` container and the `sandbox` sidecar, their env, volumes and security): the agent
// container with the seccomp profile a containerd node applies for RuntimeDefault and a secret in its environment,
// on a network that reaches this machine (slirp4netns, like a pod's eth0); the sidecar in its network (and IPC)
// namespace, sharing only the checkouts and the control socket's directory, with its own seccomp profile. A hostile
// check goes through the real runner, as the agent sends it, and must come back with its own result and nothing
// else: no secret, no connection but its own loopback, no write outside the checkout, nothing left running.
import { execFile, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { V1Container, V1Job } from '@kubernetes/client-node';
import { createLogger } from '@farm/runtime';
import { farm } from '../../proto/src';
import { buildAgentJob } from '../../apps/orchestrator/src/kubernetes-job-spec';
import type { SandboxPodSettings } from '../../clients/kube/src';
import type { ChecksResult, ConfinementStatus } from '../../clients/sandbox/src';
import { holdFarmImage, type BuiltImage } from './farm-image';
import { OWNER_LABEL, removeContainersOfDeadRuns } from './run-in-image';

const exec = promisify(execFile);
const log = createLogger('pod-sandbox-test');
const SECRET = `sk-pod-secret-${process.pid}`;
const RUNTIME_DEFAULT = join(__dirname, 'seccomp', 'containerd-runtime-default.json');
const LOCALHOST_PROFILE = join(__dirname, '../../helm/agent-farm/files/seccomp/sandbox-runner.json');
/** conmon stops a container after this, even if this process is gone (the next run removes it). */
const MAX_SECONDS = 900;
/** What the agent container listens on, on the pod's loopback: a check must not reach it. */
const AGENT_PORT = 7777;

let image: BuiltImage & { release(): void };
let dir: string;
/** A listener of this machine's, reachable from the pod through slirp4netns at 10.0.2.2 (the pod's way out). */
let outside: Server;
let outsidePort: number;

const podman = (args: string[]) => image.podman.run(args);

beforeAll(async () => {
  image = await holdFarmImage(log);
  const removed = await removeContainersOfDeadRuns(image.podman);
  if (removed.length) log.warn('removed the containers of an earlier run that was killed', { removed });
  dir = mkdtempSync('/var/tmp/pod-sandbox-test-');
  outside = createServer((s) => s.end('outside\n'));
  await new Promise<void>((r) => outside.listen(0, '0.0.0.0', r));
  outsidePort = (outside.address() as { port: number }).port;
}, 30 * 60_000);
afterAll(async () => {
  outside?.close();
  image?.release();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Pod {
  job: V1Job;
  agent: string;
  runner: string;
  /** The checkouts directory, as this machine sees it (shared by both containers). */
  checkouts: string;
  inAgent(argv: string[], env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The command lines of the processes of the runner container (its PID namespace), but the lister's. */
  runnerProcesses(): Promise<string[]>;
  stop(): Promise<void>;
}

let pods = 0;

/** podman's form of a container's securityContext (user, read-only root, capabilities, seccomp). */
function securityArgs(c: V1Container, podSeccomp: string): string[] {
  const sc = c.securityContext ?? {};
  const seccomp = sc.seccompProfile?.type ?? podSeccomp;
  const profile =
    seccomp === 'Unconfined'
      ? 'unconfined'
      : seccomp === 'Localhost'
        ? LOCALHOST_PROFILE // as if installed on the node under sc.seccompProfile.localhostProfile
        : RUNTIME_DEFAULT; // what containerd applies for RuntimeDefault
  return [
    `--user=${sc.runAsUser ?? 1000}:${sc.runAsGroup ?? 1000}`,
    ...(sc.readOnlyRootFilesystem ? ['--read-only'] : []),
    ...(sc.capabilities?.drop?.includes('ALL') ? ['--cap-drop=ALL'] : []),
    ...(sc.allowPrivilegeEscalation === false ? ['--security-opt=no-new-privileges'] : []),
    `--security-opt=seccomp=${profile}`,
  ];
}

/** The agent Job's pod for `sandbox` settings, as podman containers; the agent container runs a loopback listener. */
async function startPod(sandbox: SandboxPodSettings): Promise<Pod> {
  const n = ++pods;
  const task = farm.v1.CodingTask.create({
    id: `pod-task-${n}`,
    changeRequestId: `pod-cr-${n}`,
    goal: 'anything',
    repo: { url: 'http://127.0.0.1:9/none.git', baseRef: 'main', baseCommit: 'a'.repeat(40) },
  });
  const job = buildAgentJob(task, { namespace: 'farm', image: image.id, secretName: 'agent-farm-secrets', sandbox });
  const spec = job.spec!.template.spec!;
  const podSeccomp = spec.securityContext!.seccompProfile!.type;
  const agentSpec = spec.containers[0];
  const runnerSpec = spec.initContainers![0];
  // A volume both containers mount is a directory here (an emptyDir shared by the pod); one only is a tmpfs.
  const root = join(dir, `pod-${n}`);
  const mounted = (c: V1Container) => new Map((c.volumeMounts ?? []).map((m) => [m.name, m.mountPath]));
  const shared = [...mounted(agentSpec).keys()].filter((v) => mounted(runnerSpec).has(v));
  for (const v of shared) {
    mkdirSync(join(root, v), { recursive: true });
    chownSync(join(root, v), 1000, 1000);
  }
  const volumeArgs = (c: V1Container) =>
    [...mounted(c)].map(([v, path]) =>
      shared.includes(v) ? `--volume=${join(root, v)}:${path}` : `--tmpfs=${path}:rw,exec,U`,
    );
  const envArgs = (c: V1Container, extra: Record<string, string> = {}) =>
    [...(c.env ?? []).map((e) => [e.name, e.value ?? '']), ...Object.entries(extra)].map(([k, v]) => `--env=${k}=${v}`);
  const common = ['run', '--detach', `--label=${OWNER_LABEL}=${process.pid}`, `--timeout=${MAX_SECONDS}`];

  const agent = `farm-pod-agent-${process.pid}-${n}`;
  const runner = `farm-pod-sandbox-${process.pid}-${n}`;
  const listener = `require("net").createServer((s) => s.end("agent loopback\\n")).listen(${AGENT_PORT}, "127.0.0.1")`;
  await podman([
    ...common,
    `--name=${agent}`,
    '--network=slirp4netns:allow_host_loopback=true',
    ...securityArgs(agentSpec, podSeccomp),
    ...volumeArgs(agentSpec),
    // the Secret the agent gets whole (envFrom): its model key
    ...envArgs(agentSpec, { OPENAI_API_KEY: SECRET, FARM_GIT_TOKEN: SECRET }),
    image.id,
    'node',
    '-e',
    listener,
  ]);
  await podman([
    ...common,
    `--name=${runner}`,
    `--network=container:${agent}`,
    `--ipc=container:${agent}`,
    ...securityArgs(runnerSpec, podSeccomp),
    ...volumeArgs(runnerSpec),
    ...envArgs(runnerSpec),
    image.id,
    ...runnerSpec.args!, // after the image's entrypoint, tini
  ]);
  const checkouts = join(root, 'checkouts');
  const pod: Pod = {
    job,
    agent,
    runner,
    checkouts,
    inAgent: (argv, env = {}) =>
      new Promise((resolve) => {
        const child = spawn(
          'podman',
          ['exec', ...Object.entries(env).map(([k, v]) => `--env=${k}=${v}`), agent, ...argv],
          { env: { ...process.env, ...image.podman.env } },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      }),
    async runnerProcesses() {
      const out = await podman([
        'exec',
        runner,
        'sh',
        '-c',
        'for p in /proc/[0-9]*; do [ "${p#/proc/}" = $$ ] || { tr "\\0" " " < $p/cmdline; echo; }; done 2>/dev/null',
      ]);
      return out
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('tr '));
    },
    async stop() {
      await podman(['rm', '--force', '--time=1', runner]).catch(() => undefined);
      await podman(['rm', '--force', '--time=1', agent]).catch(() => undefined);
    },
  };
  // the runner's startup probe: its socket
  const socket = join(root, 'sandbox-control', 'runner.sock');
  for (let i = 0; i < 300; i++) {
    try {
      if ((await exec('test', ['-S', socket]).then(() => true)) === true) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return pod;
}

/** The agent container's calls (scripts/image/pod-sandbox-agent.ts, the image's copy). */
async function agentCall<T>(pod: Pod, ...args: string[]): Promise<T> {
  const r = await pod.inAgent([
    'sh',
    '-c',
    'cd /app && exec node --import tsx scripts/image/pod-sandbox-agent.ts "$@"',
    'agent',
    ...args,
  ]);
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`the agent's call ${args[0]} printed no answer (exit ${r.code}): ${r.stdout}${r.stderr}`);
  }
}

/** A checkout of one commit, made as the agent makes it (under FARM_CHECKOUT_DIR), with the given files. */
async function checkout(pod: Pod, name: string, files: Record<string, string>): Promise<string> {
  const repo = join(pod.checkouts, name, 'repo');
  mkdirSync(repo, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(repo, file), text, { mode: 0o755 });
  const git = (...args: string[]) => exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
  await git('init', '-q', '-b', 'main');
  await git('add', '.');
  await git('commit', '-qm', 'base');
  await exec('chown', ['-R', '1000:1000', join(pod.checkouts, name)]);
  return `/work/checkouts/${name}/repo`; // in the containers
}

async function runChecksInPod(pod: Pod, repo: string, steps: object[]): Promise<ChecksResult> {
  writeFileSync(join(pod.checkouts, 'steps.json'), JSON.stringify(steps));
  return agentCall<ChecksResult>(pod, 'checks', repo, '/work/checkouts/steps.json');
}

/**
 * What a hostile check tries, one `name: outcome` line each. The secret comes in two halves (its arguments), so
 * that neither the checkout nor a command line holds it whole.
 */
const HOSTILE = `#!/bin/bash
secret="$1$2"
echo "env: $(env | grep -c "$secret")"
n=0; seen=0
for p in /proc/[0-9]*; do
  seen=$((seen + 1))
  tr '\\0' '\\n' < $p/environ 2>/dev/null | grep -q "$secret" && n=$((n + 1))
done
echo "environ: $n of $seen"
echo "agent processes: $(grep -l 'agent loopbac[k]' /proc/[0-9]*/cmdline 2>/dev/null | wc -l)"
m=0
for p in /proc/[0-9]*; do
  [ "$(readlink $p/ns/user)" = "$(readlink /proc/self/ns/user)" ] && continue
  { exec 3<$p/mem; } 2>/dev/null && { m=$((m + 1)); exec 3<&-; }
done
echo "mem of others: $m"
echo "service account: $(ls /var/run/secrets/kubernetes.io 2>/dev/null | wc -l)"
echo "credentials in the checkout: $(grep -rl "$secret" . 2>/dev/null | wc -l)"
echo "agent loopback: $(timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${AGENT_PORT} && head -1 <&3' 2>/dev/null || echo refused)"
echo "outside: $(timeout 3 bash -c 'exec 3<>/dev/tcp/10.0.2.2/$1 && head -1 <&3' _ "$OUTSIDE_PORT" 2>/dev/null || echo unreachable)"
echo "interfaces: $(awk -F: 'NR > 2 { gsub(/ /, "", $1); printf "%s ", $1 }' /proc/net/dev)"
echo "control socket: $(ls -A /run/farm-sandbox 2>/dev/null | wc -l)"
for f in /work/checkouts/planted /work/planted /app/planted /run/farm-sandbox/planted .git/hooks/pre-push ../planted; do
  (echo x > "$f") 2>/dev/null && echo "wrote: $f"
done
echo "checkout: $( (echo x > made-by-check) 2>/dev/null && echo writable)"
echo "own loopback: $(node -e 'const net = require("net"); const s = net.createServer((c) => c.end("ok")).listen(0, "127.0.0.1", () => net.connect(s.address().port, "127.0.0.1").on("data", (d) => { console.log(String(d)); process.exit(0); }))')"
sleep 1001 & disown
setsid sleep 1002 &
(sleep 1003 &)
echo "output on stderr" >&2
exit 0
`;

describe("the agent Job's pod: the sandbox sidecar (seccomp Unconfined for it only, the chart's default)", () => {
  let pod: Pod;
  beforeAll(async () => {
    pod = await startPod({});
  }, 5 * 60_000);
  afterAll(() => pod?.stop(), 60_000);

  it('is what the Job spec says: the sidecar gets no Secret, and reports its runs confined', async () => {
    const status = await agentCall<ConfinementStatus>(pod, 'status');
    expect(status.missing).toEqual([]);
    expect(status.runner).toBe('/run/farm-sandbox/runner.sock');
    expect(status.isolation).toMatchObject({
      network: 'namespace',
      loopback: 'own',
      filesystem: 'checkout-only',
      processTree: 'pid-namespace',
      proc: 'container', // the container's /proc cannot be mounted afresh: it holds only the runner
      endsWithParent: true,
    });
    const runnerEnv = await podman(['exec', pod.runner, 'sh', '-c', 'tr "\\0" "\\n" < /proc/1/environ; env']);
    expect(runnerEnv).not.toContain(SECRET);
    // the control socket is there for the agent
    expect((await pod.inAgent(['ls', '/run/farm-sandbox'])).stdout.trim()).toBe('runner.sock');
  });

  it('hands a hostile check nothing: no secret, no connection, no write outside the checkout; and its real result', async () => {
    const repo = await checkout(pod, 'hostile', { 'hostile.sh': HOSTILE });
    const before = await pod.runnerProcesses();
    const result = await runChecksInPod(pod, repo, [
      { name: 'hostile', run: `OUTSIDE_PORT=${outsidePort} ./hostile.sh ${SECRET.slice(0, 6)} ${SECRET.slice(6)}` },
      { name: 'tests', run: 'echo "3 passed, 1 failed"; exit 7' },
    ]);
    const [hostile, tests] = result.steps;
    const report = Object.fromEntries(
      hostile.output
        .split('\n')
        .filter((l) => l.includes(': '))
        .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
    );
    log.info('hostile check', { report });
    expect(hostile.exitCode).toBe(0);
    expect(report.env).toBe('0');
    expect(report.environ).toMatch(/^0 of \d+$/); // every process it sees: the runner's container only
    expect(report['agent processes']).toBe('0');
    expect(report['mem of others']).toBe('0');
    expect(report['service account']).toBe('0');
    expect(report['credentials in the checkout']).toBe('0');
    expect(report['agent loopback']).toBe('refused');
    expect(report.outside).toBe('unreachable');
    expect(report.interfaces.trim()).toBe('lo');
    expect(report['control socket']).toBe('0');
    expect(hostile.output).not.toContain('wrote:');
    expect(report.checkout).toBe('writable');
    expect(report['own loopback']).toBe('ok');
    expect(hostile.output).toContain('output on stderr');
    // the check's own result comes back: exit code and output
    expect(tests).toMatchObject({ name: 'tests', ok: false, exitCode: 7, output: '3 passed, 1 failed\n' });
    expect(result.failed!.name).toBe('tests');
    // the agent container's listener was there all along, for the agent
    expect(
      (await pod.inAgent(['node', '-e', `require("net").connect(${AGENT_PORT}, "127.0.0.1").pipe(process.stdout)`]))
        .stdout,
    ).toBe('agent loopback\n');
    // nothing the check started is left: the runner's container holds tini and the runner again
    expect(before.filter((p) => !p.startsWith('sh -c'))).toEqual([
      '/usr/bin/tini -- node dist/sandbox-runner.mjs',
      'node dist/sandbox-runner.mjs',
    ]);
    const after = await pod.runnerProcesses();
    expect(after.filter((p) => !p.startsWith('sh -c'))).toEqual(before.filter((p) => !p.startsWith('sh -c')));
    expect(after.join('\n')).not.toMatch(/sleep 100[123]/);
    // what it could write is in its checkout, nowhere else
    expect(readFileSync(join(pod.checkouts, 'hostile', 'repo', 'made-by-check'), 'utf8')).toBe('x\n');
  });

  it('bounds a fork bomb and a file that fills the disk, and leaves nothing behind', async () => {
    const repo = await checkout(pod, 'bombs', {
      'bomb.sh': '#!/bin/bash\nbomb() { bomb | bomb & }\nbomb\nsleep 5\necho survived\n',
    });
    const started = Date.now();
    const result = await runChecksInPod(pod, repo, [{ name: 'fork bomb', run: './bomb.sh', timeoutSeconds: 20 }]);
    expect(Date.now() - started).toBeLessThan(60_000);
    const bomb = result.steps[0];
    log.info('fork bomb', { exitCode: bomb.exitCode, timedOut: bomb.timedOut, output: bomb.output.slice(-300) });
    expect(bomb.output).toMatch(/Resource temporarily unavailable|retry|fork/i); // the process limit struck
    // the driver sets 16 MiB per file (RLIMIT_FSIZE; 1 GiB by default); in a pod the emptyDir's sizeLimit bounds the rest
    const fill = await runChecksInPod(pod, repo, [
      { name: 'disk', run: 'head -c 200000000 /dev/zero > big', timeoutSeconds: 30 },
    ]);
    log.info('disk fill', { step: fill.steps[0] });
    expect(fill.steps[0]).toMatchObject({ ok: false, killedBy: 'file-size' });
    const leftovers = (await pod.runnerProcesses()).filter((p) => !p.startsWith('sh -c'));
    expect(leftovers).toEqual(['/usr/bin/tini -- node dist/sandbox-runner.mjs', 'node dist/sandbox-runner.mjs']);
    // and the runner goes on serving
    expect((await agentCall<ConfinementStatus>(pod, 'status')).missing).toEqual([]);
  });
});

describe("the sidecar with the chart's Localhost profile (RuntimeDefault plus the namespace calls)", () => {
  it(
    'confines the runs as Unconfined does',
    async () => {
      const pod = await startPod({
        seccompProfile: { type: 'Localhost', localhostProfile: 'farm/sandbox-runner.json' },
      });
      try {
        const status = await agentCall<ConfinementStatus>(pod, 'status');
        expect(status.missing).toEqual([]);
        expect(status.isolation).toMatchObject({
          network: 'namespace',
          filesystem: 'checkout-only',
          processTree: 'pid-namespace',
        });
        const repo = await checkout(pod, 'plain', { 'README.md': 'plain\n' });
        const result = await runChecksInPod(pod, repo, [
          { name: 'net', run: "awk -F: 'NR > 2 { print $1 }' /proc/net/dev" },
        ]);
        expect(result.steps[0]).toMatchObject({ exitCode: 0 });
        expect(result.steps[0].output.trim()).toBe('lo');
      } finally {
        await pod.stop();
      }
    },
    5 * 60_000,
  );
});

describe('the sidecar under RuntimeDefault (an operator narrowed it): it says what it lacks and tasks are refused', () => {
  it(
    'reports the gaps naming the chart values, and the agent refuses its task before cloning',
    async () => {
      const pod = await startPod({ seccompProfile: { type: 'RuntimeDefault' } });
      try {
        const status = await agentCall<ConfinementStatus & { reason: string }>(pod, 'status');
        expect(status.missing.map((g) => g.risk)).toEqual(['network', 'filesystem', 'processes']);
        expect(status.reason).toContain('the sandbox runner container cannot confine repository commands');
        expect(status.reason).toContain('sandbox.seccompProfile');
        expect(status.reason).toContain(
          'FARM_SANDBOX_ACCEPT_RISK=network,filesystem,processes (Helm value sandbox.acceptRisk)',
        );
        // the agent's own entry, with the Job's environment (FARM_TASK included)
        const run = await pod.inAgent(
          ['sh', '-c', 'mkdir -p /tmp/spool && node dist/agent-job.mjs; echo "exit $?"; cat /tmp/spool/*.json'],
          {
            FARM_AGENT_SPOOL_DIR: '/tmp/spool',
            OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', // never called
          },
        );
        expect(run.stdout).toMatch(/^exit 3$/m); // HARD_FAIL
        const spooled = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { value: string };
        const result = farm.v1.CommitResult.decode(Buffer.from(spooled.value, 'base64'));
        expect(result.status).toBe(farm.v1.CommitStatus.HARD_FAIL);
        expect(result.failedStep).toBe(farm.v1.FailedStep.STEP_CHECK);
        expect(result.notes[0]).toContain('sandbox.seccompProfile');
        expect(run.stderr).not.toMatch(/clone/);
        expect(run.stderr).not.toContain(SECRET);
      } finally {
        await pod.stop();
      }
    },
    5 * 60_000,
  );
});
