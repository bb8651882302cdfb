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
    this.global.fetch = sandboxRealmFetch(this.global);
  }

  override async setup(): Promise<void> {
    if (this.needsKubernetes) await waitForTestKubernetes();
    await super.setup();
  }
}

/**
 * Node's fetch as a test file sees it: the same, but its rejections (an AbortError DOMException on a timeout)
 * are errors of the test file's realm, as they are of the only realm in a farm process. A library that checks
 * `err instanceof Error` (the openai client telling a timeout from a connection error) then decides as it does
 * in production.
 */
function sandboxRealmFetch(sandbox: NodeEnvironment['global']): typeof fetch {
  const outerFetch = globalThis.fetch;
  const SandboxError = sandbox.Error as ErrorConstructor;
  const ofSandbox = (err: Error): boolean => err instanceof SandboxError;
  return (input, init) =>
    outerFetch(input, init).catch((err: unknown) => {
      if (!(err instanceof Error) || ofSandbox(err)) throw err;
      const inRealm = new SandboxError(err.message, { cause: err.cause });
      Object.defineProperty(inRealm, 'name', { value: err.name, configurable: true, writable: true });
      inRealm.stack = err.stack;
      throw inRealm;
    });
}
