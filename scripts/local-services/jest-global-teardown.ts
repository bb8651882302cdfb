/** Jest globalTeardown: stops whatever jest-global-setup.ts started (services given via env are left alone). */
import type { LocalServices } from './index';
import { HANDLE } from './jest-global-setup';

export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as Record<symbol, LocalServices | undefined>)[HANDLE];
  delete (globalThis as Record<symbol, unknown>)[HANDLE];
  await services?.stop();
}
