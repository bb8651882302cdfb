/**
 * The host as the real node found it, and putting it back. Before anything starts, what the node will change
 * is recorded in /run/agent-farm-node/host.json (sysctls, iptables of both families, ipsets, network
 * namespaces, which of the paths it creates existed); `restoreHost` kills what the node left running, unmounts,
 * and removes or resets exactly what appeared since. A run killed before it could restore leaves the record,
 * with its pid: the next start restores from it first (`restoreAfterDeadRun`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage, type Logger } from '@farm/runtime';
import { alive, sleep } from '../proc';
import {
  RECORDED_SYSCTLS,
  changedSysctls,
  iptablesUndo,
  leftoverOf,
  mountsUnder,
  newMounts,
  newTables,
  type Leftover,
} from './host-record';

const exec = promisify(execFile);

/** Everything of one machine's real node lives here (its containerd state, kubelet root, sockets, record). */
export const NODE_RUN_DIR = '/run/agent-farm-node';
const RECORD = join(NODE_RUN_DIR, 'host.json');
/**
 * Where the node's programs put state outside its own directories. The tests of putting the host back use a
 * layout of their own under a temporary directory.
 */
export interface HostPaths {
  /** Paths they create (containerd's shim sockets, CNI's cache, ...); each may have been there before. */
  created: string[];
  /**
   * Where pods' network namespaces are bind-mounted (one of `created`). Where it did not exist, containerd makes it
   * and then a shared bind mount of itself (the CNI convention), so it is unmounted before it can be removed.
   */
  netns: string;
}
export const HOST_PATHS: HostPaths = {
  created: ['/run/containerd', '/var/lib/cni', '/run/netns', '/var/log/containers', '/var/lib/kube-router'],
  netns: '/run/netns',
};
const CGROUP_ROOT = '/sys/fs/cgroup';
/** The cgroup the kubelet (cgroupfs driver, cgroupsPerQOS) puts every pod under, in each hierarchy. */
export const KUBEPODS = 'kubepods';

export class HostStateError extends Error {
  override name = 'HostStateError';
}

export interface HostRecord {
  owner: number;
  sysctls: Record<string, string>;
  iptables: { v4: string; v6: string };
  ipsets: string[];
  netns: string[];
  /** Of HOST_PATHS.created, the ones that were there. */
  existed: string[];
  /**
   * Mount points at or under the created paths and the node's directories when recorded (a record of an older run
   * has none: then every mount there is the node's).
   */
  mounts?: string[];
  /** The bridge the node's CNI creates. */
  bridge: string;
  /** Directories of this run whose mounts and files are all the node's. */
  ownDirs: string[];
  /** Directories kept between runs (containerd's image store): unmounted under, not removed. */
  cacheDirs: string[];
  /** Process command lines that mark the node's own processes (e.g. its containerd socket path). */
  processMarks: string[];
}

async function sh(cmd: string, args: string[], input?: string): Promise<string> {
  if (input === undefined) return (await exec(cmd, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
    child.stdin?.end(input);
  });
}

const readSysctl = (key: string): string | undefined => {
  try {
    return readFileSync(join('/proc/sys', key.replace(/\./g, '/')), 'utf8').trim();
  } catch {
    return undefined;
  }
};

function sysctls(): Record<string, string> {
  return Object.fromEntries(
    RECORDED_SYSCTLS.flatMap((k) => (readSysctl(k) === undefined ? [] : [[k, readSysctl(k)!]])),
  );
}

async function ipsets(): Promise<string[]> {
  try {
    return (await sh('ipset', ['list', '-n'])).split('\n').filter(Boolean);
  } catch {
    return []; // no ipset on this machine: nothing can have made one
  }
}

const netnsList = (paths: HostPaths) => (existsSync(paths.netns) ? readdirSync(paths.netns) : []);
const mountinfo = () => readFileSync('/proc/self/mountinfo', 'utf8');
/** Where the node's mounts can be: its own directories, its cache, the paths its programs create. */
const watched = (record: Pick<HostRecord, 'ownDirs' | 'cacheDirs'>, paths: HostPaths) => [
  ...record.ownDirs,
  ...record.cacheDirs,
  ...paths.created,
];

/** The part of the record about paths: which existed, which network namespaces and mounts were there. */
export function recordPaths(
  own: Pick<HostRecord, 'ownDirs' | 'cacheDirs'>,
  paths: HostPaths = HOST_PATHS,
): Pick<HostRecord, 'netns' | 'existed' | 'mounts'> {
  return {
    netns: netnsList(paths),
    existed: paths.created.filter((p) => existsSync(p)),
    mounts: mountsUnder(mountinfo(), watched(own, paths)),
  };
}

