/**
 * CPU time and memory of a process and everything it started, from /proc (Linux), for the farm benches.
 * A child's CPU counts in its parent's cutime/cstime once the parent has reaped it, so the tree's CPU is the
 * root's own plus its reaped children plus what its live descendants have used so far.
 */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ, 100 on every Linux architecture Node.js runs on

interface Stat {
  pid: number;
  ppid: number;
  /** utime + stime, seconds. */
  ownCpuS: number;
  /** cutime + cstime (reaped children), seconds. */
  childrenCpuS: number;
}

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start after the last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    ppid: Number(f[1]),
    ownCpuS: (Number(f[11]) + Number(f[12])) / TICKS_PER_S,
    childrenCpuS: (Number(f[13]) + Number(f[14])) / TICKS_PER_S,
  };
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** `root` and its live descendants. */
function treeOf(root: number): Stat[] {
  const all: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) all.push(s);
  }
  const children = new Map<number, Stat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const out: Stat[] = [];
  const rootStat = all.find((s) => s.pid === root);
  for (let queue = rootStat ? [rootStat] : []; queue.length;) {
    const s = queue.shift()!;
    out.push(s);
    queue.push(...(children.get(s.pid) ?? []));
  }
  return out;
}

/** CPU seconds used so far by `root` and everything it started (reaped or still running). */
export function treeCpuS(root: number): number {
  return treeOf(root).reduce((sum, s) => sum + s.ownCpuS + s.childrenCpuS, 0);
}

/** CPU seconds used so far by `root` itself (its own threads, not its children). */
export function ownCpuS(root: number): number {
  return readStat(root)?.ownCpuS ?? 0;
}

/** Resident memory now, MiB: the root alone and the whole tree (root plus live descendants). */
export function treeRssMiB(root: number): { root: number; tree: number; processes: number } {
  const tree = treeOf(root);
  const kib = tree.reduce((sum, s) => sum + statusKiB(s.pid, 'VmRSS'), 0);
  return { root: statusKiB(root, 'VmRSS') / 1024, tree: kib / 1024, processes: tree.length };
}

/** The root's own peak resident memory since it started, MiB. */
export function peakRssMiB(pid: number): number {
  return statusKiB(pid, 'VmHWM') / 1024;
}

/** Samples the tree's memory every `everyMs` until stopped; keeps the peaks. */
export function watchTreeMemory(root: number, everyMs = 500) {
  const peak = { tree: 0, processes: 0 };
  const sample = () => {
    const now = treeRssMiB(root);
    peak.tree = Math.max(peak.tree, now.tree);
    peak.processes = Math.max(peak.processes, now.processes);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    peak,
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
