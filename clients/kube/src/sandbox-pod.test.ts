import { loadConfig } from '@farm/runtime';
import {
  DEFAULT_SANDBOX_RESOURCES,
  sandboxPodConfigSchema,
  sandboxPodFromConfig,
  sandboxPodParts,
} from './sandbox-pod';

const base = {
  image: 'farm:1',
  imagePullPolicy: 'IfNotPresent',
  checkoutDir: '/work/checkouts',
  checkoutSizeLimit: '4Gi',
};
const fromEnv = (env: Record<string, string>) => sandboxPodFromConfig(loadConfig(sandboxPodConfigSchema, env));

describe('the sandbox sidecar of a Job pod', () => {
  it('is on by default, Unconfined for its own container only, with resources for the checks', () => {
    const settings = fromEnv({});
    expect(settings).toEqual({
      runner: true,
      seccompProfile: { type: 'Unconfined' },
      runtimeClassName: undefined,
      hostUsers: undefined,
      resources: DEFAULT_SANDBOX_RESOURCES,
    });
    const parts = sandboxPodParts({ ...base, ...settings });
    expect(parts.pod).toEqual({});
    expect(parts.initContainers![0].securityContext!.seccompProfile).toEqual({ type: 'Unconfined' });
    // its control socket's directory is small and in memory
    expect(parts.volumes.find((v) => v.name === 'sandbox-control')!.emptyDir).toEqual({
      medium: 'Memory',
      sizeLimit: '1Mi',
    });
  });

  it("takes a Localhost profile (naming it is required), a runtime class, the pods' user namespaces", () => {
    expect(
      fromEnv({
        FARM_SANDBOX_SECCOMP: 'Localhost',
        FARM_SANDBOX_SECCOMP_PROFILE: 'farm/sandbox-runner.json',
        FARM_SANDBOX_RUNTIME_CLASS: 'gvisor',
        FARM_SANDBOX_HOST_USERS: 'false',
        FARM_SANDBOX_MEMORY_LIMIT: '4Gi',
      }),
    ).toMatchObject({
      seccompProfile: { type: 'Localhost', localhostProfile: 'farm/sandbox-runner.json' },
      runtimeClassName: 'gvisor',
      hostUsers: false,
      resources: { limits: { memory: '4Gi' } },
    });
    expect(() => fromEnv({ FARM_SANDBOX_SECCOMP: 'Localhost' })).toThrow(/FARM_SANDBOX_SECCOMP_PROFILE/);
    expect(() => fromEnv({ FARM_SANDBOX_SECCOMP: 'unconfined' })).toThrow(/FARM_SANDBOX_SECCOMP/);
    expect(fromEnv({ FARM_SANDBOX_SECCOMP: 'RuntimeDefault' }).seccompProfile).toEqual({ type: 'RuntimeDefault' });
  });

  it('can be turned off: then only the pod fields remain', () => {
    const settings = fromEnv({ FARM_SANDBOX_SIDECAR: 'off', FARM_SANDBOX_RUNTIME_CLASS: 'gvisor' });
    expect(sandboxPodParts({ ...base, ...settings })).toEqual({
      pod: { runtimeClassName: 'gvisor' },
      volumes: [],
      mounts: [],
      env: {},
    });
  });
});
