/**
 * The sandbox runner: the process of a pod's `sandbox` container (a native sidecar of each agent and build Job
 * pod) that runs the repository's commands for the agent or the build. Its container holds no credential (no
 * Secret, no service-account token), shares only the checkouts with the main container, and may create user
 * namespaces (its own seccomp profile): so the commands run in user, network, mount and PID namespaces as on one
 * machine, and whatever they read in the container or its /proc holds nothing of the farm's.
 *
 * It listens on a unix socket in a directory only the two containers share (runner-protocol.ts), which every run
 * has hidden (an empty read-only tmpfs over it: a socket on a read-only mount still takes connections). Runs go
 * one at a time; after each, when the runner found itself alone in its PID namespace at start (its container:
 * tini as PID 1 and the runner), it kills whatever is left there but PID 1 and itself, until nothing is. A run's
 * own PID namespace already ends all of its processes with it: this is the second line. The runner is explicit
 * (its entry calls startSandboxRunner; nothing detects it), and only then a PID namespace whose /proc is the
 * container's counts as confining processes (confinement.ts).
 */
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { errorMessage, z, type Logger } from '@farm/runtime';
import { ConfinementUnavailable } from './confinement';
import { CommandDenied, SandboxError } from './errors';
import { explainFailure, headAndTail } from './output';
import { reachableSocketPath } from './runner-client';
import { MAX_REQUEST_BYTES, runnerRequestSchema, type RunnerAnswer, type RunnerRequest } from './runner-protocol';
import { becomeSandboxRunner, confinementHere, runSandboxedHere } from './sandbox';

/** The runner's settings: its socket (the same FARM_SANDBOX_RUNNER the main container sends to) and the checkouts. */
export const sandboxRunnerConfigSchema = z.object({
  FARM_SANDBOX_RUNNER: z
    .string({ required_error: "required: the runner's unix socket, in a directory shared with the main container" })
    .startsWith('/', "must be the absolute path of the runner's unix socket"),
  /** Where the main container makes its checkouts (shared with this container): runs must stay below it. */
  FARM_CHECKOUT_DIR: z.string().startsWith('/', 'must be an absolute path').optional(),
});

export interface SandboxRunnerOptions {
  socketPath: string;
  log: Logger;
  /** Runs must have their working directory below this directory (the shared checkouts), when given. */
  checkoutRoot?: string;
  /** Directories no run may see; default: the socket's directory. */
  hide?: string[];
  /**
   * Kill every other process of the PID namespace after each run. Default: only when the runner is alone in its
   * PID namespace at start (its own container); never on a machine shared with other programs.
   */
  sweep?: boolean;
  /** /proc, for tests of the sweep. */
  procDir?: string;
}

export interface SandboxRunner {
  socketPath: string;
  /** Whether leftovers are swept after each run (see SandboxRunnerOptions.sweep). */
  sweeping: boolean;
  close(): Promise<void>;
}

/** Starts the runner on its socket; the process becomes the sandbox runner for good (becomeSandboxRunner). */
export async function startSandboxRunner(opts: SandboxRunnerOptions): Promise<SandboxRunner> {
  const { socketPath, log } = opts;
  const procDir = opts.procDir ?? '/proc';
  becomeSandboxRunner({ hide: opts.hide ?? [dirname(socketPath)], checkoutRoot: opts.checkoutRoot });
  const sweeping = opts.sweep ?? leftoverProcesses(procDir).length === 0;
  if (!sweeping)
    log.warn('the sandbox runner shares its PID namespace with other processes: it does not sweep after each run', {
      others: leftoverProcesses(procDir).length,
    });

  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const afterEach = async () => {
    if (!sweeping) return;
    const killed = await sweepLeftovers(procDir);
    if (killed.length) log.warn('killed processes left after a run', { pids: killed });
  };

  const execute = async (request: RunnerRequest, signal: AbortSignal): Promise<RunnerAnswer> => {
    try {
      if (request.op === 'status') return { ok: true, status: await confinementHere(request.network ?? 'none') };
      if (signal.aborted) return { ok: false, error: { kind: 'sandbox', message: 'the caller went away' } };
      const { explain, ...wire } = request.request;
      const result = await runSandboxedHere({
        ...wire,
        explainOutput: explain === 'failure' ? explainFailure : headAndTail,
        log,
        signal,
      });
      return { ok: true, result };
    } catch (err) {
      if (err instanceof CommandDenied)
        return {
          ok: false,
          error: {
            kind: 'denied',
            message: err.message,
            command: String(err.details.command),
            rule: err.rule,
            reason: err.reason,
          },
        };
      if (err instanceof ConfinementUnavailable)
        return { ok: false, error: { kind: 'unconfined', message: err.message, gaps: err.gaps } };
      if (err instanceof SandboxError) return { ok: false, error: { kind: 'sandbox', message: err.message } };
      log.error('sandbox runner request failed', { err });
      return { ok: false, error: { kind: 'internal', message: errorMessage(err) } };
    } finally {
      await afterEach();
    }
  };

  const server = createServer({ allowHalfOpen: false }, (conn) => serve(conn, execute, serial, log));
  rmSync(socketPath, { force: true }); // a runner restarted in the same pod finds its predecessor's socket
  const target = reachableSocketPath(socketPath);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(target.path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    target.done();
  }
  chmodSync(socketPath, 0o600); // the containers' user only
  log.info('sandbox runner listening', { socketPath, sweeping, checkoutRoot: opts.checkoutRoot });
  return {
    socketPath,
    sweeping,
    close: () => closeServer(server, socketPath),
  };
}

