/** What the tests of the real node share: a pod shaped like the farm's Jobs, waiting for it, reading its output. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreV1Api, V1Container, V1Pod } from '@kubernetes/client-node';
import { FARM_CONTAINER_SECURITY, FARM_POD_SECURITY } from '../../../clients/kube/src';
import type { TestRealNode } from '../kubernetes-later';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './real-node';

/**
 * A pod of the farm image on the real node, as the farm's Jobs run (uid 1000, read-only root, no capabilities,
 * no service-account token), its one container `main` with a /tmp of its own.
 */
export function podOnRealNode(
  node: TestRealNode,
  name: string,
  container: Partial<V1Container>,
  labels: Record<string, string> = {},
): V1Pod {
  return {
    metadata: { name, labels },
    spec: {
      restartPolicy: 'Never',
      nodeSelector: { ...REAL_NODE_LABEL },
      tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      securityContext: FARM_POD_SECURITY,
      containers: [
        {
          name: 'main',
          image: node.image,
          imagePullPolicy: 'Never',
          securityContext: FARM_CONTAINER_SECURITY,
          volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
          ...container,
        },
      ],
      volumes: [{ name: 'tmp', emptyDir: {} }],
    },
  };
}

/** Creates the pod and waits until it has ended (Succeeded or Failed). */
export async function runToEnd(core: CoreV1Api, ns: string, pod: V1Pod, timeoutMs = 120_000): Promise<V1Pod> {
  await core.createNamespacedPod(ns, pod);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = (await core.readNamespacedPod(pod.metadata!.name!, ns)).body;
    if (now.status?.phase === 'Succeeded' || now.status?.phase === 'Failed') return now;
    if (Date.now() > deadline)
      throw new Error(`pod ${pod.metadata!.name} not done: ${JSON.stringify(now.status?.containerStatuses)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A container's output, from the kubelet's log files (the apiserver cannot reach a kubelet on loopback). */
export function containerLog(node: TestRealNode, ns: string, podName: string, container = 'main'): string {
  const dir = readdirSync(node.podLogsDir).find((d) => d.startsWith(`${ns}_${podName}_`));
  if (!dir) throw new Error(`no log directory of ${podName}`);
  return readFileSync(join(node.podLogsDir, dir, container, '0.log'), 'utf8')
    .split('\n')
    .map((l) => l.split(' ').slice(3).join(' ')) // `<time> <stream> <F|P> <text>`
    .join('\n');
}
