/**
 * The caller's side of the sandbox runner (runner-protocol.ts): sends a SandboxRequest, or asks for the
 * runner's confinement, and throws the runner's errors again as the same classes a run here throws
 * (CommandDenied, ConfinementUnavailable, SandboxError), or SandboxRunnerUnavailable when it does not answer.
 * Variables that look like secrets are dropped here already: they never reach the runner.
 */
import { openSync, closeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { basename, dirname } from 'node:path';
import { errorMessage } from '@farm/runtime';
import { acceptedRisksFromEnv, ConfinementUnavailable, type ConfinementGap } from './confinement';
import { CommandDenied, SandboxError, SandboxRunnerUnavailable } from './errors';
import type { Isolation, Network } from './isolation';
import { explainFailure, headAndTail } from './output';
import {
  MAX_RESPONSE_BYTES,
  type RunnerAnswer,
  type RunnerErrorAnswer,
  type RunnerRequest,
  type WireSandboxRequest,
} from './runner-protocol';
import type { SandboxRequest, SandboxResult } from './sandbox-request';
import { withoutSecrets } from './secret-env';

export interface RunnerStatus {
  isolation: Isolation;
  /** Every guarantee the runner's runs lack; which of them the operator accepted is the caller's to say. */
  gaps: ConfinementGap[];
}

export interface SandboxRunnerClient {
  run(req: SandboxRequest): Promise<SandboxResult>;
  /** The runner's confinement for runs with this network (kept for the process, or 30 s while it lacks some). */
  status(network?: Network): Promise<RunnerStatus>;
}

export interface RunnerClientOptions {
  /** How long a socket that is not there yet or refuses connections is waited for (a starting runner). */
  connectWaitMs?: number;
  /** How long a status answer may take (the runner probes its namespaces at its first). */
  statusTimeoutMs?: number;
}

const DEFAULTS: Required<RunnerClientOptions> = { connectWaitMs: 30_000, statusTimeoutMs: 120_000 };
/** Beyond a run's own timeout, the time its answer may take (the runner's kill grace, queued requests). */
const ANSWER_GRACE_MS = 60_000;
const PARTIAL_STATUS_TTL_MS = 30_000;

const clients = new Map<string, SandboxRunnerClient>();

/** The client of the runner at `socketPath` (one per socket and process: it keeps the status). */
export function sandboxRunnerClient(socketPath: string, opts: RunnerClientOptions = {}): SandboxRunnerClient {
  const known = clients.get(socketPath);
  if (known && !Object.keys(opts).length) return known;
  const client = createClient(socketPath, { ...DEFAULTS, ...opts });
  if (!Object.keys(opts).length) clients.set(socketPath, client);
  return client;
}

function createClient(socketPath: string, opts: Required<RunnerClientOptions>): SandboxRunnerClient {
  const statuses = new Map<Network, { answer: Promise<RunnerStatus>; until: number }>();
  return {
    async run(req) {
      const { wire, dropped } = toWire(req);
      const answer = await ask(
        socketPath,
        { op: 'run', request: wire },
        {
          connectWaitMs: opts.connectWaitMs,
          answerTimeoutMs: 2 * req.timeoutMs + ANSWER_GRACE_MS,
          signal: req.signal,
        },
      );
      if (!answer.ok) throw errorFrom(answer.error);
      if (!('result' in answer)) throw new SandboxRunnerUnavailable(socketPath, 'answered a run with a status');
      return { ...answer.result, droppedEnv: [...new Set([...dropped, ...answer.result.droppedEnv])] };
    },
    status(network = 'none') {
      const cached = statuses.get(network);
      if (cached && Date.now() < cached.until) return cached.answer;
      const answer = ask(
        socketPath,
        { op: 'status', network },
        {
          connectWaitMs: opts.connectWaitMs,
          answerTimeoutMs: opts.statusTimeoutMs,
        },
      ).then((a) => {
        if (!a.ok) throw errorFrom(a.error);
        if (!('status' in a)) throw new SandboxRunnerUnavailable(socketPath, 'answered a status request with a run');
        return a.status;
      });
      statuses.set(network, { answer, until: Infinity });
      answer.then(
        (s) => {
          if (s.gaps.length) statuses.set(network, { answer, until: Date.now() + PARTIAL_STATUS_TTL_MS });
        },
        () => statuses.delete(network),
      );
      return answer;
    },
  };
}

/** The serializable part of a request; what cannot travel (a custom explainOutput, capabilities) is refused. */
function toWire(req: SandboxRequest): { wire: WireSandboxRequest; dropped: string[] } {
  if (req.capabilities)
    throw new SandboxError("capabilities are for tests of this process's sandbox: the runner probes its own");
  const explain =
    req.explainOutput === undefined || req.explainOutput === headAndTail
      ? ('head-and-tail' as const)
      : req.explainOutput === explainFailure
        ? ('failure' as const)
        : undefined;
  if (!explain) throw new SandboxError('only headAndTail and explainFailure can cut output in the sandbox runner');
  const { kept, dropped } = withoutSecrets(req.env);
  const limits = Object.fromEntries(Object.entries(req.limits ?? {}).filter(([, v]) => v !== undefined));
  const wire: WireSandboxRequest = {
    ...(req.argv ? { argv: req.argv } : { command: req.command }),
    cwd: req.cwd,
    timeoutMs: req.timeoutMs,
    limits,
    env: kept,
    writableDirs: req.writableDirs,
    network: req.network,
    acceptRisks: [...(req.acceptRisks ?? acceptedRisksFromEnv())],
    explain,
  };
  return { wire, dropped };
}

function errorFrom(e: RunnerErrorAnswer): Error {
  switch (e.kind) {
    case 'denied':
      return new CommandDenied(e.command, e.rule, e.reason);
    case 'unconfined':
      return new ConfinementUnavailable(e.gaps, { runner: true });
    case 'sandbox':
      return new SandboxError(e.message);
    case 'bad-request':
      return new SandboxError(`the sandbox runner refused the request: ${e.message}`);
    default:
      return new SandboxError(`the sandbox runner failed: ${e.message}`);
  }
}

/** The longest unix socket path the kernel takes (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * A path to `socketPath` short enough for the kernel: itself, or (for a long one) through a descriptor of its
 * directory in /proc/self/fd, which `done` closes once the socket is bound or connected.
 */
export function reachableSocketPath(socketPath: string): { path: string; done(): void } {
  if (Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH) return { path: socketPath, done: () => undefined };
  const fd = openSync(dirname(socketPath), 'r');
  return { path: `/proc/self/fd/${fd}/${basename(socketPath)}`, done: () => closeSync(fd) };
}

const WAITABLE = new Set(['ENOENT', 'ECONNREFUSED', 'EAGAIN']);

async function connectWaiting(socketPath: string, waitMs: number, signal?: AbortSignal): Promise<Socket> {
  const deadline = Date.now() + waitMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    let target: ReturnType<typeof reachableSocketPath>;
    try {
      target = reachableSocketPath(socketPath);
    } catch (err) {
      if (Date.now() >= deadline || !WAITABLE.has((err as NodeJS.ErrnoException).code ?? ''))
        throw new SandboxRunnerUnavailable(socketPath, `cannot be reached: ${errorMessage(err)}`, { cause: err });
      await new Promise((r) => setTimeout(r, delay));
      continue;
    }
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const socket = connect({ path: target.path });
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (Date.now() >= deadline || !WAITABLE.has(code) || signal?.aborted)
        throw new SandboxRunnerUnavailable(
          socketPath,
          `does not answer (${code || errorMessage(err)}): is the pod's sandbox container running?`,
          { cause: err },
        );
      await new Promise((r) => setTimeout(r, delay));
    } finally {
      target.done();
    }
  }
}

