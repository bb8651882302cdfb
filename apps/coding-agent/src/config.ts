import os from 'node:os';
import path from 'node:path';
import { componentTokenConfigSchema } from '@farm/access';
import { jsonVariable, loadConfig, z } from '@farm/runtime';
import { checkSandboxConfigSchema } from '@farm/sandbox';
import { DEFAULT_MODEL_PRICES, modelPricesSchema } from '@farm/llm';

const onOff = z.enum(['on', 'off']);

/** A JSON price table in an environment variable, checked like every other setting. */
const pricesVariable = jsonVariable(modelPricesSchema, '{"model": {"inputPerMillion": n, "outputPerMillion": n}}');

/** The coding agent's settings: a Job or child process per task, or a worker-pool replica. */
export const agentConfigSchema = componentTokenConfigSchema.extend({
  OPENAI_BASE_URL: z
    .string({ required_error: 'required: the URL of an OpenAI-compatible API (e.g. https://api.openai.com/v1)' })
    .url({ message: 'OPENAI_BASE_URL must be the URL of an OpenAI-compatible API (e.g. https://api.openai.com/v1)' }),
  OPENAI_API_KEY: z.string().min(1).default('not-needed'),
  FARM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  FARM_LLM_TIMEOUT_S: z.coerce.number().positive().default(120),
  FARM_LLM_MAX_RETRIES: z.coerce.number().int().min(0).default(3),
  /**
   * The most tokens one answer of the model may have (sent as max_tokens with every call): without one, a local
   * server's model that does not stop runs until its context is full. An answer cut at it is never taken as whole.
   */
  FARM_LLM_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).default(8192),
  /** `true` asks for a JSON-schema constrained answer (structured outputs) where the endpoint supports it. */
  FARM_LLM_STRUCTURED_OUTPUT: z.enum(['true', 'false']).default('false'),
  FARM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Timeout of a check step: the default and the most `.farm/checks.json` may ask for. */
  FARM_CHECK_TIMEOUT_S: z.coerce.number().positive().default(600),
  /** FARM_CHECK_HOST_NETWORK, _MEMORY_MB, _MAX_PROCESSES (the checks' other ceilings) and _WRITABLE_DIRS. */
  ...checkSandboxConfigSchema.shape,
  FARM_CONTEXT_BUDGET_TOKENS: z.coerce.number().int().positive().default(8_000),
  /** The rag-service; without it the agent indexes its own checkout. */
  FARM_RAG_URL: z.string().url().optional(),
  /** One JSONL trajectory per task (prompts, answers, applied diffs, checks) goes here when set. */
  FARM_TRAJECTORY_DIR: z.string().optional(),
  FARM_WORK_DIR: z.string().default(path.join(os.tmpdir(), 'farm-agent')),
  /**
   * Where the task's checkout goes instead (a Job pod: the directory shared with its sandbox runner, which must
   * hold nothing else of the agent's); default FARM_WORK_DIR.
   */
  FARM_CHECKOUT_DIR: z.string().optional(),
  FARM_GIT_AUTHOR_NAME: z.string().default('agent-farm'),
  FARM_GIT_AUTHOR_EMAIL: z.string().default('agent@agent-farm.local'),
  /** The srm service, for claiming the task's leases; without it leases are not claimed. */
  FARM_SRM_URL: z.string().url().optional(),
  /** Set by the one-machine launcher: the agent's results go to files there, which the farm publishes. */
  FARM_AGENT_SPOOL_DIR: z.string().optional(),
  /** Comma-separated brokers; needed when the agent is not a child of a one-machine farm. */
  KAFKA_BROKERS: z.string().optional(),
  /** `auto`: the tool loop, or the diff strategy when the endpoint refuses tool calls; a task may name its own. */
  FARM_AGENT_STRATEGY: z.enum(['auto', 'tools', 'diff']).default('auto'),
  /** Model calls, tokens and US dollars one task may use; reaching one ends it as SOFT_FAIL. */
  FARM_AGENT_MAX_STEPS: z.coerce.number().int().positive().default(40),
  FARM_AGENT_MAX_TOKENS: z.coerce.number().int().positive().default(400_000),
  FARM_AGENT_MAX_COST_USD: z.coerce.number().positive().default(2),
  /** US dollars per million tokens by model name; replaces the built-in table. */
  FARM_MODEL_PRICES: pricesVariable.default(JSON.stringify(DEFAULT_MODEL_PRICES)),
  /**
   * The tool loop's conversation is kept within this many tokens (older tool outputs are shortened first); set
   * it below the model server's context (a small local model's 4,096 tokens too). A server that refuses the
   * conversation as too long lowers it for the task by itself.
   */
  FARM_CONTEXT_WINDOW_TOKENS: z.coerce.number().int().min(1_000).default(100_000),
  /** Characters of one tool result the model sees. */
  FARM_TOOL_OUTPUT_CHARS: z.coerce.number().int().min(500).default(8_000),
  /** Timeout (default and maximum) of the run_command tool. */
  FARM_TOOL_COMMAND_TIMEOUT_S: z.coerce.number().int().positive().default(120),
  /** The reviewer of final diffs: its model (default FARM_MODEL) and rounds (0: no review). */
  FARM_REVIEW_MODEL: z.string().min(1).optional(),
  FARM_REVIEW_ROUNDS: z.coerce.number().int().min(0).max(10).default(2),
  /** A reviewer's approval below this confidence (0..1) goes back to the agent with its objections. */
  FARM_REVIEW_MIN_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.5),
  /**
   * The reviewer's own calls, where it is another model or server than the agent's (each defaults to the
   * agent's setting): timeout, retries, output limit, and the context its prompt (the goal, the checks, the final
   * diff) must fit in; a diff too long for it is cut saying so.
   */
  FARM_REVIEW_TIMEOUT_S: z.coerce.number().positive().optional(),
  FARM_REVIEW_MAX_RETRIES: z.coerce.number().int().min(0).optional(),
  FARM_REVIEW_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).optional(),
  FARM_REVIEW_CONTEXT_WINDOW_TOKENS: z.coerce.number().int().min(1_000).optional(),
  /**
   * A FEATURE/FIX change no test shows to work: `review` passes it only when the reviewer accepts it explicitly,
   * `deliver` passes it marked unverified, `refuse` never.
   */
  FARM_UNVERIFIED_CHANGES: z.enum(['review', 'deliver', 'refuse']).default('review'),
  /** Lessons from earlier tasks in the first prompt, and a lesson reported on SUCCESS. */
  FARM_LESSONS: onOff.default('on'),
});

export type AgentConfig = z.infer<typeof agentConfigSchema>;
export const loadAgentConfig = (env: NodeJS.ProcessEnv = process.env): AgentConfig =>
  loadConfig(agentConfigSchema, env);

/** A worker-pool replica's own settings, on top of the agent's. */
export const agentWorkerConfigSchema = z.object({
  FARM_AGENT_GROUP: z.string().default('coding-agent'),
  FARM_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
});
