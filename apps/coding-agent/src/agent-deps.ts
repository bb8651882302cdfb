import { createJsonModel, createPatchModel, createToolModel, type ModelClientConfig } from '@farm/llm';
import { HttpSymbolLeases } from '@farm/srm-client';
import { RagClient } from '@farm/rag';
import type { Logger } from '@farm/runtime';
import { checkCeilingsFromConfig } from '@farm/sandbox';
import type { AgentConfig } from './config';
import type { AgentDeps } from './run-task';

/** `secrets`: further values to keep out of prompts, tool results and logs (git tokens). */
export function agentDepsFromConfig(config: AgentConfig, log: Logger, secrets: (string | undefined)[] = []): AgentDeps {
  const client: ModelClientConfig = {
    baseURL: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.FARM_MODEL,
    timeoutMs: config.FARM_LLM_TIMEOUT_S * 1000,
    maxRetries: config.FARM_LLM_MAX_RETRIES,
    structuredOutput: config.FARM_LLM_STRUCTURED_OUTPUT === 'true',
    log,
  };
  return {
    model: createPatchModel(client),
    toolModel: config.FARM_AGENT_STRATEGY === 'diff' ? undefined : createToolModel(client),
    reviewModel:
      config.FARM_REVIEW_ROUNDS > 0
        ? createJsonModel({ ...client, model: config.FARM_REVIEW_MODEL ?? config.FARM_MODEL })
        : undefined,
    strategy: config.FARM_AGENT_STRATEGY,
    reviewRounds: config.FARM_REVIEW_ROUNDS,
    budget: {
      maxSteps: config.FARM_AGENT_MAX_STEPS,
      maxTokens: config.FARM_AGENT_MAX_TOKENS,
      maxCostUsd: config.FARM_AGENT_MAX_COST_USD,
    },
    prices: config.FARM_MODEL_PRICES,
    contextWindowTokens: config.FARM_CONTEXT_WINDOW_TOKENS,
    toolLimits: {
      maxOutputChars: config.FARM_TOOL_OUTPUT_CHARS,
      commandTimeoutSeconds: config.FARM_TOOL_COMMAND_TIMEOUT_S,
    },
    lessons: config.FARM_LESSONS === 'on',
    // Never in a prompt, a tool result, a log line or the trajectory, even when a repository contains them.
    secrets: [config.OPENAI_API_KEY, ...secrets].filter((s): s is string => !!s),
    log,
    workRoot: config.FARM_WORK_DIR,
    trajectoryDir: config.FARM_TRAJECTORY_DIR,
    maxRetries: config.FARM_MAX_RETRIES,
    checkTimeoutMs: config.FARM_CHECK_TIMEOUT_S * 1000,
    checkCeilings: checkCeilingsFromConfig(config),
    checkWritableDirs: config.FARM_CHECK_WRITABLE_DIRS,
    contextBudgetTokens: config.FARM_CONTEXT_BUDGET_TOKENS,
    rag: config.FARM_RAG_URL ? new RagClient({ baseUrl: config.FARM_RAG_URL }) : undefined,
    author: { name: config.FARM_GIT_AUTHOR_NAME, email: config.FARM_GIT_AUTHOR_EMAIL },
    leases: config.FARM_SRM_URL ? new HttpSymbolLeases(config.FARM_SRM_URL) : undefined,
  };
}
