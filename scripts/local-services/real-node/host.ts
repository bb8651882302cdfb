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
import { RECORDED_SYSCTLS, changedSysctls, iptablesUndo, mountsUnder, newTables } from './host-record';

const exec = promisify(execFile);

/** Everything of one machine's real node lives here (its containerd state, kubelet root, sockets, record). */
export const NODE_RUN_DIR = '/run/agent-farm-node';
const RECORD = join(NODE_RUN_DIR, 'host.json');
/** Paths the node's programs create outside its own directories (containerd's shim sockets, CNI's cache, ...). */
const CREATED_PATHS = ['/run/containerd', '/var/lib/cni', '/run/netns', '/var/log/containers', '/var/lib/kube-router'];
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
  /** Of CREATED_PATHS, the ones that were there. */
  existed: string[];
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

const netnsList = () => (existsSync('/run/netns') ? readdirSync('/run/netns') : []);

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
    netns: netnsList(),
    existed: CREATED_PATHS.filter((p) => existsSync(p)),
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

/** Puts the host back as recorded; every step runs whatever the others did, and what failed is thrown at the end. */
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
  await step('unmount', async () => {
    const prefixes = [...record.ownDirs, ...record.cacheDirs, ...newNetns(record).map((n) => `/run/netns/${n}`)];
    for (const point of mountsUnder(readFileSync('/proc/self/mountinfo', 'utf8'), prefixes))
      await sh('umount', ['-l', point]).catch(() => undefined); // an outer lazy unmount may have taken it
  });
  await step('network namespaces', async () => {
    for (const n of newNetns(record)) rmSync(`/run/netns/${n}`, { force: true });
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
    if (left.length) throw new Error(`still there: ${left.join(', ')}`);
  });
  await step('cgroups', () => removeKubepods());
  await step('sysctls', () => {
    for (const [k, v] of Object.entries(changedSysctls(record.sysctls, sysctls())))
      writeFileSync(join('/proc/sys', k.replace(/\./g, '/')), v);
  });
  await step('files', () => {
    for (const p of CREATED_PATHS.filter((p) => !record.existed.includes(p)))
      rmSync(p, { recursive: true, force: true });
    for (const d of record.ownDirs) rmSync(d, { recursive: true, force: true });
  });
  if (failures.length) {
    log.error('the host could not be put back completely', { failures });
    throw new HostStateError(`putting the host back failed: ${failures.join('; ')}`);
  }
  rmSync(RECORD, { force: true });
  try {
    rmdirSync(NODE_RUN_DIR);
  } catch {
    // other files of a later run, or gone
  }
  log.info('host put back as recorded');
}

const newNetns = (record: HostRecord) => netnsList().filter((n) => !record.netns.includes(n));

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
