/**
 * What this machine can do to contain a command, found by trying it once per machine and kind of sandbox (the
 * verdict is shared by every process: shared-verdict.ts) and proven again when it expires (a kernel may have
 * user namespaces disabled, a container may forbid unshare or mount cgroupfs read-only):
 *
 * - namespaces (util-linux `unshare`): a private network namespace (with its own loopback brought up), a PID
 *   namespace whose end kills every process in it (also those that left the process group) and hides the
 *   host's processes and their environments in /proc, and a mount namespace in which only the checkout, the
 *   run's home and a private /tmp are writable (namespace-setup.ts; probed by writing inside and outside).
 *   A container masks parts of /proc, and the kernel then refuses a fresh /proc for a new PID namespace: only
 *   the sandbox runner (a container of its own holding no secret, see remote-runner.ts) is told to settle for a
 *   PID namespace that sees its container's /proc (`pidWithoutOwnProc`); nothing else ever does.
 *   A user namespace comes first where allowed, so the command holds no capability on the host (it cannot
 *   setns() back into the host's network); the set-up then drops every capability in the namespace too.
 * - lifetime (util-linux `setpriv --pdeathsig`, coreutils `timeout`): the run dies with the process that
 *   started it, and at its timeout even when that process hangs.
 * - limits (util-linux `prlimit`, else bash `ulimit`): CPU seconds, file size, core dumps, and where no
 *   cgroup takes over, address space and process count (see sandbox.ts for their weaknesses).
 * - cgroups (v2, or v1's memory and pids controllers), below the farm's own cgroup where it may create
 *   them: a resident-memory limit for the whole tree, a process-count limit that also holds for root, and
 *   an OOM count that tells a memory kill from other deaths.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ProbeTimedOut } from './errors';
import { namespaceSetup } from './namespace-setup';
import {
  forgetSharedVerdict,
  setSharedVerdictsForTests,
  sharedVerdict,
  VERDICT_TTL_MS,
  type SharedProbe,
} from './shared-verdict';

const exec = promisify(execFile);

/**
 * How long a probe command may take, attempt by attempt. A probe that runs out of time did not answer: on a
 * loaded machine (a sandboxed `echo` took 18 s at load 40) it is tried again with more time, and when the last
 * attempt runs out too, ProbeTimedOut says so — never "this machine cannot do it".
 */
export const PROBE_TIMEOUTS_MS = [10_000, 30_000, 90_000] as const;
let probeTimeoutsMs: readonly number[] = PROBE_TIMEOUTS_MS;
/** Tests only: shorter attempts, to put a probe out of time without loading the machine for minutes. */
export function setProbeTimeoutsForTests(timeouts: readonly number[] | undefined): void {
  probeTimeoutsMs = timeouts ?? PROBE_TIMEOUTS_MS;
  setSharedVerdictsForTests(timeouts === undefined); // probes with the test's attempts must run, not be read
}

/**
 * Runs a probe command: its output when it exits 0, undefined when it answers otherwise (it ran and failed:
 * that is the answer). Out of time on every attempt, it throws ProbeTimedOut.
 */
async function probe(file: string, args: string[], cwd?: string): Promise<string | undefined> {
  const timeouts = probeTimeoutsMs; // the ones this probe ran with, also in its message
  for (const timeout of timeouts) {
    try {
      return (await exec(file, args, { cwd, timeout, killSignal: 'SIGKILL' })).stdout;
    } catch (err) {
      const { killed, signal } = err as { killed?: boolean; signal?: string };
      if (!(killed && signal === 'SIGKILL')) return undefined;
    }
  }
  throw new ProbeTimedOut(`${file} ${args.filter((a) => !a.includes('\n')).join(' ')}`.slice(0, 300), timeouts);
}

/** Whether a probe command runs and exits 0 — that is the answer, so a failure is not an error here. */
async function works(file: string, args: string[]): Promise<boolean> {
  return (await probe(file, args)) !== undefined;
}

/**
 * A probe's result kept for the process and shared with every other (shared-verdict.ts) until it expires; one
 * that did not answer is forgotten, so the next caller probes again.
 */
