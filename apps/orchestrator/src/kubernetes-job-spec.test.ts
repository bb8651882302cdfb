// The agent Job's pod: the agent container keeps the pod's RuntimeDefault seccomp and the credentials; the
// repository's commands run in the `sandbox` sidecar (@farm/kube sandboxPodParts), which the build Job shares.
import { sandboxPodParts } from '@farm/kube';
import { farm } from '@farm/proto';
import { buildAgentJob } from './kubernetes-job-spec';

const task = farm.v1.CodingTask.create({ id: 'cr-1-item-1', changeRequestId: 'cr-1', dispatch: 1 });
const settings = {
  namespace: 'farm',
  image: 'registry.example.com/agent-farm:1.2.3',
  secretName: 'agent-farm-secrets',
  configMapName: 'agent-farm-config',
};

describe('the agent Job', () => {
  test("runs the repository's commands in a sidecar that holds no credential and shares only the checkouts", () => {
    const pod = buildAgentJob(task, settings).spec!.template.spec!;
    const agent = pod.containers[0];
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.securityContext!.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(agent.envFrom).toEqual([
      { configMapRef: { name: 'agent-farm-config' } },
      { secretRef: { name: 'agent-farm-secrets' } },
    ]);
    const env = Object.fromEntries(agent.env!.map((e) => [e.name, e.value]));
    expect(env).toMatchObject({
      FARM_WORK_DIR: '/work',
      FARM_CHECKOUT_DIR: '/work/checkouts',
      FARM_SANDBOX_RUNNER: '/run/farm-sandbox/runner.sock',
    });
    expect(agent.volumeMounts).toEqual([
      { name: 'work', mountPath: '/work' },
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'checkouts', mountPath: '/work/checkouts' },
      { name: 'sandbox-control', mountPath: '/run/farm-sandbox' },
    ]);

    expect(pod.initContainers).toHaveLength(1);
    const sandbox = pod.initContainers![0];
    expect(sandbox).toMatchObject({
      name: 'sandbox',
      image: settings.image,
      restartPolicy: 'Always', // a native sidecar: the Job completes when the agent exits
      args: ['node', 'dist/sandbox-runner.mjs'],
    });
    expect(sandbox.envFrom).toBeUndefined(); // no Secret, no ConfigMap
    expect(sandbox.env).toEqual([
      { name: 'FARM_SANDBOX_RUNNER', value: '/run/farm-sandbox/runner.sock' },
      { name: 'FARM_CHECKOUT_DIR', value: '/work/checkouts' },
      { name: 'HOME', value: '/tmp' },
    ]);
    // the checkouts at the agent's path, its own /tmp, the socket's directory: not the agent's /work or /tmp
    expect(sandbox.volumeMounts).toEqual([
      { name: 'checkouts', mountPath: '/work/checkouts' },
      { name: 'sandbox-control', mountPath: '/run/farm-sandbox' },
      { name: 'sandbox-tmp', mountPath: '/tmp' },
    ]);
    expect(sandbox.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      runAsUser: 1000,
      runAsGroup: 1000,
      seccompProfile: { type: 'Unconfined' }, // this container only: see sandbox-pod.ts
    });
    expect(sandbox.startupProbe!.exec!.command).toEqual(['sh', '-c', 'test -S "$FARM_SANDBOX_RUNNER"']);
    expect(pod.volumes!.map((v) => v.name)).toEqual(['work', 'tmp', 'checkouts', 'sandbox-tmp', 'sandbox-control']);
    // the agent's exit codes decide the Job, never the sidecar's
    const rule = buildAgentJob(task, settings).spec!.podFailurePolicy!.rules[0];
    expect(rule.onExitCodes!.containerName).toBe('agent');
  });

  test('takes the operator’s seccomp profile, runtime class and user namespaces for the sidecar and the pod', () => {
    const pod = buildAgentJob(task, {
      ...settings,
      sandbox: {
        seccompProfile: { type: 'Localhost', localhostProfile: 'farm/sandbox-runner.json' },
        runtimeClassName: 'gvisor',
        hostUsers: false,
      },
    }).spec!.template.spec!;
    expect(pod.runtimeClassName).toBe('gvisor');
    expect(pod.hostUsers).toBe(false);
    expect(pod.initContainers![0].securityContext!.seccompProfile).toEqual({
      type: 'Localhost',
      localhostProfile: 'farm/sandbox-runner.json',
    });
    // unset: the pod says nothing about them
    const plain = buildAgentJob(task, settings).spec!.template.spec!;
    expect('runtimeClassName' in plain || 'hostUsers' in plain).toBe(false);
  });

  test('has the sidecar the build Job has: the one of sandboxPodParts', () => {
    const pod = buildAgentJob(task, settings).spec!.template.spec!;
    const shared = sandboxPodParts({
      image: settings.image,
      imagePullPolicy: 'IfNotPresent',
      checkoutDir: '/work/checkouts',
      checkoutSizeLimit: '4Gi',
    });
    expect(pod.initContainers).toEqual(shared.initContainers);
    expect(pod.volumes!.slice(2)).toEqual(shared.volumes);
  });

  test('without the sidecar the agent runs the commands itself, as before', () => {
    const pod = buildAgentJob(task, { ...settings, sandbox: { runner: false } }).spec!.template.spec!;
    expect(pod.initContainers).toBeUndefined();
    const env = Object.fromEntries(pod.containers[0].env!.map((e) => [e.name, e.value]));
    expect(env.FARM_SANDBOX_RUNNER).toBeUndefined();
    expect(pod.volumes!.map((v) => v.name)).toEqual(['work', 'tmp']);
  });
});