/** Records the host before the node starts; refuses when another live run's node is up. */
export async function recordHost(
  log: Logger,
  own: Pick<HostRecord, 'bridge' | 'ownDirs' | 'cacheDirs' | 'processMarks'>,
): Promise<HostRecord> {
  await restoreAfterDeadRun(log);
  if (existsSync(RECORD)) {
    const other = readRecord();
    throw new HostStateError(
      `a real node of another test run (pid ${other?.owner}) is up on this machine; one at a time (${RECORD})`,
    );
  }
  const inUse = readdirSync(CGROUP_ROOT).filter((h) => existsSync(join(CGROUP_ROOT, h, KUBEPODS)));
  if (inUse.length)
    throw new HostStateError(
      `${CGROUP_ROOT}/${inUse[0]}/${KUBEPODS} exists: a kubelet runs or ran on this machine outside the tests; the real node would share its cgroups`,
    );
  const record: HostRecord = {
    owner: process.pid,
    sysctls: sysctls(),
    iptables: { v4: await sh('iptables-save', []), v6: await sh('ip6tables-save', []) },
    ipsets: await ipsets(),
    ...recordPaths(own),
    ...own,
  };
  mkdirSync(NODE_RUN_DIR, { recursive: true });
  writeFileSync(RECORD, JSON.stringify(record, null, 2));
  return record;
}

function readRecord(): HostRecord | undefined {
  try {
    return JSON.parse(readFileSync(RECORD, 'utf8')) as HostRecord;
  } catch {
    return undefined;
  }
}

/** A record whose run is gone: that run was killed before it put the host back; do it now. */
export async function restoreAfterDeadRun(log: Logger): Promise<void> {
  const record = readRecord();
  if (!record || alive(record.owner)) return;
  log.warn('a killed test run left its real node; putting the host back', { pid: record.owner });
  await restoreHost(record, log);
}

/**
 * Puts the host back as recorded; every step runs whatever the others did. What failed is thrown at the end, with
 * what is left and the command that removes it; what is left but harmless (an empty directory) is said, and does
 * not keep the record: the next run starts.
 */
export async function restoreHost(record: HostRecord, log: Logger): Promise<void> {
  const failures: string[] = [];
  const step = async (what: string, fn: () => Promise<void> | void) => {
    try {
      await fn();
    } catch (err) {
      failures.push(`${what}: ${errorMessage(err)}`);
    }
  };
  await step('stop the node processes', () => killNodeProcesses(record));
  let leftovers: Leftover[] = [];
  await step('mounts and files', async () => {
    const put = await putBackPaths(record, HOST_PATHS);
    failures.push(...put.failures);
    leftovers = put.leftovers;
  });
  await step('bridge', async () => {
    if (existsSync(`/sys/class/net/${record.bridge}`)) await sh('ip', ['link', 'delete', record.bridge]);
  });
  await step('iptables', async () => {
    const nft = (await sh('iptables', ['--version'])).includes('nf_tables');
    for (const [save, restore, family, before] of [
      ['iptables-save', 'iptables-restore', 'ip', record.iptables.v4],
      ['ip6tables-save', 'ip6tables-restore', 'ip6', record.iptables.v6],
    ] as const) {
      const undo = iptablesUndo(before, await sh(save, []));
      if (undo) await sh(restore, ['--noflush'], undo);
      // With the nf_tables backend a table is made on first use; one the host did not have goes too.
      if (nft)
        for (const table of newTables(before, await sh(save, []))) await sh('nft', ['delete', 'table', family, table]);
    }
  });
  await step('ipsets', async () => {
    const extra = (await ipsets()).filter((s) => !record.ipsets.includes(s));
    for (const s of extra) await sh('ipset', ['destroy', s]).catch(() => undefined);
    const left = (await ipsets()).filter((s) => !record.ipsets.includes(s));
    if (left.length) throw new Error(`still there: ${left.join(', ')} (remove with: ipset destroy NAME)`);
  });
  await step('cgroups', () => removeKubepods());
  await step('sysctls', () => {
    for (const [k, v] of Object.entries(changedSysctls(record.sysctls, sysctls())))
      writeFileSync(join('/proc/sys', k.replace(/\./g, '/')), v);
  });
  const harmful = leftovers.filter((l) => !l.harmless);
  failures.push(...harmful.map((l) => `left: ${l.path}, ${l.what} (remove with: ${l.remove})`));
  if (failures.length) {
    log.error('the host could not be put back completely', { failures });
    throw new HostStateError(`putting the host back failed: ${failures.join('; ')}`);
  }
  const harmless = leftovers.filter((l) => l.harmless);
  if (harmless.length)
    log.warn('the host is put back but for what is harmless; the next run is not held up by it', {
      left: harmless.map((l) => `${l.path}: ${l.what}; remove with: ${l.remove}`),
    });
  rmSync(RECORD, { force: true });
  try {
    rmdirSync(NODE_RUN_DIR);
  } catch {
    // other files of a later run, or gone
  }
  log.info('host put back as recorded');
}