function keepAnswer<T>(name: string, programs: readonly string[], probeOnce: () => Promise<T>): () => Promise<T> {
  let kept: { answer: Promise<T>; until: number } | undefined;
  return () => {
    if (kept && Date.now() < kept.until) return kept.answer;
    const verdict = sharedVerdict({ name, key: name, programs, probe: probeOnce, ttlMs: () => VERDICT_TTL_MS.full });
    const entry = { answer: verdict.then((v) => v.value), until: Infinity };
    kept = entry;
    verdict.then(
      ({ expiresAt }) => {
        if (kept === entry) entry.until = expiresAt;
      },
      () => {
        if (kept === entry) kept = undefined;
      },
    );
    return entry.answer;
  };
}

export type Network = 'none' | 'host';

/** What a run got on this machine: reported with every result. */
export interface Isolation {
  /** 'unavailable': network 'none' was asked for but the command had the host's network. */
  network: 'namespace' | 'unavailable' | 'host';
  /** 'own': 127.0.0.1 is the run's own loopback, up; 'down': a namespace whose loopback could not be brought up. */
  loopback: 'own' | 'down' | 'host';
  /** 'checkout-only': nothing outside the checkout, the run's home and a private /tmp is writable. */
  filesystem: 'checkout-only' | 'unrestricted';
  /** The tree dies when the process that started it dies (a PID namespace whose holder has a parent-death signal). */
  endsWithParent: boolean;
  /** The timeout is also enforced by a process of its own (coreutils timeout), not only by this process's timer. */
  externalTimeout: boolean;
  /** How the whole tree is ended: a PID namespace also catches processes that left the process group. */
  processTree: 'pid-namespace' | 'process-group';
  /**
   * What the run's /proc shows: 'own' only its PID namespace's processes; 'container' the sandbox runner's
   * container, whose processes hold no secret (runner mode only: a container's masked /proc cannot be mounted
   * afresh); 'host' every process of this machine the user can see (no PID namespace).
   */
  proc: 'own' | 'container' | 'host';
  limits: LimitsTool;
  memory: 'cgroup' | 'address-space' | 'none';
  processes: 'cgroup' | 'rlimit-nproc' | 'none';
}

export interface NamespacePlan {
  /** Arguments to `unshare` (empty: no namespaces). */
  args: string[];
  network: boolean;
  pid: boolean;
  /** The PID namespace has a /proc of its own (`--mount-proc`); without it, /proc is the container's. */
  ownProc: boolean;
  /** The namespace set-up runs first (see namespace-setup.ts); without it the command runs as unshare starts it. */
  setup: boolean;
  /** The run's own loopback interface is up. */
  loopback: boolean;
  /** Only the checkout, the run's home and a private /tmp are writable, and no capability is left. */
  filesystem: boolean;
}

const USER_NS = ['--user', '--map-root-user'];
const NET_NS = ['--net'];
const PID_NS = ['--pid', '--fork', '--kill-child', '--mount-proc']; // --mount-proc implies a mount namespace
/** Runner mode only: a PID namespace that keeps the container's /proc (a masked /proc cannot be mounted afresh). */
const PID_NS_CONTAINER_PROC = ['--pid', '--fork', '--kill-child', '--mount'];
const MOUNT_NS = ['--mount'];

export const NO_NAMESPACES: NamespacePlan = {
  args: [],
  network: false,
  pid: false,
  ownProc: false,
  setup: false,
  loopback: false,
  filesystem: false,
};

const namespacePlans = new Map<string, { plan: Promise<NamespacePlan>; until: number }>();

export interface ProbeOptions {
  /**
   * The sandbox runner only (set by its entry, never detected): a PID namespace whose /proc cannot be mounted
   * afresh still counts, after the ones that can. Its /proc then shows the runner's container.
   */
  pidWithoutOwnProc?: boolean;
}

/** The programs a namespace probe and the namespace set-up run: a replaced one changes the verdict's key. */
const NAMESPACE_PROGRAMS = ['unshare', 'sh', 'mount', 'setpriv', 'mkdir', 'ip', 'sed', 'cut', 'grep'];

/** The shared verdict of a namespace plan: keyed by its options and the probe's own code, so a new probe re-proves. */
function namespaceVerdict(network: Network, opts: ProbeOptions): Omit<SharedProbe<NamespacePlan>, 'probe' | 'ttlMs'> {
  const code = `${CONFINEMENT_PROBE}\n${namespaceSetup({ network: true, filesystem: true }, ['/c'], 1).join(' ')}`;
  return {
    name: `namespaces-${network}${opts.pidWithoutOwnProc ? '-container-proc' : ''}`,
    key: JSON.stringify({ network, containerProc: Boolean(opts.pidWithoutOwnProc), code }),
    programs: NAMESPACE_PROGRAMS,
  };
}

