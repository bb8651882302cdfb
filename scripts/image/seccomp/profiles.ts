/**
 * The seccomp profiles of the sandbox sidecar (clients/kube/src/sandbox-pod.ts):
 *
 * - `containerd-runtime-default.json` (beside this file): what a Kubernetes node running containerd applies for
 *   `seccompProfile: RuntimeDefault` to a container without capabilities, as containerd v1.7.23 generates it
 *   (contrib/seccomp/seccomp_default.go, DefaultProfile with an empty capability set, on x86_64; dumped with a
 *   ten-line Go program from the Go module cache). It refuses unshare(2), setns(2), mount(2) and clone(2) with
 *   namespace flags, so the sandbox gets no namespace. The pod test gives it to podman to stand for a node's
 *   RuntimeDefault (podman's own default profile lets unshare through: it is not what a cluster applies).
 * - `helm/agent-farm/files/seccomp/sandbox-runner.json`: the chart's `Localhost` profile for the sidecar, the one
 *   above plus what the sandbox's namespaces and its read-only mounts need (`sandboxRunnerProfile`). An
 *   operator installs it under the kubelet's seccomp directory on every node (x86_64; other architectures need
 *   their own RuntimeDefault as the base).
 *
 *   node --import tsx scripts/image/seccomp/profiles.ts   writes the chart's profile from the base
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SeccompRule {
  names: string[];
  action: string;
  args?: { index: number; value: number; valueTwo?: number; op: string }[] | null;
  errnoRet?: number;
}
export interface SeccompProfile {
  defaultAction: string;
  architectures?: string[];
  syscalls: SeccompRule[];
}

export const RUNTIME_DEFAULT_FILE = path.join(__dirname, 'containerd-runtime-default.json');
export const SANDBOX_RUNNER_FILE = path.resolve(
  __dirname,
  '../../../helm/agent-farm/files/seccomp/sandbox-runner.json',
);

/**
 * What the sandbox runner's container needs beyond RuntimeDefault: creating user, network, mount and PID
 * namespaces (unshare, and clone with namespace flags), entering them (setns), and the mounts of its set-up
 * (mount, umount2, pivot_root, and the new mount API that newer util-linux uses).
 */
export const NAMESPACE_SYSCALLS = [
  'unshare',
  'setns',
  'mount',
  'umount2',
  'pivot_root',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'move_mount',
  'open_tree',
  'mount_setattr',
];

/** RuntimeDefault plus NAMESPACE_SYSCALLS, and clone with any flags (RuntimeDefault masks the namespace ones). */
export function sandboxRunnerProfile(base: SeccompProfile): SeccompProfile {
  const syscalls = base.syscalls.filter((rule) => !(rule.names.length === 1 && rule.names[0] === 'clone' && rule.args));
  if (syscalls.length !== base.syscalls.length - 1)
    throw new Error('the base profile has no clone rule with a flags mask: is it containerd RuntimeDefault?');
  return {
    ...base,
    syscalls: [...syscalls, { names: ['clone', ...NAMESPACE_SYSCALLS], action: 'SCMP_ACT_ALLOW' }],
  };
}

export function readProfile(file: string): SeccompProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as SeccompProfile;
}

export const profileText = (profile: SeccompProfile) => `${JSON.stringify(profile, null, 2)}\n`;

if (require.main === module) {
  writeFileSync(SANDBOX_RUNNER_FILE, profileText(sandboxRunnerProfile(readProfile(RUNTIME_DEFAULT_FILE))));
  process.stdout.write(`wrote ${SANDBOX_RUNNER_FILE}\n`);
}
