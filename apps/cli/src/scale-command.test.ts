// Against KubernetesApiDouble, the orchestrator's HTTP double of the Kubernetes API (no kube-apiserver here).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { KubernetesApiDouble } from '@farm/orchestrator/testing';
import { registerScaleCommand } from './scale-command';

let api: KubernetesApiDouble;
let dir: string;
let out: string[];
let err: string[];

beforeEach(async () => {
  api = await new KubernetesApiDouble().start();
  api.addDeployment('farm', 'agent-farm-coding-agent', 2);
  // The command reads $KUBECONFIG like kubectl does; JSON is valid YAML.
  dir = mkdtempSync(path.join(os.tmpdir(), 'farm-scale-'));
  const kubeconfig = path.join(dir, 'config');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'double', cluster: { server: api.url } }],
      users: [{ name: 'ops', user: { token: 'ops-token' } }],
      contexts: [{ name: 'farm', context: { cluster: 'double', user: 'ops', namespace: 'farm' } }],
      'current-context': 'farm',
    }),
  );
  process.env.KUBECONFIG = kubeconfig;
  out = [];
  err = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  jest.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  process.exitCode = undefined;
});

afterEach(async () => {
  jest.restoreAllMocks();
  delete process.env.KUBECONFIG;
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
  await api.stop();
});

async function farm(...args: string[]): Promise<void> {
  const program = new Command('farm').exitOverride();
  registerScaleCommand(program);
  await program.parseAsync(['node', 'farm', ...args]);
}

test('pool mode sets the worker Deployment’s replicas through its scale subresource', async () => {
  await farm('scale', 'coding-agent', '--replicas', '5');
  expect(api.deployment('farm', 'agent-farm-coding-agent')!.spec.replicas).toBe(5);
  const patch = api.requests.find((r) => r.method === 'PATCH')!;
  expect(patch.path).toBe('/apis/apps/v1/namespaces/farm/deployments/agent-farm-coding-agent/scale');
  expect(patch.body).toEqual({ spec: { replicas: 5 } });
  expect(out.join('')).toBe('coding-agent: 2 -> 5 replicas (deployment farm/agent-farm-coding-agent)\n');
  expect(process.exitCode).toBeUndefined();
});

test('jobs mode writes the Job cap into the launcher ConfigMap, creating it when missing', async () => {
  await farm('scale', 'coding-agent', '--replicas', '8', '--mode', 'jobs');
  expect(api.configMap('farm', 'farm-launcher')!.data).toEqual({ maxRunningJobs: '8' });
  expect(out.join('')).toMatch(/at most 8 at once \(was the orchestrator default/);

  api.setConfigMap('farm', 'farm-launcher', { maxRunningJobs: '8', other: 'kept' });
  await farm('scale', 'coding-agent', '--replicas', '0', '--mode', 'jobs', '--namespace', 'farm');
  expect(api.configMap('farm', 'farm-launcher')!.data).toEqual({ maxRunningJobs: '0', other: 'kept' });
  expect(out.join('')).toMatch(/at most 0 at once \(was 8;/);
  expect(api.deployment('farm', 'agent-farm-coding-agent')!.spec.replicas).toBe(2); // pool untouched
});

test('a missing Deployment says what to check', async () => {
  await farm('scale', 'coding-agent', '--replicas', '3', '-n', 'elsewhere');
  expect(err.join('')).toMatch(
    /deployment elsewhere\/agent-farm-coding-agent not found: is the chart installed here with launcher.mode=pool/,
  );
  expect(process.exitCode).toBe(1);
});

test('bad input is refused before any API call', async () => {
  await expect(farm('scale', 'coding-agent', '--replicas', '-1')).rejects.toThrow(/whole number/);
  await expect(farm('scale', 'coding-agent', '--replicas', '2', '--mode', 'threads')).rejects.toThrow(
    /Allowed choices are pool, jobs/,
  );
  await farm('scale', 'orchestrator', '--replicas', '2');
  expect(err.join('')).toMatch(/only coding-agent scales this way/);
  expect(api.requests).toEqual([]);
});
