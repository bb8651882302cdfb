import type { PGlite } from '@electric-sql/pglite';

let shared: Promise<PGlite> | undefined;

/**
 * One PGlite per jest worker, started when a test first asks for it (`testPgliteStore` of @farm/store/testing)
 * and shared by the worker's test files, each store in a schema of its own: starting PGlite costs about a
 * second of CPU, which the unit lane would otherwise pay per test file (or per test).
 */
export function workerPglite(): Promise<PGlite> {
  // Loaded on first use, in the worker's realm: a worker whose test files need no database does not pay for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PGlite: Pglite } = require('@electric-sql/pglite') as { PGlite: typeof PGlite };
  shared ??= Pglite.create();
  return shared;
}
