/** @farm-kubernetes (waits for the test cluster; run last) */
// The Helm chart and `farm scale` against a real control plane (kube-apiserver with its validation, the
// Deployment and ReplicaSet controllers), started by the jest global set-up unless KUBECONFIG is given.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { Command } from 'commander';
import {
  CHART,
  adminKubeConfig,
  createObjects,
  createTestNamespace,
  deleteTestNamespace,
  helmBinary,
  readObject,
  renderChart,
} from '@farm/orchestrator/testing';
import { registerScaleCommand } from './scale-command';

const exec = promisify(execFile);
const admin = adminKubeConfig();
const apps = admin.makeApiClient(AppsV1Api);
const core = admin.makeApiClient(CoreV1Api);
const adminKubeconfigFile = process.env.KUBECONFIG!.split(':')[0];

let ns: string;
let dir: string;
let out: string[];
let err: string[];
let kubeconfigBefore: string | undefined;

beforeEach(async () => {
  ns = await createTestNamespace(admin, 'scale');
  dir = mkdtempSync(path.join(os.tmpdir(), 'farm-scale-'));
  out = [];
  err = [];
  process.exitCode = undefined;
});

afterEach(async () => {
  jest.restoreAllMocks();
  if (kubeconfigBefore !== undefined) process.env.KUBECONFIG = kubeconfigBefore;
  kubeconfigBefore = undefined;
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
  await deleteTestNamespace(admin, ns);
});

async function helmInstall(release: string, args: string[]): Promise<void> {
  await exec(
    helmBinary(),
    ['install', release, CHART, '--namespace', ns, '--kubeconfig', adminKubeconfigFile, ...args],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
}

/** `farm scale ...` as a user runs it: the command reads $KUBECONFIG like kubectl does, here with `ns` as the context's namespace. */
async function farm(...args: string[]): Promise<void> {
  const kc = adminKubeConfig();
  const ctx = kc.getContextObject(kc.getCurrentContext())!;
  const file = path.join(dir, 'config');
  const config = JSON.parse(kc.exportConfig());
  config.contexts = [{ name: ctx.name, context: { cluster: ctx.cluster, user: ctx.user, namespace: ns } }];
  writeFileSync(file, JSON.stringify(config));
  kubeconfigBefore ??= process.env.KUBECONFIG;
  process.env.KUBECONFIG = file;
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  jest.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  try {
    const program = new Command('farm').exitOverride();
    registerScaleCommand(program);
    await program.parseAsync(['node', 'farm', ...args]);
  } finally {
    jest.restoreAllMocks();
    process.env.KUBECONFIG = kubeconfigBefore;
  }
}

const replicasOf = async (name: string) => (await apps.readNamespacedDeployment(name, ns)).body.spec!.replicas;
const configMapData = async (name: string) =>
  (await core.readNamespacedConfigMap(name, ns).catch(() => undefined))?.body.data;

async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the Helm chart on a real API server', () => {
  const valueSets: [string, string[]][] = [
    ['default values', []],
    ['ci/custom-jobs-values.yaml', ['-f', path.join(CHART, 'ci/custom-jobs-values.yaml')]],
    // Its KEDA ScaledObject and ServiceMonitor need those operators' CRDs, which this cluster does not have.
    [
      'ci/pool-keda-values.yaml without the KEDA and Prometheus Operator objects',
      [
        '-f',
        path.join(CHART, 'ci/pool-keda-values.yaml'),
        '--set',
        'workerPool.keda.enabled=false',
        '--set',
        'metrics.serviceMonitor.enabled=false',
      ],
    ],
  ];

  test.each(valueSets)(
    'every object passes the server’s strict validation and helm install succeeds (%s)',
    async (_what, values) => {
      const objects = await renderChart(admin, 'agent-farm', ns, values);
      expect(objects.length).toBeGreaterThan(5);
      await createObjects(admin, objects, { dryRun: true });
      await helmInstall('agent-farm', values);
      // Every object the chart renders is on the server, as the release's.
      for (const o of objects) {
        const found = await readObject(admin, { ...o, metadata: { ...o.metadata, namespace: ns } });
        expect(found.metadata!.labels?.['app.kubernetes.io/managed-by']).toBe('Helm');
        expect(found.metadata!.annotations?.['meta.helm.sh/release-name']).toBe('agent-farm');
      }
    },
  );
});

