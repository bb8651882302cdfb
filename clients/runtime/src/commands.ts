import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { FarmError } from './errors';
import { entryScript, nodeArgsFor } from './farm-entries';
import { silentLogger, type Logger } from './logger';
import type { HelperReply, HelperRequest } from './command-helper-protocol';

/**
 * The farm's own short commands (git, mostly): run where this process runs them, or, once `farm up` has
 * called useCommandHelper, by a small helper process. Starting a process forks its starter, and the fork
 * blocks the starter's event loop for a time that grows with its memory (~10 ms at farm up's ~550 MiB, ~1 ms
 * from a small process) and costs it copy-on-write faults afterwards: farm up's main thread, the farm's
 * bottleneck under load, should not pay that for every git command of every request.
 */

export interface CommandOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Largest stdout or stderr kept (default 1 MiB, as execFile). */
  maxBuffer?: number;
}

export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/**
 * A command that failed: exited non-zero (`code` the exit code), was killed (`signal`) or could not start
 * (`code` the errno name, e.g. ENOENT). The fields execFile's errors have, so callers read either alike.
 */
export class CommandFailed extends Error {
  readonly code?: number | string;
  readonly signal?: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  constructor(
    message: string,
    fields: { code?: number | string; signal?: NodeJS.Signals | null; stdout?: string; stderr?: string },
  ) {
    super(message);
    this.name = 'CommandFailed';
    this.code = fields.code;
    this.signal = fields.signal;
    this.stdout = fields.stdout ?? '';
    this.stderr = fields.stderr ?? '';
  }
}

/** The helper process ended (or could not be reached) while it ran the command: its outcome is unknown. */
export class CommandHelperLost extends FarmError {
  constructor(why: string) {
    super(`the command helper process ended before the command did: ${why}`, { retryable: true });
  }
}

/** A command with its input and output as streams (`git cat-file --batch`): a real child, or one the helper runs. */
export interface PipedCommand {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  on(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  kill(signal?: NodeJS.Signals): boolean;
}

const execLocal = promisify(execFile);
let helper: CommandHelper | undefined;

/** Runs `file` with `args` to its end; rejects with CommandFailed (or CommandHelperLost). */
export async function runCommand(file: string, args: string[], opts: CommandOptions = {}): Promise<CommandOutput> {
  if (helper) return helper.run(file, args, opts);
  try {
    const { stdout, stderr } = await execLocal(file, args, { ...opts, encoding: 'utf8' });
    return { stdout, stderr };
  } catch (err) {
    throw asCommandFailed(err);
  }
}

/** Starts `file` with piped stdin, stdout and stderr. */
export function startCommand(file: string, args: string[], opts: Omit<CommandOptions, 'maxBuffer'> = {}): PipedCommand {
  if (helper) return helper.start(file, args, opts);
  return spawn(file, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcess as PipedCommand;
}

/**
 * From now on this process's commands (runCommand, startCommand) are started by a helper process (the
 * `command-helper` entry, or `entry`), which is started now; a helper that ends is started again at the
 * next command. Returns what stops it (commands then run here again).
 */
export async function useCommandHelper(opts: { log?: Logger; entry?: string } = {}): Promise<() => Promise<void>> {
  const h = new CommandHelper(opts.entry ?? entryScript('command-helper'), opts.log ?? silentLogger);
  await h.ready();
  helper = h;
  return async () => {
    if (helper === h) helper = undefined;
    await h.close();
  };
}

/** The pid of the helper process running commands now, if any (for tests and logs). */
export function commandHelperPid(): number | undefined {
  return helper?.pid;
}

/** The environment as a plain object of strings (what crosses the channel; a test runner's may be a proxy). */
function plainEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) plain[k] = v;
  return plain;
}

function asCommandFailed(err: unknown): CommandFailed {
  if (err instanceof CommandFailed) return err;
  const e = err as Partial<CommandFailed> & { message?: string };
  return new CommandFailed(e.message ?? String(err), e);
}

interface Pending {
  resolve(out: CommandOutput): void;
  reject(err: Error): void;
}

/** The parent's side of one helper process: requests out over its IPC channel, replies in (by id). */
class CommandHelper {
  private child?: ChildProcess;
  private starting?: Promise<ChildProcess>;
  private nextId = 1;
  private readonly runs = new Map<number, Pending>();
  private readonly piped = new Map<number, HelperPipedCommand>();
  private closed = false;

