/**
 * The sandbox sidecar every agent and build Job pod gets (one function, so both look the same): a second
 * container, `sandbox`, that runs the repository's commands for the main container (@farm/sandbox's runner).
 *
 * - It is a native sidecar (an init container with `restartPolicy: Always`, Kubernetes >= 1.29): it starts
 *   first, its startup probe holds the main container back until its socket is there, it is restarted if it
 *   dies, and it is stopped once the main container has ended, so the Job completes with the main container.
 * - It holds no credential: no Secret or ConfigMap as environment, no service-account token (the pod mounts
 *   none), and only three volumes: the checkouts (mounted at the same path as in the main container, so paths
 *   agree), its own /tmp, and the small directory of its control socket, shared with the main container. The
 *   main container's own state (its work directory, its /tmp) is not there.
 * - It runs as the image's user (1000) without capabilities, privilege escalation or a writable root, with its
 *   own seccomp profile: `Unconfined` by default, because the runtimes' default profiles (RuntimeDefault)
 *   refuse the unprivileged user namespaces the sandbox needs. That widens the kernel's attack surface for this
 *   container only (user namespaces reach kernel code that is otherwise root's), which holds nothing to steal; a
 *   `Localhost` profile (the chart ships one: RuntimeDefault plus the namespace and mount calls) narrows it back,
 *   a runtime class (gVisor, Kata) or a user-namespaced pod (`hostUsers: false`) moves the kernel further away.
 */
import type {
  V1Container,
  V1PodSpec,
  V1ResourceRequirements,
  V1SeccompProfile,
  V1SecurityContext,
  V1Volume,
  V1VolumeMount,
} from '@kubernetes/client-node';
import { ConfigError, imageEntryArgs, z } from '@farm/runtime';
import { FARM_CONTAINER_SECURITY } from './jobs';
import { kubernetesQuantity as quantity } from './kube-config';

export const SANDBOX_CONTAINER = 'sandbox';
/** The control socket's directory: an emptyDir only the two containers mount, hidden from every run. */
export const SANDBOX_CONTROL_DIR = '/run/farm-sandbox';
export const SANDBOX_SOCKET = `${SANDBOX_CONTROL_DIR}/runner.sock`;

/** How the sidecar looks; every field has a default. */
export interface SandboxPodSettings {
  /** false: no sidecar; the main container runs the commands itself (and refuses them where it cannot confine them). */
  runner?: boolean;
  /** The sidecar's seccomp profile (default Unconfined: see above). */
  seccompProfile?: V1SeccompProfile;
  /** The pod's runtime class (e.g. gVisor), when set. */
  runtimeClassName?: string;
  /** The pod's `hostUsers` (false: a user-namespaced pod, containerd 2 / runc 1.2), when set. */
  hostUsers?: boolean;
  resources?: V1ResourceRequirements;
}

/** What the sidecar adds to a Job's pod: pod fields, the init container, volumes, and the main container's part. */
export interface SandboxPodParts {
  pod: Pick<V1PodSpec, 'runtimeClassName' | 'hostUsers'>;
  /** The sidecar, or nothing without a runner. */
  initContainers?: V1Container[];
  volumes: V1Volume[];
  /** The main container's extra mounts (the checkouts, the control socket's directory) and environment. */
  mounts: V1VolumeMount[];
  env: Record<string, string>;
}

export const DEFAULT_SANDBOX_RESOURCES: V1ResourceRequirements = {
  requests: { cpu: '250m', memory: '512Mi', 'ephemeral-storage': '256Mi' },
  limits: { cpu: '2', memory: '2Gi', 'ephemeral-storage': '1Gi' },
};

