/**
 * A probe's verdict shared by every process of one user in the same place — the same kernel boot, namespaces,
 * capabilities, seccomp mode, Node and probe tools — so that confinement is proven once per machine and kind of
 * sandbox, not once per agent process (the default launcher starts one per task, and each would otherwise start
 * up to four Node processes in fresh namespaces before its task began).
 *
 * A verdict lives in a file under FARM_SANDBOX_VERDICT_DIR (default `<tmpdir>/farm-sandbox-verdicts-<uid>`; `off`:
 * every process probes for itself), keyed by a hash of everything its answer depends on, with an expiry: anything
 * that changes the answer changes the key, and an expired verdict is proven again. A run whose sandbox set-up
 * fails forgets it (`forgetSharedVerdict`). One process proves it while the others wait for its answer (a lock
 * file naming the prover; a lock whose process is gone, or older than any probe, is taken over).
 *
 * Only a directory this user owns and nobody else can write is used, and only files this user owns in it are
 * read: another user cannot hand this one a verdict. A repository's commands cannot either: the sandbox covers
 * /tmp with a private one (where writes outside the checkout are allowed, the operator gave that up).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { release, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** How long a verdict is kept: a full one (every guarantee held) and one short of it (trouble may pass). */
export const VERDICT_TTL_MS = { full: 15 * 60_000, partial: 30_000 } as const;
/** A lock older than this is a prover that hung or died on another boot: taken over. Above every probe's time. */
const LOCK_STALE_MS = 5 * 60_000;
const WAIT_STEP_MS = 50;

interface StoredVerdict<T> {
  key: string;
  provenAt: number;
  expiresAt: number;
  value: T;
}

let disabled = false;
/** Tests only: probes that must run (a test's short attempts) neither read nor write shared verdicts. */
export function setSharedVerdictsForTests(on: boolean): void {
  disabled = !on;
}

/** The directory of shared verdicts, or undefined when sharing is off or the directory is not safely this user's. */
export function verdictDir(): string | undefined {
  if (disabled) return undefined;
  const set = process.env.FARM_SANDBOX_VERDICT_DIR;
  if (set === 'off') return undefined;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = set || join(tmpdir(), `farm-sandbox-verdicts-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined; // a read-only or foreign tmpdir: each process probes for itself
  }
}

const readQuietly = (file: string): string => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
};
const linkQuietly = (file: string): string => {
  try {
    return readlinkSync(file);
  } catch {
    return '';
  }
};

/** The first match of a program on PATH, with what would tell a replaced binary apart. */
function programIdentity(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      const st = statSync(join(dir, name));
      if (st.isFile()) return `${join(dir, name)}:${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      continue;
    }
  }
  return `${name}:absent`;
}

