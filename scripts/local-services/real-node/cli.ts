/**
 * The real node by hand (root):
 *   node --import tsx scripts/local-services/real-node/cli.ts up       a control plane with the real node, until Ctrl-C
 *   node --import tsx scripts/local-services/real-node/cli.ts restore  puts back what a killed run's node left
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createLogger } from '@farm/runtime';
import { startKubeControlPlane } from '../kube-control-plane';
import { restoreAfterDeadRun } from './host';
import { prepareRealNode } from './real-node';

async function main(command: string | undefined): Promise<number> {
  const log = createLogger('real-node');
  if (command === 'restore') {
    await restoreAfterDeadRun(log);
    return 0;
  }
  if (command !== 'up') {
    process.stderr.write('usage: cli.ts up|restore\n');
    return 2;
  }
  const prepared = await prepareRealNode(log);
  const plane = await startKubeControlPlane({ log }).catch(async (err) => {
    await prepared.abandon();
    throw err;
  });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(plane.kubeconfig);
  const node = await prepared.start({ kubeConfig, kubeconfigFile: plane.kubeconfig }).catch(async (err) => {
    await plane.stop();
    await prepared.abandon();
    throw err;
  });
  process.stdout.write(`KUBECONFIG=${plane.kubeconfig}\nFARM_TEST_NODE_IMAGE=${node.image}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await node.stop();
  await plane.stop();
  return 0;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`real-node: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
