import { loadConfig, stateLayout, z } from '@farm/runtime';
import type { OrchestratorOptions } from './orchestrator';
import { taskAccountingConfigSchema, taskAccountingSettingsFrom } from './task-accounting';
import { apiAccessConfigSchema } from './api-access';
import { approvalConfigSchema, approvalPolicyFrom } from './approval-policy';
import { componentTokenConfigSchema } from '@farm/access';

/** The orchestrator's settings; `farm up` and the orchestrator deployment both read them through this. */
export const orchestratorConfigSchema = taskAccountingConfigSchema
  .merge(approvalConfigSchema)
  .merge(apiAccessConfigSchema)
  .merge(componentTokenConfigSchema)
  .extend({
    /** PostgreSQL; without it PGlite keeps the state under FARM_STATE_DIR. */
    DATABASE_URL: z.string().optional(),
    FARM_STATE_DIR: z.string().default('.farm/state'),
    /** process: an agent process per task; pool: tasks go to the worker pool topic; jobs: a Kubernetes Job per task. */
    FARM_LAUNCHER: z.enum(['process', 'pool', 'jobs']).default('process'),
    /** The HTTP API, /metrics and /healthz. */
    FARM_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    FARM_TASK_PARALLELISM: z.coerce.number().int().min(1).default(4),
    /**
     * Process mode: agent processes at once; further tasks wait in order for a slot (0: no bound). A burst of
     * requests would otherwise start an agent each at once (about 100 MiB apiece) and take the machine's
     * memory; agents mostly wait on the model, so the bound is well above the cores of a small machine.
     */
    FARM_AGENT_PROCESSES: z.coerce.number().int().min(0).default(16),
    FARM_TASK_DEADLINE_S: z.coerce.number().int().positive().default(1800),
    FARM_MAX_TASK_DISPATCHES: z.coerce.number().int().min(1).default(2),
    /** A request still planning after this long is failed (a planner gave up or is gone). */
    FARM_PLANNING_DEADLINE_S: z.coerce.number().int().positive().default(900),
    /** A request still in BUILD after this long is failed; above the builder's FARM_BUILD_DEADLINE_S. */
    FARM_BUILD_PHASE_DEADLINE_S: z.coerce.number().int().positive().default(7200),
    /**
     * How long sent outbox rows of an ended request are kept (its event stream reads them back); the sweep
     * deletes older ones. Default 7 days.
     */
    FARM_OUTBOX_RETENTION_S: z.coerce
      .number()
      .int()
      .positive()
      .default(7 * 24 * 3600),
    /**
     * How long the ids of applied messages are kept to skip a redelivery; longer than any redelivery window
     * (Kafka keeps messages 7 days by default). Default 14 days.
     */
    FARM_PROCESSED_RETENTION_S: z.coerce
      .number()
      .int()
      .positive()
      .default(14 * 24 * 3600),
    /** The srm service, to release a request's leases when it ends. */
    FARM_SRM_URL: z.string().url().optional(),
  });
export type OrchestratorConfig = z.infer<typeof orchestratorConfigSchema>;
export const loadOrchestratorConfig = (env: NodeJS.ProcessEnv = process.env): OrchestratorConfig =>
  loadConfig(orchestratorConfigSchema, env);

export function orchestratorOptionsFrom(c: OrchestratorConfig): Partial<OrchestratorOptions> {
  return {
    parallelism: c.FARM_TASK_PARALLELISM,
    taskDeadlineMs: c.FARM_TASK_DEADLINE_S * 1000,
    maxDispatches: c.FARM_MAX_TASK_DISPATCHES,
    planningDeadlineMs: c.FARM_PLANNING_DEADLINE_S * 1000,
    buildDeadlineMs: c.FARM_BUILD_PHASE_DEADLINE_S * 1000,
    outboxRetentionMs: c.FARM_OUTBOX_RETENTION_S * 1000,
    processedRetentionMs: c.FARM_PROCESSED_RETENTION_S * 1000,
    accounting: taskAccountingSettingsFrom(c),
    approval: approvalPolicyFrom(c),
  };
}

// Where the farm keeps its state on one machine: in @farm/runtime, so that the CLI reads it without the orchestrator.
export { stateLayout };
