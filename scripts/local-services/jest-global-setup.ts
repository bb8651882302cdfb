/**
 * Jest globalSetup: brings up Kafka, Postgres and a Kubernetes control plane with the process node, unless
 * KAFKA_BROKERS / DATABASE_URL / KUBECONFIG already point at running ones.
 */
import { startLocalServices, type LocalServices } from './index';

// globalSetup and globalTeardown run in the same process and share globalThis.
export const HANDLE = Symbol.for('farm.localServices');

export default async function globalSetup(): Promise<void> {
  const services = await startLocalServices({
    kafka: !process.env.KAFKA_BROKERS,
    postgres: !process.env.DATABASE_URL,
    kubernetes: !process.env.KUBECONFIG,
  });
  (globalThis as Record<symbol, LocalServices>)[HANDLE] = services;
  // Set before jest spawns workers / builds test environments, so every test file sees them.
  Object.assign(process.env, services.env);
}
