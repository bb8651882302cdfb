import { loadConfig, z } from '@farm/runtime';
import { componentTokenConfigSchema } from '@farm/access';

/** The srm's settings (its own deployment; `farm up` runs it on its own store and a loopback port). */
export const srmConfigSchema = componentTokenConfigSchema.extend({
  DATABASE_URL: z.string().optional(),
  /**
   * PGlite directory when DATABASE_URL is absent. Its own, not the orchestrator's FARM_STATE_DIR: an
   * embedded database can be opened by one process only.
   */
  FARM_SRM_STATE_DIR: z.string().default('.farm/srm-state'),
  /** The API, /metrics and /healthz share this port (`farm up`: 0 picks a free loopback port). */
  FARM_SRM_PORT: z.coerce.number().int().min(0).max(65535).default(9470),
});
export type SrmConfig = z.infer<typeof srmConfigSchema>;
export const loadSrmConfig = (env: NodeJS.ProcessEnv = process.env): SrmConfig => loadConfig(srmConfigSchema, env);
