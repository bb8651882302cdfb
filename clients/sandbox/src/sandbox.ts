/**
 * Runs one command of untrusted repository code: denylist first, then in its own process group (and PID
 * namespace where possible) with a wall-clock timeout that kills the whole tree, resource limits, a
 * scrubbed environment with a private HOME, no network unless asked for (but its own loopback), and no
 * writes outside the checkout. What could actually be applied on this machine is reported with every
 * result, so callers can say when isolation was missing.
 *
 * The run's lifetime does not depend on this process staying healthy: its outermost process gets
 * SIGKILL when this process dies (PR_SET_PDEATHSIG), which ends the PID namespace and everything in it,
 * and coreutils `timeout` kills it shortly after the timeout even if this process's timer never fires.
 *
 * Limits and their weaknesses:
 * - `cpuSeconds` is RLIMIT_CPU, per process: a tree of processes may use more in total; the timeout bounds it.
 * - `memoryBytes` is a cgroup limit on the resident memory of the whole tree where a cgroup can be created.
 *   Otherwise it becomes RLIMIT_AS of 4x the value per process: address space, not memory, because Node
 *   (~0.7 GB at start), V8 heaps and JVMs reserve much more virtual memory than they touch, and a tight
 *   RLIMIT_AS makes them fail at start-up rather than when they use too much.
 * - `maxProcesses` is a cgroup pids limit where possible. RLIMIT_NPROC, the fallback, does not apply to real
 *   root (a farm run as root without a user namespace: a fork bomb is then stopped only by the timeout). In
 *   the run's own user namespace (set inside it, as here) it counts the run's own tasks, threads included, and
 *   holds for its root too (measured on Linux 6.18 in the sandbox runner's container: a fork bomb under
 *   `maxProcesses` 64 got `fork: retry: Resource temporarily unavailable` and the step went on); without a
 *   user namespace it counts every process of the user (the farm's own included).
 * - `maxFileBytes` is RLIMIT_FSIZE (per file written).
 * Writes: with a mount namespace everything but the checkout, the run's home and a private /tmp and
 * /dev/shm is read-only, for root too, and the command holds no capabilities (namespace-setup.ts); without
 * one it can write whatever its user can. Reads are not confined: the command can read what its user can.
 * The PID namespace hides other processes' /proc/<pid>/environ (the farm's secrets); without it a command
 * running as the same user could read them there.
 *
 * Where FARM_SANDBOX_RUNNER names a sandbox runner (a pod's sidecar container that holds no credential and
 * shares only the checkout, remote-runner.ts), the commands run there: this process sends each request over
 * the runner's unix socket and gets the same result or error back. Without it (one machine) they run here.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Counter, Gauge, Histogram } from 'prom-client';
import { errorMessage, metricsRegistry, silentLogger, type HealthStatus, type Logger } from '@farm/runtime';
import { checkCommand } from './denylist';
import { CommandDenied, ProbeTimedOut, SandboxError } from './errors';
import {
  cgroupsFor,
  lifetimeToolsFor,
  limitsToolFor,
  forgetNamespacePlan,
  namespacesFor,
  RunCgroup,
  signalQuietly,
  type LifetimeTools,
  type Isolation,
  type LimitsTool,
  type NamespacePlan,
  type Network,
} from './isolation';
import {
  acceptedRisksFromEnv,
  confinementGaps,
  ConfinementUnavailable,
  describeGaps,
  RISKS,
  sandboxRunnerFromEnv,
  unacceptedGaps,
  type ConfinementGap,
  type Risk,
} from './confinement';
import { MAX_WRITABLE_DIRS, namespaceSetup } from './namespace-setup';
import { headAndTail, OutputCapture, withCutNote } from './output';
import { sandboxRunnerClient } from './runner-client';
import {
  DEFAULT_LIMITS,
  type KilledBy,
  type SandboxLimits,
  type SandboxRequest,
  type SandboxResult,
} from './sandbox-request';
import { withoutSecrets } from './secret-env';

/** Without a cgroup, RLIMIT_AS is this multiple of memoryBytes (see above). */
export const ADDRESS_SPACE_FACTOR = 4;

