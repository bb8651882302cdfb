import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FarmError, isSameProcess, startTicksOf } from '@farm/runtime';

/** Who holds a state directory: the process, told apart from a later one with the same pid by its start time. */
interface LockHolder {
  pid: number;
  startTicks?: string;
  startedAt: string;
}

/** Another `farm up` runs on this state directory; starting a second would corrupt what both keep there. */
export class StateDirLocked extends FarmError {
  constructor(
    readonly stateDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `another farm up (pid ${holder.pid}, running since ${holder.startedAt}) uses the state directory ${stateDir}; ` +
        'stop it first, or give this one another FARM_STATE_DIR',
      { retryable: false, details: { stateDir, pid: holder.pid } },
    );
  }
}

const LOCK_FILE = 'farm-up.lock';

/**
 * Takes the state directory for this process: `farm-up.lock` holds its pid and start time. The file is
 * created whole or not at all (written aside, then hard-linked into place, which fails if it exists); a lock
 * whose process is gone (`kill -9`, a crash) is stale and taken over. Returns the release.
 */
export function lockStateDir(stateDir: string): () => void {
  mkdirSync(stateDir, { recursive: true });
  const lock = path.join(stateDir, LOCK_FILE);
  const me: LockHolder = {
    pid: process.pid,
    startTicks: startTicksOf(process.pid),
    startedAt: new Date().toISOString(),
  };
  const aside = `${lock}.${process.pid}`;
  writeFileSync(aside, JSON.stringify(me));
  try {
    for (let tries = 0; ; tries++) {
      try {
        linkSync(aside, lock);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 3) throw err;
      }
      const holder = readHolder(lock);
      if (holder && isSameProcess(holder.pid, holder.startTicks)) throw new StateDirLocked(stateDir, holder);
      // Stale: moved away (atomically) rather than deleted, then try again.
      try {
        renameSync(lock, `${lock}.stale`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // another starter moved it first
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
  return () => {
    if (readHolder(lock)?.pid === process.pid) rmSync(lock, { force: true });
  };
}

/**
 * Refuses at once when a live `farm up` holds the state directory: checked before this one takes its port, so a
 * second `farm up` on the same directory is told about the directory (the port is then held by the first too).
 */
export function refuseHeldStateDir(stateDir: string): void {
  const holder = readHolder(path.join(stateDir, LOCK_FILE));
  if (holder && holder.pid !== process.pid && isSameProcess(holder.pid, holder.startTicks))
    throw new StateDirLocked(stateDir, holder);
}

function readHolder(lock: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(lock, 'utf8')) as LockHolder;
  } catch {
    return undefined; // gone meanwhile, or not ours to read: treated as stale
  }
}