  constructor(
    private readonly entry: string,
    private readonly log: Logger,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async ready(): Promise<void> {
    await this.process();
  }

  run(file: string, args: string[], opts: CommandOptions): Promise<CommandOutput> {
    const id = this.nextId++;
    return new Promise<CommandOutput>((resolve, reject) => {
      this.runs.set(id, { resolve, reject });
      this.send({
        t: 'run',
        id,
        file,
        args,
        cwd: opts.cwd ?? process.cwd(),
        env: plainEnv(opts.env ?? process.env),
        maxBuffer: opts.maxBuffer,
      });
    });
  }

  start(file: string, args: string[], opts: Omit<CommandOptions, 'maxBuffer'>): PipedCommand {
    const id = this.nextId++;
    const command = new HelperPipedCommand(
      (data) => this.send({ t: 'in', id, data }),
      () => this.send({ t: 'end', id }),
      (signal) => this.send({ t: 'kill', id, signal }),
    );
    this.piped.set(id, command);
    this.send({ t: 'start', id, file, args, cwd: opts.cwd ?? process.cwd(), env: plainEnv(opts.env ?? process.env) });
    return command;
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.disconnect(); // it exits when its channel closes; commands under way fail here (CommandHelperLost)
    await gone;
  }

  /** Sends once the helper is up (started again if it ended); a helper that cannot start fails the request. */
  private send(request: HelperRequest): void {
    this.process()
      .then((c) => {
        if (!c.connected) throw new CommandHelperLost('its channel is closed');
        this.refChannel(true);
        c.send(request);
      })
      .catch((err: unknown) => this.failOne(request.id, err instanceof Error ? err : new Error(String(err))));
  }

  private process(): Promise<ChildProcess> {
    if (this.child && this.child.connected) return Promise.resolve(this.child);
    if (this.closed) return Promise.reject(new CommandHelperLost('the helper was stopped'));
    this.starting ??= this.spawnHelper().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private spawnHelper(): Promise<ChildProcess> {
    return new Promise<ChildProcess>((resolve, reject) => {
      const c = spawn(process.execPath, nodeArgsFor(this.entry), {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'advanced', // Buffers cross as bytes
        env: process.env,
      });
      let stderr = '';
      c.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      c.once('error', (err) => reject(new CommandHelperLost(err.message)));
      c.on('message', (reply: HelperReply) => {
        if (reply.t === 'ready') {
          this.child = c;
          this.log.info('command helper started', { pid: c.pid });
          resolve(c);
        } else this.receive(reply);
      });
      c.once('exit', (code, signal) => {
        const why = stderr.trim() || `exited (${signal ?? code})`;
        reject(new CommandHelperLost(why));
        if (this.child !== c) return;
        this.child = undefined;
        if (!this.closed)
          this.log.warn('the command helper process ended; the next command starts it again', { code, signal });
        this.failAll(new CommandHelperLost(why));
      });
      c.unref();
      (c.channel as { unref?(): void } | undefined)?.unref?.();
    });
  }

  private receive(reply: HelperReply): void {
    switch (reply.t) {
      case 'ran': {
        const run = this.runs.get(reply.id);
        this.runs.delete(reply.id);
        if (reply.error)
          run?.reject(
            new CommandFailed(reply.error.message, { ...reply.error, stdout: reply.stdout, stderr: reply.stderr }),
          );
        else run?.resolve({ stdout: reply.stdout, stderr: reply.stderr });
        break;
      }
      case 'out':
        this.piped.get(reply.id)?.output(reply.fd, reply.data);
        break;
      case 'error':
        this.piped.get(reply.id)?.emit('error', new CommandFailed(reply.message, { code: reply.code }));
        break;
      case 'exit': {
        const command = this.piped.get(reply.id);
        this.piped.delete(reply.id);
        command?.exited(reply.code, reply.signal);
        break;
      }
    }
    this.refChannel(this.runs.size + this.piped.size > 0);
  }

  private failOne(id: number, err: Error): void {
    const run = this.runs.get(id);
    if (run) {
      this.runs.delete(id);
      run.reject(err);
    }
    const command = this.piped.get(id);
    if (command) {
      this.piped.delete(id);
      command.emit('error', err);
      command.exited(null, null);
    }
    this.refChannel(this.runs.size + this.piped.size > 0);
  }

  private failAll(err: Error): void {
    for (const id of [...this.runs.keys(), ...this.piped.keys()]) this.failOne(id, err);
  }

  /** The channel keeps this process alive only while a command is under way (as a child process would). */
  private refChannel(busy: boolean): void {
    const channel = this.child?.channel as { ref?(): void; unref?(): void } | undefined;
    if (busy) channel?.ref?.();
    else channel?.unref?.();
  }
}

/** A command the helper runs, seen from here: its streams fed by the helper's messages. */
class HelperPipedCommand extends EventEmitter implements PipedCommand {
  readonly stdin: Writable;
  readonly stdout = new Readable({ read() {} });
  readonly stderr = new Readable({ read() {} });
  private ended = false;

  constructor(
    write: (data: Buffer) => void,
    end: () => void,
    private readonly signal: (signal: NodeJS.Signals) => void,
  ) {
    super();
    this.stdin = new Writable({
      write(chunk: Buffer, _enc, done) {
        write(Buffer.from(chunk));
        done();
      },
      final(done) {
        end();
        done();
      },
    });
  }

  output(fd: 1 | 2, data: Buffer): void {
    (fd === 1 ? this.stdout : this.stderr).push(Buffer.from(data));
  }

  /** The process ended: its output ends, and 'close' follows once both streams have delivered everything. */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    this.ended = true;
    const drained = [this.stdout, this.stderr].map(
      (s) =>
        new Promise<void>((resolve) => {
          s.once('end', resolve);
          s.push(null);
          if (!s.readableFlowing) s.resume(); // output nobody reads is dropped, as from a real pipe
        }),
    );
    void Promise.all(drained).then(() => this.emit('close', code, signal));
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.ended) return false;
    this.signal(signal);
    return true;
  }
}