/** Joins the run's cgroups before anything else runs, so no child can escape them by forking early. */
const JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
/** PID 1 of the namespace: a shell that stays, so the command is not init (which ignores default signals). */
const NAMESPACE_INIT = '"$@"; exit $?';
/** How long after the timeout `timeout(1)` kills the run when this process's own timer did not. */
const EXTERNAL_TIMEOUT_GRACE_MS = 2000;
/** After the command ends, how long stragglers get to release its output pipes before they are closed. */
const PIPE_GRACE_MS = 2000;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The environment a sandboxed command sees: a fixed base, then the caller's allowed variables. */
export function sandboxEnv(
  extra: Record<string, string | undefined> = {},
  home: string,
  runId: string,
): { env: Record<string, string>; dropped: string[] } {
  const env: Record<string, string> = {
    PATH: process.env.PATH || DEFAULT_PATH,
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    LANG: process.env.LANG || 'C.UTF-8',
    TERM: 'dumb',
    CI: 'true',
    NO_COLOR: '1',
    GIT_CONFIG_NOSYSTEM: '1', // the host's /etc/gitconfig may name credential helpers
    GIT_TERMINAL_PROMPT: '0',
  };
  const { kept, dropped } = withoutSecrets(extra);
  Object.assign(env, kept);
  env.FARM_SANDBOX_RUN = runId; // marks the run's processes (see killMarked)
  return { env, dropped };
}

