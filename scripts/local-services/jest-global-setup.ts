/**
 * Jest globalSetup: brings up Kafka and Postgres, and starts a Kubernetes control plane with the process node in
 * the background (the tests that need it wait for it: kubernetes-later.ts), unless KAFKA_BROKERS / DATABASE_URL /
 * KUBECONFIG already point at running ones.
 */
import { execFileSync } from 'node:child_process';
import { FARM_ENTRIES, FARM_ROOT, createLogger, errorMessage, staleEntries } from '@farm/runtime';
import { startLocalServices, type LocalServices } from './index';
import { startKubernetesLater } from './kubernetes-later';
import { prepareRealNode, type PreparedNode } from './real-node/real-node';

// globalSetup and globalTeardown run in the same process and share globalThis.
export const HANDLE = Symbol.for('farm.localServices');

export default async function globalSetup(): Promise<void> {
  const log = createLogger('local-services');
  // The tests start the farm's processes from their bundles: built here when one is missing or stale.
  if (staleEntries(FARM_ROOT, Object.keys(FARM_ENTRIES), 'quick').length) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-entries.ts'], {
      cwd: FARM_ROOT,
      stdio: 'inherit',
    });
  }
  // The real node's bridge first: Kafka gets a listener on its gateway for the pods.
  let realNode: PreparedNode | { unavailable: string } | undefined;
  if (!process.env.KUBECONFIG) {
    realNode = await prepareRealNode(log.child({ service: 'real-node' })).catch((err: unknown) => ({
      unavailable: errorMessage(err),
    }));
  }
  const gateway = realNode && 'gateway' in realNode ? realNode.gateway : undefined;
  const kubernetes = process.env.KUBECONFIG
    ? undefined
    : startKubernetesLater(log.child({ service: 'kubernetes' }), realNode);
  let services: LocalServices;
  try {
    services = await startLocalServices(
      { kafka: !process.env.KAFKA_BROKERS, postgres: !process.env.DATABASE_URL, kafkaPodHost: gateway },
      log,
    );
  } catch (err) {
    await (await kubernetes?.started)?.stop();
    throw err;
  }
  (globalThis as Record<symbol, LocalServices>)[HANDLE] = {
    env: services.env,
    async stop() {
      await services.stop();
      await (await kubernetes?.started)?.stop();
    },
  };
  // Set before jest spawns workers / builds test environments, so every test file sees them.
  Object.assign(process.env, services.env, kubernetes?.env, gateway && { FARM_TEST_POD_GATEWAY: gateway });
}