/**
 * The mounts and files part of the restore: unmounts what the node mounted (its network namespaces, the
 * namespaces' directory mounted on itself, its kubelet's volumes), removes the namespaces, the paths that were
 * not there and the node's own directories. Returns what failed and what is left.
 */
export async function putBackPaths(
  record: Pick<HostRecord, 'ownDirs' | 'cacheDirs' | 'netns' | 'existed' | 'mounts'>,
  paths: HostPaths,
): Promise<{ failures: string[]; leftovers: Leftover[] }> {
  const failures: string[] = [];
  const prefixes = watched(record, paths);
  // A bind mount on a shared mount propagates to its peers: unmounting one layer can leave a copy; a few rounds.
  for (let round = 0; round < 5; round++) {
    const points = newMounts(record.mounts ?? [], mountinfo(), prefixes);
    if (!points.length) break;
    for (const point of points) await sh('umount', ['-l', point]).catch(() => undefined); // may have gone with its parent
  }
  for (const n of netnsList(paths).filter((n) => !record.netns.includes(n))) {
    try {
      rmSync(join(paths.netns, n), { force: true });
    } catch (err) {
      failures.push(`network namespace ${n}: ${errorMessage(err)}`);
    }
  }
  const gone = [...paths.created.filter((p) => !record.existed.includes(p)), ...record.ownDirs];
  for (const p of gone) {
    try {
      rmSync(p, { recursive: true, force: true });
    } catch {
      // said below, with what is there
    }
  }
  const mountedNow = new Set(mountsUnder(mountinfo(), prefixes));
  const entries = (p: string) => {
    try {
      return readdirSync(p);
    } catch {
      return [];
    }
  };
  const leftovers = gone
    .filter((p) => existsSync(p))
    .map((p) => leftoverOf(p, { entries: entries(p), mounted: mountedNow.has(p), gone: true }));
  const under = (p: string, dir: string) => p === dir || p.startsWith(dir + '/');
  for (const point of new Set(newMounts(record.mounts ?? [], mountinfo(), prefixes)))
    if (!leftovers.some((l) => under(point, l.path)))
      leftovers.push(leftoverOf(point, { entries: entries(point), mounted: true, gone: false }));
  return { failures, leftovers };
}

/** The pods' processes (in the kubepods cgroups), then the node's own (shims, kubelet, ...) by their command line. */
async function killNodeProcesses(record: HostRecord): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const pids = new Set([...podPids(), ...marked(record.processMarks)]);
    pids.delete(process.pid);
    if (!pids.size) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await sleep(250);
  }
  throw new Error('processes of the node keep running');
}

function podPids(): number[] {
  const pids: number[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) walk(join(dir, e.name));
    try {
      pids.push(...readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number));
    } catch {
      // removed meanwhile
    }
  };
  walk(join(CGROUP_ROOT, 'pids', KUBEPODS));
  walk(join(CGROUP_ROOT, 'memory', KUBEPODS));
  return pids;
}

function marked(marks: string[]): number[] {
  if (!marks.length) return [];
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
        return marks.some((m) => cmd.includes(m));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Every hierarchy's kubepods tree, leaves first (a cgroup with children or processes cannot be removed). */
async function removeKubepods(): Promise<void> {
  const rmTree = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) rmTree(join(dir, e.name));
    rmdirSync(dir);
  };
  for (let attempt = 0; ; attempt++) {
    const left = readdirSync(CGROUP_ROOT)
      .map((h) => join(CGROUP_ROOT, h, KUBEPODS))
      .filter((d) => existsSync(d));
    if (!left.length) return;
    try {
      left.forEach(rmTree);
    } catch (err) {
      if (attempt >= 20) throw err;
      await sleep(250); // a process still leaving its cgroup
    }
  }
}
