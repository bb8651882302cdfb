import { sandboxPodParts } from '@farm/kube';
import { decodeBuildRequestBase64, farm } from '@farm/proto';
import { buildJobFor, buildJobNameFor } from './build-job-spec';

const request = farm.v1.BuildRequest.create({
  changeRequestId: 'Fix The_Thing/#42',
  repo: { url: 'https://git.example.com/app.git', baseRef: 'main', baseCommit: 'a'.repeat(40) },
  branches: ['agt/one', 'agt/two'],
  checkCommand: 'make test',
});
const settings = { namespace: 'farm', image: 'registry.example.com/agent-farm:1', instance: 'team-a' };

describe('the build Job', () => {
  test('is named by its change request alone, as a DNS label, so a redelivered request finds it', () => {
    const name = buildJobNameFor(request.changeRequestId);
    expect(name).toMatch(/^bld-fix-the-thing-42-[0-9a-f]{10}$/);
    expect(name.length).toBeLessThanOrEqual(63);
    expect(buildJobNameFor('x'.repeat(200))).toHaveLength(63);
    expect(buildJobNameFor('fix the thing 42')).not.toBe(name); // same slug, another id
    expect(buildJobFor(request, settings).metadata!.name).toBe(name);
  });

  test('carries the whole request, and the exact id beside the label that may be a slug', () => {
    const job = buildJobFor(request, settings);
    const container = job.spec!.template.spec!.containers[0];
    const env = Object.fromEntries(container.env!.map((e) => [e.name, e.value]));
    const carried = decodeBuildRequestBase64(env.FARM_BUILD_REQUEST!);
    expect(carried.toJSON()).toEqual(request.toJSON());
    expect(job.metadata!.annotations!['farm.dev/change-request-id']).toBe('Fix The_Thing/#42');
    expect(job.metadata!.labels!['farm.dev/change-request-id']).toMatch(/^Fix-The_Thing-42-[0-9a-f]{10}$/);
    expect(job.metadata!.labels!['app.kubernetes.io/managed-by']).toBe('farm-builder');
    expect(job.metadata!.labels!['app.kubernetes.io/instance']).toBe('team-a');
    expect(container.args).toEqual(['node', 'dist/build-job.mjs']);
  });

  test('runs once, without API access, as a non-root user on a read-only root filesystem', () => {
    const job = buildJobFor(request, { ...settings, secretName: 'git', configMapName: 'farm-config' });
    const pod = job.spec!.template.spec!;
    expect(job.spec!.backoffLimit).toBe(0); // a failed pod did not report: the builder reports it, never a rerun
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.securityContext!.runAsNonRoot).toBe(true);
    const container = pod.containers[0];
    expect(container.securityContext!.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext!.capabilities!.drop).toEqual(['ALL']);
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'farm-config' } }, { secretRef: { name: 'git' } }]);
    expect(container.volumeMounts!.map((m) => m.mountPath)).toEqual([
      '/work',
      '/tmp',
      '/work/checkouts',
      '/run/farm-sandbox',
    ]);
  });

  test("runs the repository's checks in the sandbox sidecar, which shares only the checkouts and holds no Secret", () => {
    const pod = buildJobFor(request, { ...settings, secretName: 'git', configMapName: 'farm-config' }).spec!.template
      .spec!;
    const build = pod.containers[0];
    const env = Object.fromEntries(build.env!.map((e) => [e.name, e.value]));
    expect(env.FARM_SANDBOX_RUNNER).toBe('/run/farm-sandbox/runner.sock');
    expect(env.FARM_CHECKOUT_DIR).toBe('/work/checkouts');
    const [sandbox] = pod.initContainers!;
    expect(sandbox.name).toBe('sandbox');
    expect(sandbox.restartPolicy).toBe('Always');
    expect(sandbox.args).toEqual(['node', 'dist/sandbox-runner.mjs']);
    expect(sandbox.envFrom).toBeUndefined();
    expect(sandbox.securityContext!.seccompProfile).toEqual({ type: 'Unconfined' });
    expect(sandbox.volumeMounts!.map((m) => m.mountPath)).toEqual(['/work/checkouts', '/run/farm-sandbox', '/tmp']);
    // the agent Job's sidecar (one function for both), its checkouts volume sized like the work volume
    const shared = sandboxPodParts({
      image: settings.image,
      imagePullPolicy: 'IfNotPresent',
      checkoutDir: '/work/checkouts',
      checkoutSizeLimit: '8Gi',
    });
    expect(pod.initContainers).toEqual(shared.initContainers);
    expect(pod.volumes!.slice(2)).toEqual(shared.volumes);
    // without the sidecar, the build container is as it was
    const plain = buildJobFor(request, { ...settings, sandbox: { runner: false } }).spec!.template.spec!;
    expect(plain.initContainers).toBeUndefined();
    expect(plain.containers[0].volumeMounts!.map((m) => m.mountPath)).toEqual(['/work', '/tmp']);
  });
});