/** The sidecar for a pod whose main container runs `image` and makes its checkouts in `checkoutDir`. */
export function sandboxPodParts(
  s: SandboxPodSettings & {
    image: string;
    imagePullPolicy: string;
    /** Absolute; the main container makes its checkouts here (FARM_CHECKOUT_DIR) and nothing else of its own. */
    checkoutDir: string;
    /** The chart's container security (FARM_JOB_POD); the sidecar's own user and seccomp profile go on top. */
    containerSecurity?: V1SecurityContext;
    checkoutSizeLimit: string;
  },
): SandboxPodParts {
  const pod = {
    ...(s.runtimeClassName ? { runtimeClassName: s.runtimeClassName } : {}),
    ...(s.hostUsers !== undefined ? { hostUsers: s.hostUsers } : {}),
  };
  if (s.runner === false) return { pod, volumes: [], mounts: [], env: {} };
  const shared: V1VolumeMount[] = [
    { name: 'checkouts', mountPath: s.checkoutDir },
    { name: 'sandbox-control', mountPath: SANDBOX_CONTROL_DIR },
  ];
  const env = { FARM_SANDBOX_RUNNER: SANDBOX_SOCKET, FARM_CHECKOUT_DIR: s.checkoutDir };
  return {
    pod,
    initContainers: [
      {
        name: SANDBOX_CONTAINER,
        image: s.image,
        imagePullPolicy: s.imagePullPolicy,
        restartPolicy: 'Always', // a native sidecar: stopped once the main container has ended
        args: imageEntryArgs('sandbox-runner'), // tini stays PID 1: it reaps the runs' orphans
        // No envFrom: not the Secret, not even the ConfigMap.
        env: Object.entries({ ...env, HOME: '/tmp' }).map(([name, value]) => ({ name, value })),
        resources: s.resources ?? DEFAULT_SANDBOX_RESOURCES,
        securityContext: {
          ...(s.containerSecurity ?? FARM_CONTAINER_SECURITY),
          runAsUser: 1000,
          runAsGroup: 1000,
          seccompProfile: s.seccompProfile ?? { type: 'Unconfined' },
        },
        // The main container starts once the runner listens.
        startupProbe: {
          exec: { command: ['sh', '-c', 'test -S "$FARM_SANDBOX_RUNNER"'] },
          periodSeconds: 1,
          failureThreshold: 120,
        },
        volumeMounts: [...shared, { name: 'sandbox-tmp', mountPath: '/tmp' }],
      },
    ],
    volumes: [
      { name: 'checkouts', emptyDir: { sizeLimit: s.checkoutSizeLimit } },
      { name: 'sandbox-tmp', emptyDir: { sizeLimit: '1Gi' } },
      { name: 'sandbox-control', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
    ],
    mounts: shared,
    env,
  };
}

/** FARM_SANDBOX_* of the orchestrator and the builder (jobs mode): the sidecar of their Jobs' pods. */
export const sandboxPodConfigSchema = z.object({
  /** `on`: every agent and build Job pod gets the sandbox sidecar; `off`: the main container runs the commands. */
  FARM_SANDBOX_SIDECAR: z.enum(['on', 'off']).default('on'),
  /** The sidecar's seccomp profile type; `Localhost` needs FARM_SANDBOX_SECCOMP_PROFILE. */
  FARM_SANDBOX_SECCOMP: z.enum(['Unconfined', 'RuntimeDefault', 'Localhost']).default('Unconfined'),
  /** The profile's path below the kubelet's seccomp directory (e.g. `farm/sandbox-runner.json`). */
  FARM_SANDBOX_SECCOMP_PROFILE: z.string().optional(),
  /** runtimeClassName of the Job pods (e.g. gvisor). */
  FARM_SANDBOX_RUNTIME_CLASS: z.string().optional(),
  /** hostUsers of the Job pods: `false` gives them their own user namespace (containerd 2, runc 1.2). */
  FARM_SANDBOX_HOST_USERS: z.enum(['true', 'false']).optional(),
  FARM_SANDBOX_CPU_REQUEST: quantity.default('250m'),
  FARM_SANDBOX_MEMORY_REQUEST: quantity.default('512Mi'),
  FARM_SANDBOX_CPU_LIMIT: quantity.default('2'),
  FARM_SANDBOX_MEMORY_LIMIT: quantity.default('2Gi'),
});
export type SandboxPodConfig = z.infer<typeof sandboxPodConfigSchema>;

/** The sidecar's settings from FARM_SANDBOX_*; a Localhost profile without its path is a ConfigError. */
export function sandboxPodFromConfig(c: SandboxPodConfig): SandboxPodSettings {
  if (c.FARM_SANDBOX_SECCOMP === 'Localhost' && !c.FARM_SANDBOX_SECCOMP_PROFILE)
    throw new ConfigError(
      'FARM_SANDBOX_SECCOMP=Localhost needs FARM_SANDBOX_SECCOMP_PROFILE: the profile below the kubelet seccomp directory',
    );
  return {
    runner: c.FARM_SANDBOX_SIDECAR === 'on',
    seccompProfile:
      c.FARM_SANDBOX_SECCOMP === 'Localhost'
        ? { type: 'Localhost', localhostProfile: c.FARM_SANDBOX_SECCOMP_PROFILE }
        : { type: c.FARM_SANDBOX_SECCOMP },
    runtimeClassName: c.FARM_SANDBOX_RUNTIME_CLASS,
    hostUsers: c.FARM_SANDBOX_HOST_USERS === undefined ? undefined : c.FARM_SANDBOX_HOST_USERS === 'true',
    resources: {
      requests: {
        cpu: c.FARM_SANDBOX_CPU_REQUEST,
        memory: c.FARM_SANDBOX_MEMORY_REQUEST,
        'ephemeral-storage': '256Mi',
      },
      limits: { cpu: c.FARM_SANDBOX_CPU_LIMIT, memory: c.FARM_SANDBOX_MEMORY_LIMIT, 'ephemeral-storage': '1Gi' },
    },
  };
}