describe('farm scale on a real API server', () => {
  test('pool mode sets the worker Deployment’s replicas through its scale subresource, and the Deployment controller follows', async () => {
    await helmInstall('agent-farm', ['--set', 'launcher.mode=pool']);
    expect(await replicasOf('agent-farm-coding-agent')).toBe(2);
    await farm('scale', 'coding-agent', '--replicas', '5');
    expect(out.join('')).toBe(`coding-agent: 2 -> 5 replicas (deployment ${ns}/agent-farm-coding-agent)\n`);
    expect(process.exitCode).toBeUndefined();
    expect(await replicasOf('agent-farm-coding-agent')).toBe(5);
    const managers = (await apps.readNamespacedDeployment('agent-farm-coding-agent', ns)).body.metadata!.managedFields!;
    expect(managers.some((m) => m.manager === 'farm-cli' && m.subresource === 'scale')).toBe(true);
    // The Deployment controller scales its ReplicaSet, which creates the pods.
    await eventually(async () => {
      const pods = (
        await core.listNamespacedPod(
          ns,
          undefined,
          undefined,
          undefined,
          undefined,
          'app.kubernetes.io/name=coding-agent',
        )
      ).body.items;
      return pods.length === 5;
    }, 'five coding-agent pods');
  });

  test('jobs mode writes the Job cap into the chart’s launcher ConfigMap, which the orchestrator reads', async () => {
    await helmInstall('agent-farm', []);
    expect(await configMapData('farm-launcher')).toEqual({ maxRunningJobs: '4' });
    await farm('scale', 'coding-agent', '--replicas', '8', '--mode', 'jobs');
    expect(await configMapData('farm-launcher')).toEqual({ maxRunningJobs: '8' });
    expect(out.join('')).toMatch(/at most 8 at once \(was 4;/);
  });

  test('jobs mode creates the ConfigMap when missing, keeps its other keys, and leaves the pool alone', async () => {
    await helmInstall('agent-farm', ['--set', 'launcher.mode=pool']);
    await farm('scale', 'coding-agent', '--replicas', '8', '--mode', 'jobs');
    expect(await configMapData('farm-launcher')).toEqual({ maxRunningJobs: '8' });
    expect(out.join('')).toMatch(/at most 8 at once \(was the orchestrator default/);

    await core.patchNamespacedConfigMap(
      'farm-launcher',
      ns,
      { data: { other: 'kept' } },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      {
        headers: { 'Content-Type': 'application/merge-patch+json' },
      },
    );
    await farm('scale', 'coding-agent', '--replicas', '0', '--mode', 'jobs', '--namespace', ns);
    expect(await configMapData('farm-launcher')).toEqual({ maxRunningJobs: '0', other: 'kept' });
    expect(out.join('')).toMatch(/at most 0 at once \(was 8;/);
    expect(await replicasOf('agent-farm-coding-agent')).toBe(2); // pool untouched
  });

  test('the chart’s own cap ConfigMap name with non-default values', async () => {
    await helmInstall('farm-custom-jobs', ['-f', path.join(CHART, 'ci/custom-jobs-values.yaml')]);
    expect(await configMapData('farm-launcher-team-a')).toEqual({ maxRunningJobs: '16' });
    await farm('scale', 'coding-agent', '--replicas', '3', '--mode', 'jobs', '--configmap', 'farm-launcher-team-a');
    expect(await configMapData('farm-launcher-team-a')).toEqual({ maxRunningJobs: '3' });
  });

  test('a missing Deployment says what to check', async () => {
    await farm('scale', 'coding-agent', '--replicas', '3', '-n', 'elsewhere');
    expect(err.join('')).toMatch(
      /deployment elsewhere\/agent-farm-coding-agent not found: is the chart installed here with launcher.mode=pool/,
    );
    expect(process.exitCode).toBe(1);
  });

  test('bad input is refused before any API call', async () => {
    await helmInstall('agent-farm', ['--set', 'launcher.mode=pool']);
    await expect(farm('scale', 'coding-agent', '--replicas', '-1')).rejects.toThrow(/whole number/);
    await expect(farm('scale', 'coding-agent', '--replicas', '2', '--mode', 'threads')).rejects.toThrow(
      /Allowed choices are pool, jobs/,
    );
    await farm('scale', 'orchestrator', '--replicas', '2');
    expect(err.join('')).toMatch(/only coding-agent scales this way/);
    expect(process.exitCode).toBe(2);
    expect(await replicasOf('agent-farm-coding-agent')).toBe(2);
    expect(await replicasOf('agent-farm-orchestrator')).toBe(1);
    expect(await configMapData('farm-launcher')).toBeUndefined();
  });
});
