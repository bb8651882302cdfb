/** Process plumbing shared by the local service starters (kafka.ts, postgres.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Asks the kernel for a currently free port; there is a small race until the service binds it, acceptable locally. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

// The service runs behind a tiny sh that holds our stdin pipe: the kernel closes that pipe whenever this
// process goes away (even on SIGKILL, where no 'exit' handler runs), and the watcher then TERMs the service.
// Closing the pipe ourselves is also the graceful stop.
// (Background jobs get /dev/null as stdin, hence the detour through fd 3.)
const GUARD = `
exec 3<&0
"$@" </dev/null 3<&- &
pid=$!
{ read -r _ || true; kill -TERM "$pid" 2>/dev/null; } <&3 &
watcher=$!
wait "$pid"; rc=$?
kill "$watcher" 2>/dev/null
exit $rc
`;

export interface Guarded {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Graceful stop (TERM via the guard), then SIGKILL of the whole process group after graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns cmd with stdout+stderr appended to logFile, in its own process group so it can be killed as a whole. */
export function spawnGuarded(cmd: string, args: string[], opts: { logFile: string; env?: NodeJS.ProcessEnv; cwd?: string }): Guarded {
  const fd = openSync(opts.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('sh', ['-c', GUARD, 'guard', cmd, ...args], {
      stdio: ['pipe', fd, fd],
      detached: true,
      env: opts.env ?? process.env,
      cwd: opts.cwd,
    });
  } finally {
    closeSync(fd); // the child has its own copy
  }
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code)).once('error', () => resolve(null));
  });
  // Belt and braces for a normal exit: the pipe would do it, but only once the event loop is gone.
  const onExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);
  void exited.then(() => process.off('exit', onExit));

  return {
    child,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      killGroup(child, 'SIGKILL'); // stragglers (e.g. the watcher) if the service died oddly
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Runs a command to completion, rejecting with its output on failure. */
export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env, cwd: opts.cwd });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (err) => reject(new Error(`${cmd}: ${err.message}`)));
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}\n${out.trimEnd().split('\n').slice(-30).join('\n')}`)),
    );
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
