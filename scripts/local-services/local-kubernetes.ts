/** The local control plane plus the project's process node: what the Kubernetes tests run on. */
import { resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { createLogger, type Logger } from '@farm/runtime';
import { ensureHelm, startKubeControlPlane } from './kube-control-plane';
import { ProcessNode, farmImageOnCheckout } from './process-node';

/** The image name under which the process node runs the farm image from this checkout. */
export const PROCESS_NODE_FARM_IMAGE = 'agent-farm:checkout';
const CHECKOUT = resolve(__dirname, '../..');

export interface LocalKubernetesCluster {
  /**
   * KUBECONFIG for the tests (administrator), FARM_TEST_AGENT_IMAGE (the farm image the node can run) and
   * FARM_TEST_HELM (the helm binary the chart tests install with).
   */
  env: { KUBECONFIG: string; FARM_TEST_AGENT_IMAGE: string; FARM_TEST_HELM: string };
  stop(): Promise<void>;
}

export async function startLocalKubernetes(opts: { log?: Logger } = {}): Promise<LocalKubernetesCluster> {
  const log = opts.log ?? createLogger('local-services', { fields: { service: 'kubernetes' } });
  const plane = await startKubeControlPlane({ log });
  let helm: string;
  try {
    helm = await ensureHelm(log);
  } catch (err) {
    await plane.stop();
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
    throw err;
  }
  return {
    env: { KUBECONFIG: plane.kubeconfig, FARM_TEST_AGENT_IMAGE: PROCESS_NODE_FARM_IMAGE, FARM_TEST_HELM: helm },
    async stop() {
      await node.stop();
      await plane.stop();
    },
  };
}
