import { createJsonModel, DEFAULT_MODEL_PRICES, modelPricesSchema, type JsonModel } from '@farm/llm';
import { jsonVariable, loadConfig, z, type Logger } from '@farm/runtime';
import type { PlannerPricing } from './request-planner';

/** The request-planner's settings (its own deployment and `farm up`). */
export const requestPlannerConfigSchema = z.object({
  /** Without a model endpoint every request becomes one task. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().default('not-needed'),
  FARM_PLANNER_MODEL: z.string().default('gpt-4o-mini'),
  FARM_PLANNER_MAX_ITEMS: z.coerce.number().int().min(1).max(50).default(8),
  FARM_LLM_STRUCTURED_OUTPUT: z.enum(['true', 'false']).default('false'),
  /**
   * The planner's model calls: timeout per call (a local model's first call may take minutes), retries on
   * 429/5xx, timeouts and malformed answers, and the most tokens a plan may have (sent as max_tokens).
   */
  FARM_PLANNER_TIMEOUT_S: z.coerce.number().positive().default(300),
  FARM_PLANNER_MAX_RETRIES: z.coerce.number().int().min(0).default(2),
  FARM_PLANNER_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).default(4096),
  /**
   * `auto`: a request that is obviously one task (one short sentence) is planned as one task without asking the
   * model (seconds saved; no symbol hints, so no srm reservations for it). `never`: the model plans every request.
   */
  FARM_PLAN_SINGLE_TASK: z.enum(['auto', 'never']).default('never'),
  /** The price table the planner's calls are priced by (the agents' setting: one table for every role). */
  FARM_MODEL_PRICES: jsonVariable(
    modelPricesSchema,
    '{"model": {"inputPerMillion": n, "outputPerMillion": n}}',
  ).default(JSON.stringify(DEFAULT_MODEL_PRICES)),
});
export type RequestPlannerConfig = z.infer<typeof requestPlannerConfigSchema>;
export const loadRequestPlannerConfig = (env: NodeJS.ProcessEnv = process.env): RequestPlannerConfig =>
  loadConfig(requestPlannerConfigSchema, env);

/** The architect model, or none (each request is then one task). */
export function plannerModelFrom(c: RequestPlannerConfig, log: Logger): JsonModel | undefined {
  return c.OPENAI_BASE_URL
    ? createJsonModel({
        baseURL: c.OPENAI_BASE_URL,
        apiKey: c.OPENAI_API_KEY,
        model: c.FARM_PLANNER_MODEL,
        timeoutMs: c.FARM_PLANNER_TIMEOUT_S * 1000,
        maxRetries: c.FARM_PLANNER_MAX_RETRIES,
        maxOutputTokens: c.FARM_PLANNER_MAX_OUTPUT_TOKENS,
        structuredOutput: c.FARM_LLM_STRUCTURED_OUTPUT === 'true',
        log,
      })
    : undefined;
}

/** How the planner's calls are priced: by the configured model name. */
export function plannerPricingFrom(c: RequestPlannerConfig): PlannerPricing {
  return { model: c.FARM_PLANNER_MODEL, prices: c.FARM_MODEL_PRICES };
}