/** Everything on this machine a confinement probe's answer depends on, as a string (hashed into the key). */
export function machineFacts(programs: readonly string[]): string {
  const status = readQuietly('/proc/self/status');
  const statusOf = (field: string) => new RegExp(`^${field}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '';
  return JSON.stringify({
    boot: readQuietly('/proc/sys/kernel/random/boot_id'),
    kernel: release(),
    uid: process.getuid?.(),
    gid: process.getgid?.(),
    namespaces: ['user', 'mnt', 'pid', 'net', 'cgroup', 'ipc', 'uts'].map((ns) => linkQuietly(`/proc/self/ns/${ns}`)),
    capabilities: [statusOf('CapEff'), statusOf('CapBnd')],
    seccomp: statusOf('Seccomp'),
    noNewPrivs: statusOf('NoNewPrivs'),
    sysctl: [
      '/proc/sys/user/max_user_namespaces',
      '/proc/sys/kernel/unprivileged_userns_clone',
      '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    ].map(readQuietly),
    node: `${process.execPath}:${process.version}`,
    programs: programs.map(programIdentity),
  });
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

function fileOf(dir: string, name: string, key: string): string {
  return join(dir, `${name}-${hash(key).slice(0, 16)}.json`);
}

function readVerdict<T>(file: string, key: string): StoredVerdict<T> | undefined {
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.uid !== process.getuid?.()) return undefined;
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredVerdict<T>;
    if (stored.key !== key || !(Date.now() < stored.expiresAt)) return undefined;
    return stored;
  } catch {
    return undefined;
  }
}

function writeVerdict<T>(file: string, verdict: StoredVerdict<T>): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(verdict), { mode: 0o600 });
    renameSync(tmp, file); // whole or not at all for a reader
  } catch {
    rmSync(tmp, { force: true }); // not shared: the next process probes for itself
  }
}

/** Whether the lock's prover is alive (same boot) and within a probe's time. */
function lockHeld(lock: string): boolean {
  try {
    const st = lstatSync(lock);
    if (Date.now() - st.mtimeMs > LOCK_STALE_MS) return false;
    const [pid, boot] = readFileSync(lock, 'utf8').split(' ');
    if (boot !== readQuietly('/proc/sys/kernel/random/boot_id')) return false;
    process.kill(Number(pid), 0);
    return true;
  } catch (err) {
    // EPERM: the process exists (another user's pid reused); ENOENT: released meanwhile
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx', 0o600);
    writeFileSync(fd, `${process.pid} ${readQuietly('/proc/sys/kernel/random/boot_id')}`);
    closeSync(fd);
    return true;
  } catch {
    return false;
  }
}

export interface SharedProbe<T> {
  /** A name for the files (what is probed). */
  name: string;
  /** What the answer depends on besides the machine: the probe's options and its own code. */
  key: string;
  /** The programs the probe runs (their identity is part of the key). */
  programs: readonly string[];
  probe: () => Promise<T>;
  /** How long an answer is kept. */
  ttlMs: (answer: T) => number;
}

/** An answer with the time until which it holds. */
export interface Verdict<T> {
  value: T;
  expiresAt: number;
  /** Proven by this process now, not read from another's verdict. */
  proven: boolean;
}

/**
 * The probe's answer: another process's verdict while it holds, else proven here (or waited for while another
 * process proves it) and shared. A probe that throws (no answer) shares nothing.
 */
export async function sharedVerdict<T>(spec: SharedProbe<T>): Promise<Verdict<T>> {
  const dir = verdictDir();
  const proveHere = async (): Promise<Verdict<T>> => {
    const value = await spec.probe();
    return { value, expiresAt: Date.now() + spec.ttlMs(value), proven: true };
  };
  if (!dir) return proveHere();
  const key = `${spec.key}\n${machineFacts(spec.programs)}`;
  const file = fileOf(dir, spec.name, key);
  const lock = `${file}.lock`;
  for (;;) {
    const found = readVerdict<T>(file, key);
    if (found) return { value: found.value, expiresAt: found.expiresAt, proven: false };
    if (takeLock(lock)) {
      try {
        const again = readVerdict<T>(file, key); // proven by the lock's previous holder
        if (again) return { value: again.value, expiresAt: again.expiresAt, proven: false };
        const proven = await proveHere();
        writeVerdict(file, { key, provenAt: Date.now(), expiresAt: proven.expiresAt, value: proven.value });
        return proven;
      } finally {
        rmSync(lock, { force: true });
      }
    }
    if (!lockHeld(lock)) {
      rmSync(lock, { force: true }); // its prover is gone: the next turn takes it
      continue;
    }
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
}

/** Forgets a shared verdict (a run found it no longer holds): the next process proves it again. */
export function forgetSharedVerdict(spec: Pick<SharedProbe<unknown>, 'name' | 'key' | 'programs'>): void {
  const dir = verdictDir();
  if (!dir) return;
  const file = fileOf(dir, spec.name, `${spec.key}\n${machineFacts(spec.programs)}`);
  if (existsSync(file)) rmSync(file, { force: true });
}
