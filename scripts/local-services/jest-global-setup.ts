/**
 * Jest globalSetup: brings up Kafka and Postgres, and starts a Kubernetes control plane with the process node in
 * the background (the tests that need it wait for it: kubernetes-later.ts), unless KAFKA_BROKERS / DATABASE_URL /
 * KUBECONFIG already point at running ones.
 */
import { createLogger } from '@farm/runtime';
import { startLocalServices, type LocalServices } from './index';
import { startKubernetesLater } from './kubernetes-later';

// globalSetup and globalTeardown run in the same process and share globalThis.
export const HANDLE = Symbol.for('farm.localServices');

export default async function globalSetup(): Promise<void> {
  const log = createLogger('local-services');
  const kubernetes = process.env.KUBECONFIG ? undefined : startKubernetesLater(log.child({ service: 'kubernetes' }));
  let services: LocalServices;
  try {
    services = await startLocalServices(
      { kafka: !process.env.KAFKA_BROKERS, postgres: !process.env.DATABASE_URL },
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
  Object.assign(process.env, services.env, kubernetes?.env);
}
