/**
 * Jest's node environment, which for a test file marked with the `@farm-kubernetes` docblock pragma first waits
 * for the test cluster the global set-up starts in the background (kubernetes-later.ts), and which offers the
 * worker's one PGlite to the test files (worker-pglite.ts).
 */
import NodeEnvironment from 'jest-environment-node';
import { waitForTestKubernetes } from './kubernetes-later';
import { workerPglite } from './worker-pglite';

export const KUBERNETES_PRAGMA = 'farm-kubernetes';

export default class FarmTestEnvironment extends NodeEnvironment {
  private readonly needsKubernetes: boolean;

  constructor(...[config, context]: ConstructorParameters<typeof NodeEnvironment>) {
    super(config, context);
    this.needsKubernetes = KUBERNETES_PRAGMA in context.docblockPragmas;
    this.global.farmWorkerPglite = workerPglite;
  }

  override async setup(): Promise<void> {
    if (this.needsKubernetes) await waitForTestKubernetes();
    await super.setup();
  }
}