/**
 * The namespaces a run gets: proven once per machine and kind (shared-verdict.ts: every agent process reads the
 * same verdict) and kept by this process until the verdict expires — a full plan for 15 minutes, one short of it
 * for 30 s, since what failed may have been passing trouble. No answer (a probe out of time) is never kept.
 */
export function namespacesFor(network: Network, opts: ProbeOptions = {}): Promise<NamespacePlan> {
  const key = `${network}:${opts.pidWithoutOwnProc ? 'container-proc' : 'own-proc'}`;
  const cached = namespacePlans.get(key);
  if (cached && Date.now() < cached.until) return cached.plan;
  const verdict = sharedVerdict({
    ...namespaceVerdict(network, opts),
    probe: () => probeNamespaces(network, opts),
    ttlMs: (found) => (isFullPlan(network, found) ? VERDICT_TTL_MS.full : VERDICT_TTL_MS.partial),
  });
  const plan = verdict.then((v) => v.value);
  namespacePlans.set(key, { plan, until: Infinity });
  verdict.then(
    ({ expiresAt }) => {
      if (namespacePlans.get(key)?.plan === plan) namespacePlans.set(key, { plan, until: expiresAt });
    },
    () => {
      if (namespacePlans.get(key)?.plan === plan) namespacePlans.delete(key); // no answer: ask again next time
    },
  );
  return plan;
}

/**
 * A run found the plan no longer holds (its namespace set-up or unshare itself failed): forgotten here and for
 * every process, so the next run proves it again.
 */
export function forgetNamespacePlan(network: Network, opts: ProbeOptions = {}): void {
  namespacePlans.delete(`${network}:${opts.pidWithoutOwnProc ? 'container-proc' : 'own-proc'}`);
  forgetSharedVerdict(namespaceVerdict(network, opts));
}

function isFullPlan(network: Network, plan: NamespacePlan): boolean {
  return plan.pid && plan.filesystem && (network === 'host' || plan.network);
}

async function probeNamespaces(network: Network, opts: ProbeOptions): Promise<NamespacePlan> {
  const containerProc = opts.pidWithoutOwnProc
    ? [
        [...USER_NS, ...NET_NS, ...PID_NS_CONTAINER_PROC],
        [...NET_NS, ...PID_NS_CONTAINER_PROC],
      ]
    : [];
  const candidates =
    network === 'none'
      ? [
          [...USER_NS, ...NET_NS, ...PID_NS],
          [...NET_NS, ...PID_NS],
          ...containerProc,
          [...USER_NS, ...NET_NS, ...MOUNT_NS],
          [...NET_NS, ...MOUNT_NS],
          [...USER_NS, ...NET_NS],
          NET_NS,
        ]
      : [];
  candidates.push([...USER_NS, ...PID_NS], PID_NS);
  if (opts.pidWithoutOwnProc) candidates.push([...USER_NS, ...PID_NS_CONTAINER_PROC], PID_NS_CONTAINER_PROC);
  candidates.push([...USER_NS, ...MOUNT_NS], MOUNT_NS);
  for (const args of candidates) {
    if (await works('unshare', [...args, 'true'])) return { args, ...(await probeSetup(args)) };
  }
  return NO_NAMESPACES;
}