/** One request, one answer (see runner-protocol.ts). */
export async function ask(
  socketPath: string,
  request: RunnerRequest,
  opts: { connectWaitMs: number; answerTimeoutMs: number; signal?: AbortSignal },
): Promise<RunnerAnswer> {
  if (opts.signal?.aborted) throw new SandboxError('the run was cancelled before it started');
  const socket = await connectWaiting(socketPath, opts.connectWaitMs, opts.signal);
  return new Promise<RunnerAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | undefined, answer?: RunnerAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', abort);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const timer = setTimeout(
      () => finish(new SandboxRunnerUnavailable(socketPath, `did not answer within ${opts.answerTimeoutMs} ms`)),
      opts.answerTimeoutMs,
    );
    const abort = () => finish(new SandboxError('the run was cancelled'));
    opts.signal?.addEventListener('abort', abort, { once: true });
    socket.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_RESPONSE_BYTES)
        return finish(new SandboxRunnerUnavailable(socketPath, `answered more than ${MAX_RESPONSE_BYTES} bytes`));
      chunks.push(d);
    });
    socket.on('end', () => {
      let answer: RunnerAnswer;
      try {
        answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RunnerAnswer;
      } catch {
        return finish(
          new SandboxRunnerUnavailable(
            socketPath,
            size ? 'answered something that is not JSON' : 'closed the connection without answering',
          ),
        );
      }
      if (typeof answer !== 'object' || answer === null || typeof answer.ok !== 'boolean')
        return finish(new SandboxRunnerUnavailable(socketPath, 'answered something that is not an answer'));
      finish(undefined, answer);
    });
    socket.on('error', (err) =>
      finish(new SandboxRunnerUnavailable(socketPath, `went away: ${errorMessage(err)}`, { cause: err })),
    );
    socket.on('close', () =>
      finish(new SandboxRunnerUnavailable(socketPath, 'closed the connection without answering')),
    );
    // One line: the runner reads up to the newline; closing before its answer would cancel the run.
    socket.write(`${JSON.stringify(request)}\n`);
  });
}
