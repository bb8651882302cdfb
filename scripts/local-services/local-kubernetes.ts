/** The local control plane plus the project's process node: what the Kubernetes tests run on. */
import { resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { createLogger, type Logger } from '@farm/runtime';
import { ensureHelm, startKubeControlPlane } from './kube-control-plane';
import { ProcessNode, farmImageOnCheckout } from './process-node';
import type { PreparedNode, RealNode } from './real-node/real-node';
import { errorMessage } from '@farm/runtime';

/** The image name under which the process node runs the farm image from this checkout. */
export const PROCESS_NODE_FARM_IMAGE = 'agent-farm:checkout';
const CHECKOUT = resolve(__dirname, '../..');

export interface LocalKubernetesCluster {
  /**
   * KUBECONFIG for the tests (administrator), FARM_TEST_AGENT_IMAGE (the farm image the node can run) and
   * FARM_TEST_HELM (the helm binary the chart tests install with).
   */
  env: { KUBECONFIG: string; FARM_TEST_AGENT_IMAGE: string; FARM_TEST_HELM: string };
  /** The real node (kubelet, containerd, kube-router), when one was prepared and started. */
  realNode?: RealNode;
  /** Why there is no real node, when one was asked for. */
  realNodeError?: string;
  stop(): Promise<void>;
}

export async function startLocalKubernetes(
  opts: { log?: Logger; realNode?: PreparedNode | { unavailable: string } } = {},
): Promise<LocalKubernetesCluster> {
  const log = opts.log ?? createLogger('local-services', { fields: { service: 'kubernetes' } });
  const abandonRealNode = () =>
    opts.realNode && 'abandon' in opts.realNode ? opts.realNode.abandon() : Promise.resolve();
  const plane = await startKubeControlPlane({ log }).catch(async (err) => {
    await abandonRealNode();
    throw err;
  });
  let helm: string;
  try {
    helm = await ensureHelm(log);
  } catch (err) {
    await plane.stop();
    await abandonRealNode();
    throw err;
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(plane.kubeconfig);
  const node = new ProcessNode({
    kubeConfig,
    name: 'farm-process-node',
    images: { [PROCESS_NODE_FARM_IMAGE]: farmImageOnCheckout(CHECKOUT) },
    log: log.child({ component: 'process-node' }),
  });
  try {
    await node.start();
  } catch (err) {
    await plane.stop();
    await abandonRealNode();
    throw err;
  }
  // The process node serves every test; the real node only the tests that ask for containers. Without it the
  // cluster still serves the others, and those tests fail with the reason.
  let realNode: RealNode | undefined;
  let realNodeError = opts.realNode && 'unavailable' in opts.realNode ? opts.realNode.unavailable : undefined;
  if (opts.realNode && 'start' in opts.realNode) {
    try {
      realNode = await opts.realNode.start({
        kubeConfig,
        kubeconfigFile: plane.kubeconfig,
        costFile: resolve(CHECKOUT, '.cache/real-node-cost.txt'),
      });
    } catch (err) {
      realNodeError = errorMessage(err);
      log.error('the real node did not start', { err });
    }
  }
  const putBack = realNode ? () => realNode!.stop() : abandonRealNode;
  return {
    env: { KUBECONFIG: plane.kubeconfig, FARM_TEST_AGENT_IMAGE: PROCESS_NODE_FARM_IMAGE, FARM_TEST_HELM: helm },
    realNode,
    realNodeError,
    async stop() {
      await putBack().catch((err) => log.error('putting the host back failed', { err }));
      await node.stop();
      await plane.stop();
    },
  };
}
