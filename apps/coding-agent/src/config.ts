import os from 'node:os';
import path from 'node:path';
import { loadConfig, z } from '@farm/runtime';

/** The coding agent's settings: a Job or child process per task, or a worker-pool replica. */
export const agentConfigSchema = z.object({
  OPENAI_BASE_URL: z
    .string({ required_error: 'required: the URL of an OpenAI-compatible API (e.g. https://api.openai.com/v1)' })
    .url({ message: 'OPENAI_BASE_URL must be the URL of an OpenAI-compatible API (e.g. https://api.openai.com/v1)' }),
  OPENAI_API_KEY: z.string().min(1).default('not-needed'),
  FARM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  FARM_LLM_TIMEOUT_S: z.coerce.number().positive().default(120),
  FARM_LLM_MAX_RETRIES: z.coerce.number().int().min(0).default(3),
  /** `true` asks for a JSON-schema constrained answer (structured outputs) where the endpoint supports it. */
  FARM_LLM_STRUCTURED_OUTPUT: z.enum(['true', 'false']).default('false'),
  FARM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  FARM_CHECK_TIMEOUT_S: z.coerce.number().positive().default(600),
  FARM_CONTEXT_BUDGET_TOKENS: z.coerce.number().int().positive().default(8_000),
  /** The rag-service; without it the agent indexes its own checkout. */
  FARM_RAG_URL: z.string().url().optional(),
  /** One JSONL trajectory per task (prompts, answers, applied diffs, checks) goes here when set. */
  FARM_TRAJECTORY_DIR: z.string().optional(),
  FARM_WORK_DIR: z.string().default(path.join(os.tmpdir(), 'farm-agent')),
  FARM_GIT_AUTHOR_NAME: z.string().default('agent-farm'),
  FARM_GIT_AUTHOR_EMAIL: z.string().default('agent@agent-farm.local'),
  /** The srm service, for claiming the task's leases; without it leases are not claimed. */
  FARM_SRM_URL: z.string().url().optional(),
  /** Set by the one-machine launcher: the agent's results go to files there, which the farm publishes. */
  FARM_AGENT_SPOOL_DIR: z.string().optional(),
  /** Comma-separated brokers; needed when the agent is not a child of a one-machine farm. */
  KAFKA_BROKERS: z.string().optional(),
});

export type AgentConfig = z.infer<typeof agentConfigSchema>;
export const loadAgentConfig = (env: NodeJS.ProcessEnv = process.env): AgentConfig =>
  loadConfig(agentConfigSchema, env);

/** A worker-pool replica's own settings, on top of the agent's. */
export const agentWorkerConfigSchema = z.object({
  FARM_AGENT_GROUP: z.string().default('coding-agent'),
  FARM_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
});
