/** Process plumbing shared by the local service starters (kafka.ts, postgres.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
sig=$1; shift
exec 3<&0
"$@" </dev/null 3<&- &
pid=$!
{ read -r _ || true; kill -"$sig" "$pid" 2>/dev/null; } <&3 &
watcher=$!
wait "$pid"; rc=$?
kill "$watcher" 2>/dev/null
exit $rc
`;

/** uid/gid: run as another user (we are root); Node drops supplementary groups too. */
export interface SpawnOpts {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  uid?: number;
  gid?: number;
}

export interface Guarded {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Graceful stop (stopSignal via the guard), then SIGKILL of the whole process group after graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns cmd with stdout+stderr appended to logFile, in its own process group so it can be killed as a whole. */
export function spawnGuarded(
  cmd: string,
  args: string[],
  opts: SpawnOpts & { logFile: string; stopSignal?: 'TERM' | 'INT' },
): Guarded {
  const fd = openSync(opts.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('sh', ['-c', GUARD, 'guard', opts.stopSignal ?? 'TERM', cmd, ...args], {
      stdio: ['pipe', fd, fd],
      detached: true,
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      uid: opts.uid,
      gid: opts.gid,
    });
  } finally {
    closeSync(fd); // the child has its own copy
  }
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code)).once('error', () => resolve(null));
  });
  // Belt and braces for a normal exit: the pipe would do it, but only once the event loop is gone.
  killOnExit.add(child);
  void exited.then(() => killOnExit.delete(child));

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

/** One exit hook for every guarded child (the process node runs many: one listener each would pile up). */
const killOnExit = new Set<ChildProcess>();
process.once('exit', () => killOnExit.forEach((child) => killGroup(child, 'SIGKILL')));

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * mkdtemp under the OS temp dir that first sweeps same-prefix dirs whose owning process is gone: a killed
 * parent (e.g. SIGKILLed jest) still takes its services down via the guard, but never gets to delete their dirs.
 */
export function ownedTempDir(prefix: string): string {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(prefix))) {
    const dir = join(tmpdir(), name);
    let owner = 0;
    try {
      owner = Number(readFileSync(join(dir, '.owner-pid'), 'utf8'));
    } catch {
      continue; // not ours, or still being created
    }
    if (owner && !alive(owner)) rmSync(dir, { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, '.owner-pid'), String(process.pid));
  return dir;
}

/** Whether a process with this pid exists (one of another user's counts; a zombie, killed but not reaped, does not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // `pid (comm) S ...`: the state follows the last ')' (comm may hold one).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc here: the signal said it exists
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
export function run(cmd: string, args: string[], opts: SpawnOpts = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      uid: opts.uid,
      gid: opts.gid,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (err) => reject(new Error(`${cmd}: ${err.message}`)));
    child.once('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(
            new Error(
              `${cmd} ${args.join(' ')} exited with ${code}\n${out.trimEnd().split('\n').slice(-30).join('\n')}`,
            ),
          ),
    );
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
