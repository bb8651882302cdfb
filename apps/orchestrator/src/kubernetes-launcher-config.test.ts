// Against KubernetesApiDouble, an HTTP double of the Kubernetes API (no kube-apiserver can be installed here).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { farm } from '@farm/proto';
import { InProcessBus } from '@farm/bus';
import { ConfigError, silentLogger } from '@farm/runtime';
import { KubernetesApiDouble } from '../testing';
import { kubernetesJobLauncherFromEnv } from './kubernetes-launcher-config';

let api: KubernetesApiDouble;
let dir: string;

beforeEach(async () => {
  api = await new KubernetesApiDouble().start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'farm-kubeconfig-'));
  writeFileSync(
    path.join(dir, 'config'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'double', cluster: { server: api.url } }],
      users: [{ name: 'orchestrator', user: { token: 't' } }],
      contexts: [{ name: 'farm', context: { cluster: 'double', user: 'orchestrator', namespace: 'from-context' } }],
      'current-context': 'farm',
    }),
  );
});

afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api.stop();
});

test('the launcher takes the Job settings the Helm chart gives the orchestrator', async () => {
  const bus = new InProcessBus();
  const launcher = kubernetesJobLauncherFromEnv(bus, silentLogger, {
    KUBECONFIG: path.join(dir, 'config'),
    FARM_AGENT_IMAGE: 'registry.example.com/agent-farm:0.2.0',
    FARM_K8S_NAMESPACE: 'team-a',
    FARM_RELEASE: 'farm-a',
    FARM_AGENT_SECRET: 'farm-a-secrets',
    FARM_JOB_MEMORY_LIMIT: '6Gi',
    FARM_JOB_DEADLINE_S: '900',
    FARM_JOB_BACKOFF_LIMIT: '0',
  });
  try {
    await launcher.launch(
      farm.v1.CodingTask.create({
        id: 'cr-1-item-1',
        changeRequestId: 'cr-1',
        goal: 'g',
        repo: { url: 'http://git/x.git', baseCommit: 'b'.repeat(40) },
      }),
    );
    const [job] = api.jobs('team-a');
    expect(job.metadata.labels['app.kubernetes.io/instance']).toBe('farm-a');
    expect(job.spec).toMatchObject({ activeDeadlineSeconds: 900, backoffLimit: 0 });
    const c = job.spec.template.spec.containers[0];
    expect(c.image).toBe('registry.example.com/agent-farm:0.2.0');
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '6Gi' } });
    expect(c.envFrom).toEqual([{ secretRef: { name: 'farm-a-secrets' } }]);
  } finally {
    await launcher.close();
    await bus.close();
  }
});

test('a missing image or a malformed quantity stops start-up naming the variable', () => {
  const bus = new InProcessBus();
  expect(() => kubernetesJobLauncherFromEnv(bus, silentLogger, { KUBECONFIG: path.join(dir, 'config') })).toThrow(
    ConfigError,
  );
  expect(() =>
    kubernetesJobLauncherFromEnv(bus, silentLogger, {
      KUBECONFIG: path.join(dir, 'config'),
      FARM_AGENT_IMAGE: 'x',
      FARM_JOB_MEMORY_LIMIT: '2 GB',
    }),
  ).toThrow(/FARM_JOB_MEMORY_LIMIT: must be a Kubernetes quantity/);
});
