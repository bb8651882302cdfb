import { componentTokenConfigSchema } from '@farm/access';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, z } from '@farm/runtime';

/** The code-planner's settings (its own deployment and `farm up`). */
export const codePlannerConfigSchema = componentTokenConfigSchema.extend({
  /** The srm service; without it symbols are not reserved (items are still serialised within a request). */
  FARM_SRM_URL: z.string().url().optional(),
  FARM_LEASE_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 3600),
  /** Where the clones of the commits planned on are kept (reused by the next request on the same commit). */
  FARM_WORK_DIR: z.string().default(path.join(os.tmpdir(), 'farm-code-planner')),
});
export type CodePlannerConfig = z.infer<typeof codePlannerConfigSchema>;
export const loadCodePlannerConfig = (env: NodeJS.ProcessEnv = process.env): CodePlannerConfig =>
  loadConfig(codePlannerConfigSchema, env);