/** What the namespace set-up achieves with these namespaces, tried on a scratch checkout. */
async function probeSetup(args: string[]): Promise<Omit<NamespacePlan, 'args'>> {
  const network = args.includes('--net');
  const pid = args.includes('--pid');
  const ownProc = args.includes('--mount-proc');
  const mount = pid || args.includes('--mount');
  const dir = mkdtempSync(join(tmpdir(), 'farm-sandbox-probe-'));
  try {
    const checkout = join(dir, 'checkout');
    const home = join(dir, 'home');
    mkdirSync(checkout);
    mkdirSync(home);
    // The confined set-up is tried a few times before settling for less: a mount of the host that vanished
    // while the set-up read the mount table makes one attempt fail, not the machine.
    const attempts = mount ? [true, true, true, false] : [false];
    for (const [attempt, filesystem] of attempts.entries()) {
      const outside = join(dir, `outside-${attempt}`);
      const inside = `inside-${attempt}`; // relative: the command's working directory must be writable
      const seen = await probeOutput(checkout, 'unshare', [
        ...args,
        '--',
        ...namespaceSetup({ network, filesystem }, [checkout, home], 16 * 1024 * 1024),
        process.execPath,
        '-e',
        CONFINEMENT_PROBE,
        inside,
        outside,
      ]);
      if (!seen) continue;
      const confined = seen.capabilities === 0 && existsSync(join(checkout, inside)) && !existsSync(outside);
      if (filesystem && !confined) continue;
      return { network, pid, ownProc, setup: true, loopback: network && seen.loopback, filesystem };
    }
    return { network, pid, ownProc, setup: false, loopback: false, filesystem: false };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run in the namespaces: writes a file inside and one outside, reads its capabilities, talks to itself. */
const CONFINEMENT_PROBE = `
const fs = require('fs'), net = require('net');
const [inside, outside] = process.argv.slice(1);
fs.writeFileSync(inside, '');
try { fs.writeFileSync(outside, ''); } catch {}
const capabilities = parseInt(/^CapEff:\\s*(\\w+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1], 16);
const report = (loopback) => { console.log(JSON.stringify({ capabilities, loopback })); process.exit(0); };
const server = net.createServer((s) => s.end()).listen(0, '127.0.0.1', () => {
  net.connect(server.address().port, '127.0.0.1', () => report(true)).on('error', () => report(false));
}).on('error', () => report(false));
`;

async function probeOutput(
  cwd: string,
  file: string,
  args: string[],
): Promise<{ capabilities: number; loopback: boolean } | undefined> {
  const stdout = await probe(file, args, cwd); // out of time: no answer, thrown
  if (stdout === undefined) return undefined; // the set-up or the probe failed: these namespaces cannot do it
  try {
    return JSON.parse(stdout.trim().split('\n').pop() ?? '') as { capabilities: number; loopback: boolean };
  } catch {
    return undefined;
  }
}

export interface LifetimeTools {
  /** setpriv --pdeathsig: the run's outermost process dies with the process that started it. */
  parentDeathSignal: boolean;
  /** coreutils timeout: the run is killed at its timeout even if the process that started it hangs. */
  externalTimeout: boolean;
}
export const lifetimeToolsFor = keepAnswer('lifetime', ['setpriv', 'timeout'], async (): Promise<LifetimeTools> => {
  const [parentDeathSignal, externalTimeout] = await Promise.all([
    works('setpriv', ['--pdeathsig', 'KILL', '--', 'true']),
    works('timeout', ['-s', 'KILL', '5', 'true']),
  ]);
  return { parentDeathSignal, externalTimeout };
});

export type LimitsTool = 'prlimit' | 'ulimit' | 'none';
export const limitsToolFor = keepAnswer('limits', ['prlimit', 'bash'], async (): Promise<LimitsTool> => {
  if (await works('prlimit', ['--cpu=60', '--', 'true'])) return 'prlimit';
  return (await works('bash', ['-c', 'ulimit -t 60 -f 1000000'])) ? 'ulimit' : 'none';
});

export interface CgroupPlan {
  version: 1 | 2;
  /** Parent directories the run's cgroups are created in (v2: the same directory twice). */
  memoryParent: string;
  pidsParent: string;
}

let cgroupPlan: Promise<CgroupPlan | undefined> | undefined;

export function cgroupsFor(): Promise<CgroupPlan | undefined> {
  return (cgroupPlan ??= Promise.resolve().then(() => {
    for (const plan of cgroupCandidates()) {
      try {
        RunCgroup.create(plan, `farm-sandbox-probe-${process.pid}`, {
          memoryBytes: 64 * 1024 * 1024,
          maxProcesses: 8,
        }).destroyNow();
        return plan;
      } catch {
        continue; // read-only cgroupfs, no delegation, controller not enabled: try the next layout
      }
    }
    return undefined;
  }));
}

/** This process's cgroup path per controller, from /proc/self/cgroup ('' is the v2 hierarchy). */
function ownCgroups(): Map<string, string> {
  const own = new Map<string, string>();
  if (!existsSync('/proc/self/cgroup')) return own;
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n')) {
    const [, controllers, path] = line.split(':');
    for (const c of controllers.split(',')) own.set(c.replace(/^name=/, ''), path);
  }
  return own;
}

function cgroupCandidates(): CgroupPlan[] {
  const own = ownCgroups();
  const plans: CgroupPlan[] = [];
  const root = '/sys/fs/cgroup';
  if (existsSync(join(root, 'cgroup.controllers')) && own.has('')) {
    // v2 forbids processes in a cgroup that delegates controllers, so below our own cgroup only works
    // at the root; beside it (in our parent, which already delegates to us) is the usual place
    const ownDir = join(root, own.get('')!);
    for (const dir of [ownDir, dirname(ownDir)]) {
      const control = join(dir, 'cgroup.subtree_control');
      if (
        dir.startsWith(root) &&
        existsSync(control) &&
        /\bmemory\b.*\bpids\b|\bpids\b.*\bmemory\b/.test(read(control))
      ) {
        plans.push({ version: 2, memoryParent: dir, pidsParent: dir });
      }
    }
  }
  if (own.has('memory') && own.has('pids') && existsSync(join(root, 'memory')) && existsSync(join(root, 'pids'))) {
    plans.push({
      version: 1,
      memoryParent: join(root, 'memory', own.get('memory')!),
      pidsParent: join(root, 'pids', own.get('pids')!),
    });
  }
  return plans;
}

function read(file: string): string {
  return readFileSync(file, 'utf8');
}

function counter(file: string, name: string): number {
  if (!existsSync(file)) return 0;
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(read(file))?.[1] ?? 0);
}

