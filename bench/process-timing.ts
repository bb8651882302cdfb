/**
 * Wall time (and CPU time and peak memory, where GNU time is installed) of starting a process, for the start-up benches:
 * each command runs once to warm the file cache, then `runs` times one after another; medians are reported.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');
const GNU_TIME = '/usr/bin/time';

export interface Timed {
  label: string;
  medianMs: number;
  minMs: number;
  /** Peak resident memory, MiB (undefined without GNU time). */
  maxRssMiB?: number;
  /** CPU seconds (user + system) of one start, median: what 1,000 starts cost a machine's cores (undefined without GNU time). */
  cpuS?: number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The p-th percentile (0-100) of `xs`, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Runs `argv` (any exit code: an agent without a task exits 1 once it has loaded) and times it. */
export function timeProcess(label: string, argv: string[], runs: number, env: NodeJS.ProcessEnv = process.env): Timed {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-bench-'));
  const timeFile = path.join(tmp, 'time');
  const withTime = existsSync(GNU_TIME) ? [GNU_TIME, '-f', '%M %U %S', '-o', timeFile, ...argv] : argv;
  const times: number[] = [];
  const rss: number[] = [];
  const cpu: number[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      const started = process.hrtime.bigint();
      const r = spawnSync(withTime[0], withTime.slice(1), { env, stdio: 'ignore', cwd: ROOT });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.error) throw r.error;
      if (i === 0) continue; // warm-up
      times.push(ms);
      if (existsSync(timeFile)) {
        // The last line: GNU time puts "Command exited with non-zero status" before it.
        const [kib, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
        rss.push(kib / 1024);
        cpu.push(user + sys);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return {
    label,
    medianMs: median(times),
    minMs: Math.min(...times),
    maxRssMiB: rss.length ? median(rss) : undefined,
    cpuS: cpu.length ? median(cpu) : undefined,
  };
}

/** A table of timings with each one's ratio to `reference` (measured in the same run). */
export function printTimings(title: string, reference: Timed, rows: Timed[]): void {
  const line = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(12) : c.padEnd(34))).join('');
  const out = [title, line(['', 'median ms', 'min ms', 'CPU s', 'max RSS MiB', `x ${reference.label}`])];
  for (const t of [reference, ...rows]) {
    out.push(
      line([
        t.label,
        t.medianMs.toFixed(0),
        t.minMs.toFixed(0),
        t.cpuS === undefined ? '-' : t.cpuS.toFixed(2),
        t.maxRssMiB === undefined ? '-' : t.maxRssMiB.toFixed(0),
        (t.medianMs / reference.medianMs).toFixed(1),
      ]),
    );
  }
  process.stdout.write(out.join('\n') + '\n');
}

/** Node's arguments for a source entry with tsx, as FARM_ENTRY=source runs it. */
export function tsxArgs(source: string): string[] {
  return ['--import', 'tsx', path.join(ROOT, source)];
}
