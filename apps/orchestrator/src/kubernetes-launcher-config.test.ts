// Start-up validation only, before any API call; the settings reaching a real API server are tested in
// kubernetes-launcher.integration.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InProcessBus } from '@farm/bus';
import { ConfigError, silentLogger } from '@farm/runtime';
import { kubernetesJobLauncherFromEnv } from './kubernetes-launcher-config';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'farm-kubeconfig-'));
  writeFileSync(
    path.join(dir, 'config'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'orchestrator', user: { token: 't' } }],
      contexts: [{ name: 'farm', context: { cluster: 'c', user: 'orchestrator' } }],
      'current-context': 'farm',
    }),
  );
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

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

test('FARM_JOB_POD that is not JSON, or names a field the farm does not know, stops start-up with the reason', () => {
  const bus = new InProcessBus();
  const env = { KUBECONFIG: path.join(dir, 'config'), FARM_AGENT_IMAGE: 'x' };
  expect(() => kubernetesJobLauncherFromEnv(bus, silentLogger, { ...env, FARM_JOB_POD: '{nodeSelector:' })).toThrow(
    /FARM_JOB_POD: not JSON/,
  );
  expect(() =>
    kubernetesJobLauncherFromEnv(bus, silentLogger, { ...env, FARM_JOB_POD: '{"hostNetwork":true}' }),
  ).toThrow(/FARM_JOB_POD.*hostNetwork/);
  expect(() =>
    kubernetesJobLauncherFromEnv(bus, silentLogger, { ...env, FARM_JOB_POD: '{"nodeSelector":{"pool":3}}' }),
  ).toThrow(/FARM_JOB_POD/);
});
