import { createPatchModel } from '@farm/llm';
import { HttpSymbolLeases } from '@farm/srm-client';
import { RagClient } from '@farm/rag';
import type { Logger } from '@farm/runtime';
import type { AgentConfig } from './config';
import type { AgentDeps } from './run-task';

export function agentDepsFromConfig(config: AgentConfig, log: Logger): AgentDeps {
  return {
    model: createPatchModel({
      baseURL: config.OPENAI_BASE_URL,
      apiKey: config.OPENAI_API_KEY,
      model: config.FARM_MODEL,
      timeoutMs: config.FARM_LLM_TIMEOUT_S * 1000,
      maxRetries: config.FARM_LLM_MAX_RETRIES,
      structuredOutput: config.FARM_LLM_STRUCTURED_OUTPUT === 'true',
      log,
    }),
    log,
    workRoot: config.FARM_WORK_DIR,
    trajectoryDir: config.FARM_TRAJECTORY_DIR,
    maxRetries: config.FARM_MAX_RETRIES,
    checkTimeoutMs: config.FARM_CHECK_TIMEOUT_S * 1000,
    contextBudgetTokens: config.FARM_CONTEXT_BUDGET_TOKENS,
    rag: config.FARM_RAG_URL ? new RagClient({ baseUrl: config.FARM_RAG_URL }) : undefined,
    author: { name: config.FARM_GIT_AUTHOR_NAME, email: config.FARM_GIT_AUTHOR_EMAIL },
    leases: config.FARM_SRM_URL ? new HttpSymbolLeases(config.FARM_SRM_URL) : undefined,
  };
}
