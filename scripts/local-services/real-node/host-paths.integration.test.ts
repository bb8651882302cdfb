// Putting the host's paths back after a real node, on real mounts in a layout of its own (a temporary directory
// standing for /run and /var/lib): the case of a machine that never ran a node, where containerd makes the network
// namespaces' directory and mounts it on itself, whatever the machine running the tests has in /run (root only).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { putBackPaths, recordPaths, type HostPaths } from './host';
import { mountsUnder } from './host-record';

const sh = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
const mountsIn = (dir: string) => mountsUnder(readFileSync('/proc/self/mountinfo', 'utf8'), [dir]);
const isShared = (point: string) =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[4] === point && / shared:\d+/.test(l));

/** What containerd's CRI does for a pod's network (pkg/netns): the directory, mounted on itself shared, a namespace in it. */
function podNetwork(netns: string, name: string): void {
  mkdirSync(netns, { recursive: true });
  if (!mountsIn(netns).includes(netns)) {
    sh('mount', '--rbind', netns, netns);
    sh('mount', '--make-rshared', netns);
  }
  writeFileSync(join(netns, name), '');
  sh('unshare', `--net=${join(netns, name)}`, 'true');
}

let root: string;
let paths: HostPaths;
let own: { ownDirs: string[]; cacheDirs: string[] };

beforeAll(() => {
  if (process.getuid?.() !== 0) throw new Error('these tests mount and unmount: they need root, as the real node does');
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'host-paths-'));
  const netns = join(root, 'run/netns');
  paths = { created: [join(root, 'run/containerd'), netns, join(root, 'var/lib/cni')], netns };
  mkdirSync(join(root, 'run'));
  own = { ownDirs: [join(root, 'run/agent-farm-node/node-1')], cacheDirs: [join(root, 'cache/containerd')] };
  for (const d of [...own.ownDirs, ...own.cacheDirs]) mkdirSync(d, { recursive: true });
});

afterEach(() => {
  for (const point of mountsIn(root)) {
    try {
      sh('umount', '-l', point);
    } catch {
      // gone with its parent
    }
  }
  rmSync(root, { recursive: true, force: true });
});

test('a host that never ran a node: the namespaces’ directory mounted on itself is unmounted and removed', async () => {
  const record = { ...own, ...recordPaths(own, paths) };
  expect(record).toMatchObject({ existed: [], netns: [], mounts: [] });
  // The node at work: two pods' namespaces, containerd's and CNI's state, the kubelet's volume mounts.
  podNetwork(paths.netns, 'cni-1');
  podNetwork(paths.netns, 'cni-2');
  expect(isShared(paths.netns)).toBe(true);
  mkdirSync(join(root, 'run/containerd/s'), { recursive: true });
  mkdirSync(join(root, 'var/lib/cni/results'), { recursive: true });
  writeFileSync(join(root, 'var/lib/cni/results/farm-node-1'), '{}');
  const volume = join(own.ownDirs[0], 'kubelet/pods/p/volumes/tmp');
  mkdirSync(volume, { recursive: true });
  sh('mount', '-t', 'tmpfs', 'tmpfs', volume);
  // What the restore of landed main did first: a directory still mounted cannot be removed.
  expect(() => rmSync(paths.netns, { recursive: true, force: true })).toThrow(/EBUSY/);

  expect(await putBackPaths(record, paths)).toEqual({ failures: [], leftovers: [] });
  for (const p of [...paths.created, ...own.ownDirs]) expect(existsSync(p)).toBe(false);
  expect(mountsIn(root)).toEqual([]);
  expect(readdirSync(own.cacheDirs[0])).toEqual([]); // kept for the next run
});

test('a host that had the directory: it stays, with its own entries, and is no longer a mount point', async () => {
  mkdirSync(paths.netns);
  writeFileSync(join(paths.netns, 'host-own'), '');
  const record = { ...own, ...recordPaths(own, paths) };
  expect(record).toMatchObject({ existed: [paths.netns], netns: ['host-own'], mounts: [] });
  podNetwork(paths.netns, 'cni-1');

  expect(await putBackPaths(record, paths)).toEqual({ failures: [], leftovers: [] });
  expect(readdirSync(paths.netns)).toEqual(['host-own']);
  expect(mountsIn(root)).toEqual([]);
});

test('a mount the host had is kept; a run killed twice is put back by the next', async () => {
  mkdirSync(paths.netns);
  sh('mount', '--bind', paths.netns, paths.netns);
  const record = { ...own, ...recordPaths(own, paths) };
  expect(record.mounts).toEqual([paths.netns]);
  podNetwork(paths.netns, 'cni-1');
  podNetwork(paths.netns, 'cni-2');

  expect(await putBackPaths(record, paths)).toEqual({ failures: [], leftovers: [] });
  expect(mountsIn(root)).toEqual([paths.netns]);
  expect(readdirSync(paths.netns)).toEqual([]);
  // Again, as the next run does with the same record: nothing more to do, nothing refused.
  expect(await putBackPaths(record, paths)).toEqual({ failures: [], leftovers: [] });
});

test('what cannot be removed is named with its command; an empty directory is harmless', async () => {
  // /run and /var/lib file systems of their own, made read-only once the node ran: nothing can be removed from them.
  const fileSystems = [join(root, 'run'), join(root, 'var/lib')];
  for (const fs of fileSystems) {
    mkdirSync(fs, { recursive: true });
    sh('mount', '-t', 'tmpfs', 'tmpfs', fs);
  }
  for (const d of own.ownDirs) mkdirSync(d, { recursive: true });
  const record = { ...own, ...recordPaths(own, paths) };
  podNetwork(paths.netns, 'cni-1');
  // The pod gone, as containerd removes its sandbox: what the issue measured, an empty directory mounted on itself.
  sh('umount', join(paths.netns, 'cni-1'));
  rmSync(join(paths.netns, 'cni-1'));
  mkdirSync(join(root, 'var/lib/cni/networks/farm-node'), { recursive: true });
  writeFileSync(join(root, 'var/lib/cni/networks/farm-node/10.244.213.2'), 'id');
  for (const fs of fileSystems) sh('mount', '-o', 'remount,ro', fs);

  const { failures, leftovers } = await putBackPaths(record, paths);
  expect(failures).toEqual([]);
  expect(leftovers).toEqual([
    { path: paths.netns, harmless: true, what: 'a directory, empty', remove: `rmdir ${paths.netns}` },
    {
      path: join(root, 'var/lib/cni'),
      harmless: false,
      what: 'a directory, holding 1 entry (networks)',
      remove: `rm -rf ${join(root, 'var/lib/cni')}`,
    },
    { path: own.ownDirs[0], harmless: true, what: 'a directory, empty', remove: `rmdir ${own.ownDirs[0]}` },
  ]);
  expect(mountsIn(paths.netns)).toEqual([]); // unmounted all the same
});
