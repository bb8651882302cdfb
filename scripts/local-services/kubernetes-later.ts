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
import type { PreparedNode } from './real-node/real-node';

/** Where a test learns that the background cluster is ready (`{"ok":true}`) or failed (`{"error":"..."}`). */
export const READY_FILE_ENV = 'FARM_TEST_KUBERNETES_READY_FILE';

export interface PendingKubernetes {
  env: { KUBECONFIG: string; FARM_TEST_AGENT_IMAGE: string; FARM_TEST_HELM: string; [READY_FILE_ENV]: string };
  /** Resolves with the cluster (or undefined when it failed to start: the waiting tests report why). */
  started: Promise<LocalKubernetesCluster | undefined>;
}

/** What a test learns of the real node once the cluster is ready. */
export interface TestRealNode {
  name: string;
  /** The farm image as containerd knows it. */
  image: string;
  /** The host as pods see it. */
  gateway: string;
  podLogsDir: string;
  containerdSocket: string;
}

interface ReadyState {
  ok?: boolean;
  error?: string;
  realNode?: TestRealNode;
  realNodeError?: string;
}

export function startKubernetesLater(
  log: Logger,
  realNode?: PreparedNode | { unavailable: string },
): PendingKubernetes {
  const dir = mkdtempSync(join(tmpdir(), 'farm-test-kube-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const ready = join(dir, 'ready.json');
  const started = startLocalKubernetes({ log, realNode }).then(
    (cluster) => {
      copyFileSync(cluster.env.KUBECONFIG, kubeconfig);
      const node = cluster.realNode;
      const state: ReadyState = {
        ok: true,
        realNode: node && {
          name: node.name,
          image: node.image,
          gateway: node.gateway,
          podLogsDir: node.podLogsDir,
          containerdSocket: node.containerdSocket,
        },
        realNodeError: cluster.realNodeError,
      };
      writeFileSync(ready, JSON.stringify(state));
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
  await readyState(timeoutMs);
}

async function readyState(timeoutMs: number): Promise<ReadyState | undefined> {
  const ready = process.env[READY_FILE_ENV];
  if (!ready) return undefined;
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(ready)) {
    if (Date.now() > deadline) throw new Error(`the test cluster was not ready within ${timeoutMs / 60_000} min`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const state = JSON.parse(readFileSync(ready, 'utf8')) as ReadyState;
  if (!state.ok) throw new Error(`the test cluster did not start: ${state.error}`);
  return state;
}

/**
 * The test cluster's real node; throws why there is none (not root, a tool missing, its start failed, or the
 * cluster was given from outside: KUBECONFIG set, where no real node of ours runs).
 */
export async function testRealNode(timeoutMs = 60 * 60_000): Promise<TestRealNode> {
  const state = await readyState(timeoutMs);
  if (!state)
    throw new Error(
      'no real node: the cluster was given (KUBECONFIG), the tests start a real node only with their own',
    );
  if (!state.realNode) throw new Error(`no real node in the test cluster: ${state.realNodeError ?? 'not started'}`);
  return state.realNode;
}
