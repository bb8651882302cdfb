import { readFileSync } from 'node:fs';

/**
 * A process a previous farm started, told apart from a later one that got the same pid: field 22 of
 * /proc/<pid>/stat is when it started, in clock ticks since boot.
 */
export function startTicksOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether a process `pid` exists and has not ended (a zombie not yet reaped has). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(pid);
}

/** Whether `pid` is still the process that started at `startTicks` and has not ended. */
export function isSameProcess(pid: number, startTicks: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const now = startTicksOf(pid);
  if (now === undefined || startTicks === undefined) return true; // no /proc: trust the pid
  // A zombie (not reaped because its parent died) has ended: state Z in /proc/<pid>/stat.
  return now === startTicks && !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Signals a process group (a detached child and everything it started); a group already gone is fine. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/**
 * Calls `onEnd` once the process that started at `startTicks` has ended (not our child, so no exit event
 * comes), checking every `intervalMs`. The returned timer does not keep the process alive; clear it to stop.
 */
export function whenProcessEnds(
  pid: number,
  startTicks: string | undefined,
  intervalMs: number,
  onEnd: () => void,
): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (isSameProcess(pid, startTicks)) return;
    clearInterval(timer);
    onEnd();
  }, intervalMs);
  timer.unref();
  return timer;
}