function createMetrics() {
  return {
    runs: new Counter({
      name: 'farm_sandbox_runs_total',
      help: 'Sandboxed commands, by outcome (ok, failed, timeout, killed, denied, unconfined: refused for a missing guarantee)',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
    duration: new Histogram({
      name: 'farm_sandbox_run_duration_seconds',
      help: 'Wall-clock time of sandboxed commands',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 180, 600, 1800],
      registers: [metricsRegistry],
    }),
    unisolated: new Counter({
      name: 'farm_sandbox_unisolated_runs_total',
      help: 'Runs that asked for no network but had the host network (no namespace here; FARM_SANDBOX_ACCEPT_RISK=network)',
      registers: [metricsRegistry],
    }),
  };
}
let metrics: ReturnType<typeof createMetrics> | undefined;
let warnedNoNetworkNamespace = false;
let warnedWeakIsolation = false;
const sandboxMetrics = () => (metrics ??= createMetrics());

/**
 * Runner mode: set once by the sandbox runner's entry (remote-runner.ts), never detected. The runner's runs may
 * keep its container's /proc in their PID namespace (nothing there holds a secret), hide `hide` (its control
 * socket's directory), keep the checkout's `.git` read-only, and must stay under `checkoutRoot` when given.
 */
export interface RunnerHost {
  hide: string[];
  checkoutRoot?: string;
}
let runnerHost: RunnerHost | undefined;

/** Makes this process the sandbox runner: its own runs, never a remote one (see RunnerHost). */
export function becomeSandboxRunner(host: RunnerHost): void {
  runnerHost = host;
}

/** The runner this process sends its commands to: FARM_SANDBOX_RUNNER, unless it is the runner itself. */
function remoteRunner(): string | undefined {
  return runnerHost ? undefined : sandboxRunnerFromEnv();
}

/** What a run with this network mode gets (probed once per process; the runner's, where there is one). */
export async function detectIsolation(network: Network = 'none'): Promise<Isolation> {
  const runner = remoteRunner();
  if (runner) return (await sandboxRunnerClient(runner).status(network)).isolation;
  return detectIsolationHere(network);
}

async function detectIsolationHere(network: Network): Promise<Isolation> {
  const [ns, tool, cgroup, lifetime] = await Promise.all([
    namespacesFor(network, { pidWithoutOwnProc: runnerHost !== undefined }),
    limitsToolFor(),
    cgroupsFor(),
    lifetimeToolsFor(),
  ]);
  return isolationOf(network, ns, tool, cgroup !== undefined, lifetime);
}

/** What a run would get in this process and which guarantees it would lack (the sandbox runner's status answer). */
export async function confinementHere(
  network: Network = 'none',
): Promise<{ isolation: Isolation; gaps: ConfinementGap[] }> {
  const isolation = await detectIsolationHere(network);
  return { isolation, gaps: confinementGaps(isolation, { runner: runnerHost !== undefined }) };
}

export interface ConfinementStatus {
  isolation: Isolation;
  missing: ConfinementGap[];
  accepted: ConfinementGap[];
  /** The sandbox runner's socket, when the commands run there. */
  runner?: string;
}

/**
 * Whether repository commands can run with the guarantees the operator did not give up: what is missing
 * (empty: they can), here or in the sandbox runner. For a start-up report and for refusing a task before it
 * spends anything. A runner that does not answer throws SandboxRunnerUnavailable.
 */
export async function confinementStatus(
  accepted: readonly Risk[] = acceptedRisksFromEnv(),
): Promise<ConfinementStatus> {
  const runner = remoteRunner();
  const { isolation, gaps } = runner ? await sandboxRunnerClient(runner).status('none') : await confinementHere('none');
  const missing = unacceptedGaps(gaps, accepted);
  return { isolation, missing, accepted: gaps.filter((g) => !missing.includes(g)), ...(runner ? { runner } : {}) };
}

/** The refusal of a status with missing guarantees: what is missing, and the settings that give or accept it. */
export function describeStatus(status: ConfinementStatus): string {
  return describeGaps(status.missing, { runner: status.runner !== undefined });
}

let confinementGauge: Gauge<'risk' | 'state'> | undefined;

/**
 * Probes the sandbox at a process's start and says what it found: a gauge per guarantee
 * (`farm_sandbox_confinement{risk,state}`: held, accepted or missing) and, when one is missing, an error line
 * naming it and the setting. Returns the status, for a health check.
 */
export async function reportConfinement(log: Logger): Promise<ConfinementStatus> {
  const status = await confinementStatus();
  confinementGauge ??= new Gauge({
    name: 'farm_sandbox_confinement',
    help: "The sandbox's guarantees on this machine: 1 for the state each is in (held, accepted: given up by FARM_SANDBOX_ACCEPT_RISK, missing: tasks are refused)",
    labelNames: ['risk', 'state'],
    registers: [metricsRegistry],
  });
  for (const risk of RISKS) {
    const state = status.missing.some((g) => g.risk === risk)
      ? 'missing'
      : status.accepted.some((g) => g.risk === risk)
        ? 'accepted'
        : 'held';
    for (const s of ['held', 'accepted', 'missing']) confinementGauge.set({ risk, state: s }, s === state ? 1 : 0);
  }
  const where = status.runner ? { runner: status.runner } : {};
  if (status.missing.length)
    log.error('repository commands cannot be confined here: tasks will be refused', {
      reason: describeStatus(status),
      isolation: status.isolation,
      ...where,
    });
  else if (status.accepted.length)
    log.warn('the sandbox runs repository commands without guarantees the operator gave up', {
      accepted: status.accepted.map((g) => g.risk),
      isolation: status.isolation,
      ...where,
    });
  else log.info('repository commands run confined', { isolation: status.isolation, ...where });
  return status;
}

/** What a long-running process says of its sandbox: its latest answer, or that the probe is still running. */
export interface ConfinementWatch {
  /** The guarantees missing by the latest answer (tasks are refused); none while no probe has answered. */
  missing(): ConfinementGap[];
  /** Unhealthy when a guarantee is missing; healthy but degraded ("probing") while the probe does not answer. */
  health(): HealthStatus;
  stop(): void;
}

/**
 * `reportConfinement` for a process that lives on (farm up, a worker replica): a probe that runs out of time on a
 * busy machine is no verdict, so instead of refusing, the process says it is probing and asks again in the
 * background (every `retryMs`) until the probe answers.
 */
export async function watchConfinement(log: Logger, retryMs = 15_000): Promise<ConfinementWatch> {
  let status: ConfinementStatus | undefined;
  let probing: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ask = async (): Promise<void> => {
    try {
      status = await reportConfinement(log);
      probing = undefined;
    } catch (err) {
      if (!(err instanceof ProbeTimedOut)) throw err;
      probing = err.message;
      log.warn('the sandbox probe timed out: probing again; tasks wait for its answer meanwhile', {
        err: errorMessage(err),
        retryMs,
      });
      if (!stopped)
        timer = setTimeout(
          () => void ask().catch((e: unknown) => log.error('probing the sandbox failed', { err: errorMessage(e) })),
          retryMs,
        );
      timer?.unref();
    }
  };
  await ask();
  return {
    missing: () => status?.missing ?? [],
    health: () =>
      status?.missing.length
        ? { healthy: false, reasons: [describeStatus(status)] }
        : { healthy: true, reasons: probing ? [`degraded: probing the sandbox (${probing})`] : [] },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function isolationOf(
  network: Network,
  ns: NamespacePlan,
  tool: LimitsTool,
  cgroup: boolean,
  lifetime: LifetimeTools,
): Isolation {
  return {
    network: network === 'host' ? 'host' : ns.network ? 'namespace' : 'unavailable',
    loopback: ns.network ? (ns.loopback ? 'own' : 'down') : 'host',
    filesystem: ns.filesystem ? 'checkout-only' : 'unrestricted',
    endsWithParent: ns.pid && lifetime.parentDeathSignal,
    externalTimeout: lifetime.externalTimeout,
    processTree: ns.pid ? 'pid-namespace' : 'process-group',
    proc: ns.pid ? (ns.ownProc ? 'own' : 'container') : 'host',
    limits: tool,
    memory: cgroup ? 'cgroup' : tool !== 'none' ? 'address-space' : 'none',
    processes: cgroup ? 'cgroup' : tool !== 'none' ? 'rlimit-nproc' : 'none',
  };
}

function limitsPrefix(tool: LimitsTool, limits: SandboxLimits, cgroup: boolean): string[] {
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  const addressSpace = cgroup ? undefined : limits.memoryBytes * ADDRESS_SPACE_FACTOR;
  if (tool === 'prlimit') {
    return [
      'prlimit',
      `--cpu=${cpu}:${cpu + 5}`, // SIGXCPU at the soft limit says why; SIGKILL at the hard one if it is caught
      `--fsize=${limits.maxFileBytes}`,
      '--core=0', // SIGXCPU/SIGXFSZ dump core by default; no core files in the checkout
      ...(cgroup ? [] : [`--nproc=${limits.maxProcesses}`, `--as=${addressSpace}`]),
      '--',
    ];
  }
  if (tool === 'ulimit') {
    const extra = cgroup ? '' : ` -u ${limits.maxProcesses} -v ${Math.ceil(addressSpace! / 1024)}`;
    const set = `ulimit -f ${Math.max(1, Math.floor(limits.maxFileBytes / 1024))} -c 0${extra} && ulimit -S -t ${cpu} && ulimit -H -t ${cpu + 5}`;
    return ['bash', '-c', `${set} || exit 125; exec "$@"`, 'farm-limits'];
  }
  return [];
}

/** Kills processes carrying the run's marker: the tree, even parts that left the process group. */
function killMarked(runId: string): void {
  const marker = `FARM_SANDBOX_RUN=${runId}\0`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // gone meanwhile, or not ours to read (so not ours to kill either)
    }
    if (environ.includes(marker)) signalQuietly(Number(entry));
  }
}

/** `dir` lies inside `root` (not `root` itself), by their paths. */
function isStrictlyUnder(dir: string, root: string): boolean {
  const rel = relative(resolve(root), resolve(dir));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function signalFromExit(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const entry = Object.entries(constants.signals).find(([, n]) => n === code - 128);
  return (entry?.[0] as NodeJS.Signals | undefined) ?? null;
}

const MEMORY_ERRORS =
  /MemoryError|Cannot allocate memory|out of memory|allocation failed|std::bad_alloc|OutOfMemoryError/i;

/**
 * Runs a command in the sandbox. Throws CommandDenied (not retryable) when the denylist refuses it and
 * SandboxError when it cannot be started; a command that fails, times out or hits a limit is a result. With a
 * sandbox runner (FARM_SANDBOX_RUNNER) it runs there, and a runner that does not answer throws
 * SandboxRunnerUnavailable.
 */
export async function runSandboxed(req: SandboxRequest): Promise<SandboxResult> {
  const runner = remoteRunner();
  if (runner) return sandboxRunnerClient(runner).run(req);
  return runSandboxedHere(req);
}

/** Runs a command in this process's machine or container (the sandbox runner's way of running one). */
export async function runSandboxedHere(req: SandboxRequest): Promise<SandboxResult> {
  if ((req.argv === undefined) === (req.command === undefined)) {
    throw new SandboxError('runSandboxed needs either argv or command');
  }
  if (req.argv?.length === 0) throw new SandboxError('runSandboxed was given an empty argv');
  const shown = req.command ?? req.argv!.join(' ');
  const verdict = checkCommand(req.argv ?? req.command!);
  if (!verdict.allowed) {
    sandboxMetrics().runs.inc({ outcome: 'denied' });
    throw new CommandDenied(shown, verdict.rule, verdict.reason);
  }
  if (!existsSync(req.cwd)) throw new SandboxError(`working directory ${req.cwd} does not exist`);
  const absent = [...(req.writableDirs ?? []), ...(req.readableDirs ?? [])].filter((dir) => !existsSync(dir));
  if (absent.length) throw new SandboxError(`writable or readable directories ${absent.join(', ')} do not exist`);
  if ((req.writableDirs ?? []).length + (req.readableDirs ?? []).length > MAX_WRITABLE_DIRS - 2)
    throw new SandboxError(`at most ${MAX_WRITABLE_DIRS - 2} writable and readable directories besides the checkout`);
  if (runnerHost?.checkoutRoot && !isStrictlyUnder(req.cwd, runnerHost.checkoutRoot))
    throw new SandboxError(
      `the sandbox runner runs commands only in checkouts under ${runnerHost.checkoutRoot}, not in ${req.cwd}`,
    );
  if (req.signal?.aborted) throw new SandboxError('the run was cancelled before it started');
  const log = req.log ?? silentLogger;
  const given = req.capabilities ?? {};
  const limits: SandboxLimits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(req.limits ?? {}))
    if (value !== undefined) limits[name as keyof SandboxLimits] = value; // an unset limit keeps its default
  const network = req.network ?? 'none';
  const [ns, tool, cgroupPlan, lifetime] = await Promise.all([
    given.namespaces ?? namespacesFor(network, { pidWithoutOwnProc: runnerHost !== undefined }),
    given.limitsTool ?? limitsToolFor(),
    given.cgroups !== undefined ? given.cgroups : cgroupsFor(),
    given.lifetime ?? lifetimeToolsFor(),
  ]);

  const context = { runner: runnerHost !== undefined };
  const missing = unacceptedGaps(
    confinementGaps(isolationOf(network, ns, tool, cgroupPlan !== undefined, lifetime), context),
    req.acceptRisks ?? acceptedRisksFromEnv(),
  );
  if (missing.length) {
    sandboxMetrics().runs.inc({ outcome: 'unconfined' });
    throw new ConfinementUnavailable(missing, context);
  }

  const home = await mkdtemp(join(tmpdir(), 'farm-sandbox-'));
  await mkdir(join(home, 'tmp'));
  const runId = randomBytes(8).toString('hex');
  let cgroup: RunCgroup | undefined;
  if (cgroupPlan) {
    try {
      cgroup = RunCgroup.create(cgroupPlan, `farm-sandbox-${runId}`, limits);
    } catch (err) {
      log.warn('could not create a cgroup for a sandboxed run; limits fall back to rlimits', { err });
    }
  }
  const isolation = isolationOf(network, ns, tool, cgroup !== undefined, lifetime);
  if (isolation.network === 'unavailable') {
    sandboxMetrics().unisolated.inc();
    if (!warnedNoNetworkNamespace) {
      warnedNoNetworkNamespace = true; // once per process; every result still says so
      log.warn(
        'no network namespace on this machine: sandboxed commands run with the host network (accepted by FARM_SANDBOX_ACCEPT_RISK)',
        {
          command: shown,
        },
      );
    }
  }

  const weaknesses = [
    isolation.filesystem === 'unrestricted' && 'writes outside the checkout are not prevented',
    !isolation.endsWithParent && 'a command can outlive this process',
    !isolation.externalTimeout && 'only this process enforces the timeout',
    isolation.loopback === 'down' && "the network namespace's loopback is down",
  ].filter((w): w is string => typeof w === 'string');
  if (weaknesses.length && !warnedWeakIsolation) {
    warnedWeakIsolation = true; // once per process; every result says what was in force
    log.warn('the sandbox cannot contain commands fully on this machine (accepted by FARM_SANDBOX_ACCEPT_RISK)', {
      weaknesses,
      isolation,
    });
  }

  const { env, dropped } = sandboxEnv(req.env, home, runId);
  // each wrapper execs the next; the parent-death signal goes on the process this one spawns and on the
  // one `timeout` forks, so a dying parent at either level takes the namespace holder (unshare) with it
  const dieWithParent = lifetime.parentDeathSignal ? ['setpriv', '--pdeathsig', 'KILL', '--'] : [];
  const externalSeconds = ((req.timeoutMs + EXTERNAL_TIMEOUT_GRACE_MS) / 1000).toFixed(1);
  const argv = [
    ...(cgroup ? ['sh', '-c', JOIN_CGROUPS, 'farm-cgroups', ...cgroup.procsFiles, '--'] : []),
    ...dieWithParent,
    ...(lifetime.externalTimeout ? ['timeout', '-s', 'KILL', externalSeconds, ...dieWithParent] : []),
    ...(ns.args.length ? ['unshare', ...ns.args, '--'] : []),
    ...(ns.setup
      ? namespaceSetup(
          ns,
          [req.cwd, home, ...(req.writableDirs ?? []), ...(req.readableDirs ?? [])],
          limits.memoryBytes,
          {
            // the runner's checks share the checkout with a container that holds credentials and runs git there
            ...(runnerHost ? { hide: runnerHost.hide } : {}),
            // readable directories are bound like writable ones (they may lie under the covered /tmp), then read-only
            readOnly: [...(runnerHost ? [join(req.cwd, '.git')] : []), ...(req.readableDirs ?? [])],
          },
        )
      : []),
    ...(ns.pid ? ['sh', '-c', NAMESPACE_INIT, 'farm-init'] : []),
    ...limitsPrefix(tool, limits, cgroup !== undefined),
    ...(req.argv ?? ['bash', '-c', req.command!]),
  ];

  const started = performance.now();
  const capture = new OutputCapture();
  let timedOut = false;
  let outcome: { code: number | null; signal: NodeJS.Signals | null };
  let cgroupStats: ReturnType<RunCgroup['stats']> | undefined;
  try {
    // detached: its own session and process group, which the timeout kills as a whole
    const child = spawn(argv[0], argv.slice(1), {
      cwd: req.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => {
        const text = decoder.write(chunk);
        capture.push(text);
        req.onOutput?.(text);
      });
    }
    const killTree = () => {
      if (child.pid !== undefined) signalQuietly(-child.pid);
      cgroup?.killAll();
      if (!ns.pid && !cgroup) killMarked(runId);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, req.timeoutMs);
    const abort = () => killTree();
    req.signal?.addEventListener('abort', abort, { once: true });
    outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.on('error', (err) =>
        reject(new SandboxError(`could not start ${argv[0]}: ${err.message}`, { cause: err })),
      );
      child.on('exit', (code, signal) => {
        killTree(); // background jobs of a finished command must not outlive it
        // a process that escaped every kill may still hold the pipes: stop waiting for it after a while
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          resolve({ code, signal });
        }, PIPE_GRACE_MS).unref();
      });
      child.on('close', (code, signal) => resolve({ code, signal }));
    }).finally(() => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', abort);
    });
  } finally {
    cgroupStats = cgroup?.stats(); // before destroy() removes the files
    const cleanup = await Promise.allSettled([
      rm(home, { recursive: true, force: true, maxRetries: 3 }),
      ...(cgroup ? [cgroup.destroy()] : []),
    ]);
    for (const r of cleanup) if (r.status === 'rejected') log.warn('sandbox cleanup failed', { err: r.reason });
  }

  const durationMs = Math.round(performance.now() - started);
  if (setupFailed(ns, outcome.code, capture.text()) && !given.namespaces)
    forgetNamespacePlan(network, { pidWithoutOwnProc: runnerHost !== undefined }); // proven again by the next run
  const signal = outcome.signal ?? signalFromExit(outcome.code);
  // `timeout(1)` struck because this process's timer could not (a blocked event loop)
  if (!timedOut && signal === 'SIGKILL' && durationMs >= req.timeoutMs) timedOut = true;
  const text = capture.text();
  const failed = outcome.code !== 0;
  let killedBy: KilledBy | undefined;
  if (timedOut) killedBy = 'timeout';
  else if (cgroupStats?.oomKills) killedBy = 'memory';
  else if (signal === 'SIGXCPU') killedBy = 'cpu';
  else if (signal === 'SIGXFSZ' || (failed && /File too large|File size limit exceeded/.test(text)))
    killedBy = 'file-size';
  else if (failed && isolation.memory === 'address-space' && MEMORY_ERRORS.test(text)) killedBy = 'memory';
  else if (failed && cgroupStats?.processLimitHits) killedBy = 'processes';

  const notes: Record<KilledBy, string> = {
    timeout: `killed after the ${req.timeoutMs} ms timeout`,
    memory: `out of memory (limit ${limits.memoryBytes} bytes)`,
    cpu: `killed after ${limits.cpuSeconds} s of CPU time`,
    'file-size': `a file reached the size limit of ${limits.maxFileBytes} bytes`,
    processes: `the limit of ${limits.maxProcesses} processes was reached`,
  };
  const explained = withCutNote((req.explainOutput ?? headAndTail)(text, limits.maxOutputBytes), capture);
  const output = killedBy
    ? `${explained}${explained.endsWith('\n') || !explained ? '' : '\n'}[sandbox: ${notes[killedBy]}]`
    : explained;

  const m = sandboxMetrics();
  m.runs.inc({ outcome: timedOut ? 'timeout' : killedBy ? 'killed' : failed ? 'failed' : 'ok' });
  m.duration.observe(durationMs / 1000);
  return {
    exitCode: outcome.code,
    signal,
    timedOut,
    killedBy,
    durationMs,
    output,
    outputChars: capture.total,
    isolation,
    droppedEnv: dropped,
  };
}

/**
 * Whether a run ended in its confinement's own set-up rather than in its command: unshare refused the namespaces
 * (exit 1, its own words) or the namespace set-up stopped (exit 125, "farm-sandbox: ..."). The verdict that
 * promised them no longer holds.
 */
function setupFailed(ns: NamespacePlan, code: number | null, output: string): boolean {
  if (ns.setup && code === 125 && /^farm-sandbox: /m.test(output)) return true;
  return ns.args.length > 0 && code === 1 && /^unshare: (unshare|cannot|failed)/m.test(output);
}
