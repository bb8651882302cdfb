/**
 * Jest globalSetup: brings up Kafka and Postgres, and starts a Kubernetes control plane with the process node in
 * the background (the tests that need it wait for it: kubernetes-later.ts), unless KAFKA_BROKERS / DATABASE_URL /
 * KUBECONFIG already point at running ones.
 */
import { execFileSync } from 'node:child_process';
import { FARM_ENTRIES, FARM_ROOT, createLogger, staleEntries } from '@farm/runtime';
import { startLocalServices, type LocalServices } from './index';
import { startKubernetesLater } from './kubernetes-later';

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
