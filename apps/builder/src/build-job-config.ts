import os from 'node:os';
import path from 'node:path';
import { z } from '@farm/runtime';
import { checkSandboxConfigSchema } from '@farm/sandbox';

/** How long the repository's full checks may run in one build (a step of `.farm/checks.json` may ask for less). */
export const buildCheckTimeoutSchema = z.coerce.number().int().positive().default(1800);

/**
 * The build process's own settings (build-job.ts); the request itself comes in $FARM_BUILD_REQUEST. Apart
 * from the builder's (config.ts) so that a build process does not load the launchers and their Kubernetes client.
 */
export const buildJobConfigSchema = z.object({
  FARM_BUILD_CHECK_TIMEOUT_S: buildCheckTimeoutSchema,
  ...checkSandboxConfigSchema.shape,
  /** On one machine the builder collects the result from here; in a Job the result goes to Kafka. */
  FARM_BUILD_SPOOL_DIR: z.string().optional(),
  /** Where the build checks the repository out. */
  FARM_WORK_DIR: z.string().default(path.join(os.tmpdir(), 'farm-build')),
  /** Where the checkouts go instead (a Job pod: the directory shared with its sandbox runner); default FARM_WORK_DIR. */
  FARM_CHECKOUT_DIR: z.string().optional(),
});
