/**
 * The test command's check that the real node leaves the host as found, also after a killed run (root only;
 * elsewhere each command says why it does nothing):
 *   host-check.ts record FILE   what the node could change, before the tests
 *   host-check.ts killed-run    a node with a running pod, its process SIGKILLed: leftovers for the next start
 *   host-check.ts compare FILE  fails, listing each difference, unless the host is as recorded
 * Between `killed-run` and `compare` the integration lane starts (and stops) its own node: its start puts back
 * what the killed run left (host.ts restoreAfterDeadRun), its stop what it made itself.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { HOST_PATHS, KUBEPODS, NODE_RUN_DIR } from './host';
import { RECORDED_SYSCTLS, mountsUnder, parseIptablesSave } from './host-record';
import { REAL_NODE_LABEL, REAL_NODE_TAINT, containerdCacheDir, realNodeUnavailable } from './real-node';

type Fingerprint = Record<string, string>;

const quiet = (cmd: string, args: string[]) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
};

/** iptables rules and chains as a sorted list (the dump's comments carry a time). */
const rules = (save: string) =>
  [...parseIptablesSave(save)]
    .flatMap(([table, t]) => [
      ...[...t.chains].map(([c, p]) => `${table}:${c} ${p}`),
      ...t.rules.map((r) => `${table}:${r}`),
    ])
    .sort()
    .join('\n');

function fingerprint(): Fingerprint {
  const fp: Fingerprint = {};
  for (const k of RECORDED_SYSCTLS) {
    const file = join('/proc/sys', k.replace(/\./g, '/'));
    if (existsSync(file)) fp[`sysctl ${k}`] = readFileSync(file, 'utf8').trim();
  }
  fp['iptables'] = rules(quiet('iptables-save', []));
  fp['ip6tables'] = rules(quiet('ip6tables-save', []));
  fp['ipsets'] = quiet('ipset', ['list', '-n']).split('\n').filter(Boolean).sort().join(' ');
  fp['links'] = readdirSync('/sys/class/net').sort().join(' ');
  fp['netns'] = existsSync(HOST_PATHS.netns) ? readdirSync(HOST_PATHS.netns).sort().join(' ') : '(none)';
  fp['kubepods cgroups'] = readdirSync('/sys/fs/cgroup')
    .filter((h) => existsSync(join('/sys/fs/cgroup', h, KUBEPODS)))
    .join(' ');
  // Every mount where the node's can be, the namespaces' directory itself included (a bind mount of itself).
  fp['mounts'] = mountsUnder(readFileSync('/proc/self/mountinfo', 'utf8'), [
    NODE_RUN_DIR,
    containerdCacheDir(),
    ...HOST_PATHS.created,
  ])
    .sort()
    .join(' ');
  for (const p of [NODE_RUN_DIR, ...HOST_PATHS.created]) fp[`path ${p}`] = existsSync(p) ? 'exists' : 'absent';
  fp['node processes'] = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => quiet('cat', [`/proc/${d}/cmdline`]).replace(/\0/g, ' '))
    .filter((c) => c.includes(NODE_RUN_DIR))
    .join('\n');
  return fp;
}

async function killedRun(): Promise<void> {
  const cli = resolve(__dirname, 'cli.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'up'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const kubeconfig = await new Promise<string>((res, rej) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^KUBECONFIG=(.+)$/m);
      if (m) res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`the node exited with ${code} before it was up`)));
  });
  const image = out.match(/^FARM_TEST_NODE_IMAGE=(.+)$/m)![1];
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespacedPod('default', {
    metadata: { name: 'left-running' },
    spec: {
      nodeSelector: { ...REAL_NODE_LABEL },
      tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists' }],
      containers: [{ name: 'c', image, imagePullPolicy: 'Never', command: ['sleep', '600'] }],
    },
  });
  for (let i = 0; ; i++) {
    const pod = (await core.readNamespacedPod('left-running', 'default')).body;
    if (pod.status?.containerStatuses?.[0]?.state?.running) break;
    if (i > 240) throw new Error('the pod did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone; // reaped: its pid no longer counts as alive
  process.stdout.write('host-check: a node with a running pod was SIGKILLed; the next start puts the host back\n');
}

async function main([command, file]: string[]): Promise<number> {
  const why = realNodeUnavailable();
  if (why) {
    process.stdout.write(`host-check: no real node here (${why}): nothing to check\n`);
    return 0;
  }
  if (command === 'record' && file) {
    writeFileSync(file, JSON.stringify(fingerprint(), null, 2));
    return 0;
  }
  if (command === 'compare' && file) {
    const was = JSON.parse(readFileSync(file, 'utf8')) as Fingerprint;
    const now = fingerprint();
    const differ = Object.keys({ ...was, ...now }).filter((k) => was[k] !== now[k]);
    for (const k of differ)
      process.stderr.write(`host-check: ${k} differs\n  before: ${was[k]}\n  after:  ${now[k]}\n`);
    if (differ.length) return 1;
    process.stdout.write('host-check: the host is as found\n');
    return 0;
  }
  if (command === 'killed-run') {
    await killedRun();
    return 0;
  }
  process.stderr.write('usage: host-check.ts record FILE | compare FILE | killed-run\n');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`host-check: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