function closeServer(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve) =>
    server.close(() => {
      rmSync(socketPath, { force: true });
      resolve();
    }),
  );
}

/** One connection: its request line, the answer, and a cancelled run when the caller leaves before it. */
function serve(
  conn: Socket,
  execute: (request: RunnerRequest, signal: AbortSignal) => Promise<RunnerAnswer>,
  serial: <T>(work: () => Promise<T>) => Promise<T>,
  log: Logger,
): void {
  const caller = new AbortController();
  const chunks: Buffer[] = [];
  let size = 0;
  let started = false;
  let answered = false;
  const answer = (a: RunnerAnswer) => {
    answered = true;
    if (!conn.destroyed) conn.end(JSON.stringify(a));
  };
  const refuse = (message: string) => answer({ ok: false, error: { kind: 'bad-request', message } });
  conn.on('error', () => undefined); // a caller that went away: the close below cancels its run
  conn.on('close', () => {
    if (!answered) caller.abort();
  });
  conn.on('end', () => {
    if (answered) return;
    if (!started) refuse('the request ended before its newline');
    else caller.abort(); // the caller closed its side: it will not read the answer
  });
  conn.on('data', (d: Buffer) => {
    if (started || answered) return;
    const newline = d.indexOf(0x0a);
    const part = newline >= 0 ? d.subarray(0, newline) : d;
    size += part.length;
    if (size > MAX_REQUEST_BYTES) return refuse(`the request is larger than ${MAX_REQUEST_BYTES} bytes`);
    chunks.push(part);
    if (newline < 0) return;
    started = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return refuse('the request is not JSON');
    }
    const request = runnerRequestSchema.safeParse(parsed);
    if (!request.success)
      return refuse(request.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; '));
    serial(() => execute(request.data, caller.signal)).then(answer, (err: unknown) => {
      log.error('sandbox runner request failed', { err });
      answer({ ok: false, error: { kind: 'internal', message: errorMessage(err) } });
    });
  });
}

/** The processes of this PID namespace but PID 1 (the container's init) and this one; zombies are left to init. */
export function leftoverProcesses(procDir = '/proc', self = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync(procDir)) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === 1 || pid === self) continue;
    let stat: string;
    try {
      stat = readFileSync(`${procDir}/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state !== 'Z' && state !== 'X') pids.push(pid);
  }
  return pids;
}

/**
 * Kills every leftover process (see leftoverProcesses), again while new ones appear (a process forking as it
 * dies), for at most `rounds` rounds; the pids it signalled.
 */
export async function sweepLeftovers(
  procDir = '/proc',
  kill: (pid: number) => void = killQuietly,
  rounds = 50,
): Promise<number[]> {
  const killed = new Set<number>();
  for (let round = 0; round < rounds; round++) {
    const pids = leftoverProcesses(procDir);
    if (!pids.length) break;
    for (const pid of pids) {
      kill(pid);
      killed.add(pid);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return [...killed];
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already, or not ours to signal
  }
}
