/**
 * The test cluster, started in the background: the jest global set-up returns once Kafka and PostgreSQL are up,
 * and only the test files marked `@farm-kubernetes` (run last by the sequencer) wait for the cluster, whose cold
 * build of the Go tools takes minutes. The files' paths are known at once, so the environment can be set before
 * jest creates the test contexts; the kubeconfig appears there once the cluster is ready.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@farm/runtime';
import { controlPlaneCacheDir } from './kube-control-plane';
import { PROCESS_NODE_FARM_IMAGE, startLocalKubernetes, type LocalKubernetesCluster } from './local-kubernetes';

/** Where a test learns that the background cluster is ready (`{"ok":true}`) or failed (`{"error":"..."}`). */
export const READY_FILE_ENV = 'FARM_TEST_KUBERNETES_READY_FILE';

export interface PendingKubernetes {
  env: { KUBECONFIG: string; FARM_TEST_AGENT_IMAGE: string; FARM_TEST_HELM: string; [READY_FILE_ENV]: string };
  /** Resolves with the cluster (or undefined when it failed to start: the waiting tests report why). */
  started: Promise<LocalKubernetesCluster | undefined>;
}

export function startKubernetesLater(log: Logger): PendingKubernetes {
  const dir = mkdtempSync(join(tmpdir(), 'farm-test-kube-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const ready = join(dir, 'ready.json');
  const started = startLocalKubernetes({ log }).then(
    (cluster) => {
      copyFileSync(cluster.env.KUBECONFIG, kubeconfig);
      writeFileSync(ready, JSON.stringify({ ok: true }));
      return cluster;
    },
    (err: unknown) => {
      log.error('the test cluster did not start', { err });
      writeFileSync(ready, JSON.stringify({ error: (err as Error).message }));
      return undefined;
    },
  );
  return {
    env: {
      KUBECONFIG: kubeconfig,
      FARM_TEST_AGENT_IMAGE: PROCESS_NODE_FARM_IMAGE,
      FARM_TEST_HELM: join(controlPlaneCacheDir(), 'helm'),
      [READY_FILE_ENV]: ready,
    },
    started,
  };
}

/** Waits until the background cluster is ready; throws its start-up error. No-op when the cluster was given. */
export async function waitForTestKubernetes(timeoutMs = 60 * 60_000): Promise<void> {
  const ready = process.env[READY_FILE_ENV];
  if (!ready) return;
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(ready)) {
    if (Date.now() > deadline) throw new Error(`the test cluster was not ready within ${timeoutMs / 60_000} min`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const state = JSON.parse(readFileSync(ready, 'utf8')) as { ok?: boolean; error?: string };
  if (!state.ok) throw new Error(`the test cluster did not start: ${state.error}`);
}
