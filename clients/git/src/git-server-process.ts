import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { FarmError, entryScript, nodeArgsFor, silentLogger, type Logger } from '@farm/runtime';
import { gitServerHandle, type GitHttpServer } from './git-http-server';

/** The git server process did not start (its stderr says why). */
export class GitServerNotStarted extends FarmError {
  constructor(why: string) {
    super(`the git server process did not start: ${why}`, { retryable: false });
  }
}

/**
 * The farm's git smart-HTTP server in a small process of its own (the `git-server` entry). Every request it
 * serves starts `git http-backend`, and starting a process blocks the starter's event loop for as long as the
 * fork takes, which grows with the starter's memory: here that is a process of ~50 MiB, not `farm up`'s
 * hundreds, and `farm up`'s loop never waits on it. The process ends with the farm (its IPC channel closes);
 * if it ends before, it is started again on the same port, and agents waiting on a refused connection go on.
 */
export async function startGitServerProcess(opts: {
  root: string;
  port?: number;
  host?: string;
  log?: Logger;
  /** The script to run (default: the `git-server` entry, built or source as FARM_ENTRY says). */
  entry?: string;
  /** How long to wait before starting a server that ended again (default 1 s). */
  restartDelayMs?: number;
}): Promise<GitHttpServer> {
  const log = opts.log ?? silentLogger;
  const root = path.resolve(opts.root);
  mkdirSync(root, { recursive: true });
  const host = opts.host ?? '127.0.0.1';
  const entry = opts.entry ?? entryScript('git-server');
  let closing = false;
  let child: ChildProcess | undefined;
  // Restarts reuse the port the first start got: the agents have URLs with it.
  let boundPort = opts.port ?? 0;

  const start = (port: number) =>
    new Promise<string>((resolve, reject) => {
      const c = spawn(
        process.execPath,
        [...nodeArgsFor(entry), '--root', root, '--port', String(port), '--host', host],
        {
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
        },
      );
      child = c;
      let stderr = '';
      c.stderr!.on('data', (d: Buffer) => {
        const text = d.toString();
        stderr = (stderr + text).slice(-4000);
        process.stderr.write(text); // its JSON log lines, in the farm's log
      });
      c.once('message', (m: { url?: string }) => (m.url ? resolve(m.url) : reject(new GitServerNotStarted('no URL'))));
      c.once('error', (err) => reject(new GitServerNotStarted(err.message)));
      c.once('exit', (code, signal) => {
        reject(new GitServerNotStarted(stderr.trim() || `exited (${signal ?? code})`));
        if (closing || child !== c) return;
        log.error('the git server process ended; starting it again', { code, signal });
        setTimeout(() => {
          if (!closing) start(boundPort).catch((err: unknown) => log.error('git server restart failed', { err }));
        }, opts.restartDelayMs ?? 1000).unref();
      });
    });

  const url = await start(boundPort);
  boundPort = Number(new URL(url).port);
  log.info('git http server process listening', { url, root, pid: child?.pid });
  return gitServerHandle(url, root, async () => {
    closing = true;
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await gone;
  });
}