/** The cgroup(s) of one sandboxed run. */
export class RunCgroup {
  private constructor(
    private readonly version: 1 | 2,
    private readonly memoryDir: string,
    private readonly pidsDir: string,
  ) {}

  static create(plan: CgroupPlan, name: string, limits: { memoryBytes: number; maxProcesses: number }): RunCgroup {
    const cg = new RunCgroup(plan.version, join(plan.memoryParent, name), join(plan.pidsParent, name));
    try {
      mkdirSync(cg.memoryDir);
      if (plan.version === 2) {
        writeFileSync(join(cg.memoryDir, 'memory.max'), String(limits.memoryBytes));
        // no swap: otherwise a runaway allocation swaps for a long time instead of dying
        if (existsSync(join(cg.memoryDir, 'memory.swap.max')))
          writeFileSync(join(cg.memoryDir, 'memory.swap.max'), '0');
      } else {
        writeFileSync(join(cg.memoryDir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
        const memsw = join(cg.memoryDir, 'memory.memsw.limit_in_bytes');
        if (existsSync(memsw)) writeFileSync(memsw, String(limits.memoryBytes));
        mkdirSync(cg.pidsDir);
      }
      writeFileSync(join(cg.pidsDir, 'pids.max'), String(limits.maxProcesses));
      return cg;
    } catch (err) {
      cg.destroyNow();
      throw err;
    }
  }

  /** Files a process writes its pid into to join (the sandbox's wrapper does it before exec). */
  get procsFiles(): string[] {
    return this.version === 2
      ? [join(this.memoryDir, 'cgroup.procs')]
      : [this.memoryDir, this.pidsDir].map((d) => join(d, 'cgroup.procs'));
  }

  stats(): { oomKills: number; processLimitHits: number } {
    const memoryEvents = join(this.memoryDir, this.version === 2 ? 'memory.events' : 'memory.oom_control');
    return {
      oomKills: counter(memoryEvents, 'oom_kill'),
      processLimitHits: counter(join(this.pidsDir, 'pids.events'), 'max'),
    };
  }

  /** SIGKILLs every process in the cgroup, wherever it moved in the process tree. */
  killAll(): void {
    const kill = join(this.pidsDir, 'cgroup.kill');
    if (this.version === 2 && existsSync(kill)) return writeFileSync(kill, '1');
    // v1: processes may fork while we kill; a few rounds settle it (the pids limit bounds the total)
    for (let round = 0; round < 20; round++) {
      const pids = this.pids();
      if (!pids.length) return;
      for (const pid of pids) signalQuietly(pid);
    }
  }

  private pids(): number[] {
    const procs = join(this.pidsDir, 'cgroup.procs');
    return existsSync(procs) ? read(procs).split('\n').filter(Boolean).map(Number) : [];
  }

  /** Kills what is left and removes the cgroups; waits (briefly) for killed processes to be reaped. */
  async destroy(): Promise<void> {
    this.killAll();
    for (let attempt = 0; ; attempt++) {
      try {
        return this.destroyNow();
      } catch (err) {
        if (attempt >= 50 || (err as NodeJS.ErrnoException).code !== 'EBUSY') throw err;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }

  destroyNow(): void {
    for (const dir of new Set([this.memoryDir, this.pidsDir])) if (existsSync(dir)) rmdirSync(dir);
  }
}

/** SIGKILL that tolerates the process being gone already. */
export function signalQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
