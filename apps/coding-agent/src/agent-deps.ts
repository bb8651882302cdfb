import {
  createJsonModel,
  createPatchModel,
  createToolModel,
  type JsonModel,
  type ModelClientConfig,
  type PatchModel,
  type ToolModel,
} from '@farm/llm';
import { HttpSymbolLeases, type SymbolLeases, type TaskCommits } from '@farm/srm-client';
import { RagClient, type RagApi } from '@farm/rag';
import type { StepBus } from './live-steps';
import { credentialsFilesOf, secretsOfEnvironment, type Logger } from '@farm/runtime';
import { checkCeilingsFromConfig, type CheckCeilings } from '@farm/sandbox';
import type { AgentConfig } from './config';
import type { ModelPrices } from '@farm/llm';
import type { BudgetLimits } from './task-budget';
import type { ToolLimits } from './tools/agent-tools';
import type { UnverifiedPolicy } from './verify-change';

/** A way of turning the goal into a change: the tool loop, or one diff per attempt (strategies/). */
export type StrategyName = 'tools' | 'diff';

/** `auto`: the tool loop when a tool model is configured, falling back to `diff` when the endpoint refuses tools. */
export type StrategySetting = 'auto' | StrategyName;

/** What a task talks to: the models, the srm's leases, the rag-service and the log. */
export interface AgentServices {
  /** The diff strategy's model. */
  model: PatchModel;
  /** The tool strategy's model; without it every task runs the diff strategy. */
  toolModel?: ToolModel;
  /** The reviewer of final diffs (tool strategy); without it nothing is reviewed. */
  reviewModel?: JsonModel;
  /** The rag-service; without it the agent indexes its checkout into an embedded index. */
  rag?: RagApi;
  /** The srm, to claim the task's reserved leases before the push (and release them on a HARD_FAIL). */
  leases?: Pick<SymbolLeases, 'claim' | 'release'>;
  /**
   * The srm's record of the farm's commits: each commit is recorded before its push, and a commit found on the
   * task's branch is adopted only when recorded. Without it no commit found there is adopted.
   */
  commits?: TaskCommits;
  /** Where the task's trajectory lines are published as they happen (LiveSteps); without it, only in the result. */
  steps?: StepBus;
  log: Logger;
}

/** The operator's choices: where tasks work, what they may spend, how they check and which strategy they use. */
export interface AgentSettings {
  /** Where task checkouts are made; each task gets its own temporary directory. */
  workRoot: string;
  /** Where the task's checkout directory is made (default workRoot): nothing else of the agent's goes there. */
  checkoutRoot?: string;
  /** Attempts after the first (default 2). */
  maxRetries: number;
  checkTimeoutMs: number;
  /** The operator's other limits on checks and run_command (default: DEFAULT_CHECK_CEILINGS, no host network). */
  checkCeilings?: Partial<Omit<CheckCeilings, 'timeoutSeconds'>>;
  /** Extra environment for the repo's checks (e.g. npm_config_cache); secrets are still dropped. */
  checkEnv?: Record<string, string>;
  /** Directories besides the checkout that checks and run_command may write (a shared package cache). */
  checkWritableDirs?: string[];
  /** Tokens of retrieved context in a prompt, unless the task sets its own budget. */
  contextBudgetTokens: number;
  /** Directory for one JSONL trajectory file per task; none written when unset. */
  trajectoryDir?: string;
  author: { name: string; email: string };
  /** Default strategy for tasks that do not name one (default 'auto'). */
  strategy?: StrategySetting;
  /** Review rounds before an unapproved change ends the task as SOFT_FAIL (default 2; 0 turns review off). */
  reviewRounds?: number;
  /** A reviewer's approval below this confidence (0..1) goes back to the agent (default 0.5). */
  reviewMinConfidence?: number;
  /** What a FEATURE/FIX change no test shows to work may do (default 'review': pass only when the reviewer accepts). */
  unverifiedChanges?: UnverifiedPolicy;
  /** Steps, tokens and cost a task may use (defaults in DEFAULT_BUDGET). */
  budget?: Partial<BudgetLimits>;
  /** US dollars per million tokens by model (default DEFAULT_MODEL_PRICES). */
  prices?: ModelPrices;
  /** Tokens the tool loop's conversation is kept within (default 100000). */
  contextWindowTokens?: number;
  /** Tokens the reviewer's prompt may take (its context less its answer's room); a longer diff is cut to fit. */
  reviewPromptTokens?: number;
  toolLimits?: Partial<ToolLimits>;
  /** Use the task's lessons in the prompt and report a lesson on SUCCESS (default true). */
  lessons?: boolean;
  /** Values that must never reach the model, a log or the trajectory (the model key, git tokens). */
  secrets?: string[];
  /**
   * Git credentials files whose tokens are redacted too, read again for each task: the intake adds the
   * credentials of each new `--repo` URL while a pool worker runs.
   */
  credentialsFiles?: string[];
}

/** Everything a task runs with: services (ports, replaced by real or embedded ones in tests) apart from settings. */
export interface AgentDeps {
  services: AgentServices;
  settings: AgentSettings;
}

/**
 * `secrets`: further values to keep out of prompts, tool results and logs (git tokens); `env`, the process's
 * environment, whose every secret (secret-redaction.ts in @farm/runtime) and credentials files are kept out too.
 */
export function agentDepsFromConfig(
  config: AgentConfig,
  log: Logger,
  secrets: (string | undefined)[] = [],
  env: NodeJS.ProcessEnv = process.env,
): AgentDeps {
  const client: ModelClientConfig = {
    baseURL: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.FARM_MODEL,
    timeoutMs: config.FARM_LLM_TIMEOUT_S * 1000,
    maxRetries: config.FARM_LLM_MAX_RETRIES,
    maxOutputTokens: config.FARM_LLM_MAX_OUTPUT_TOKENS,
    structuredOutput: config.FARM_LLM_STRUCTURED_OUTPUT === 'true',
    log,
  };
  const srm = config.FARM_SRM_URL
    ? new HttpSymbolLeases(config.FARM_SRM_URL, { componentToken: config.FARM_COMPONENT_TOKEN })
    : undefined;
  return {
    services: {
      model: createPatchModel(client),
      toolModel: config.FARM_AGENT_STRATEGY === 'diff' ? undefined : createToolModel(client),
      reviewModel:
        config.FARM_REVIEW_ROUNDS > 0
          ? createJsonModel({
              ...client,
              model: config.FARM_REVIEW_MODEL ?? config.FARM_MODEL,
              timeoutMs: (config.FARM_REVIEW_TIMEOUT_S ?? config.FARM_LLM_TIMEOUT_S) * 1000,
              maxRetries: config.FARM_REVIEW_MAX_RETRIES ?? config.FARM_LLM_MAX_RETRIES,
              maxOutputTokens: reviewOutputTokens(config),
            })
          : undefined,
      rag: config.FARM_RAG_URL
        ? new RagClient({ baseUrl: config.FARM_RAG_URL, componentToken: config.FARM_COMPONENT_TOKEN })
        : undefined,
      leases: srm,
      commits: srm,
      log,
    },
    settings: {
      strategy: config.FARM_AGENT_STRATEGY,
      reviewRounds: config.FARM_REVIEW_ROUNDS,
      reviewMinConfidence: config.FARM_REVIEW_MIN_CONFIDENCE,
      unverifiedChanges: config.FARM_UNVERIFIED_CHANGES,
      budget: {
        maxSteps: config.FARM_AGENT_MAX_STEPS,
        maxTokens: config.FARM_AGENT_MAX_TOKENS,
        maxCostUsd: config.FARM_AGENT_MAX_COST_USD,
      },
      prices: config.FARM_MODEL_PRICES,
      contextWindowTokens: config.FARM_CONTEXT_WINDOW_TOKENS,
      reviewPromptTokens: reviewPromptTokens(config),
      toolLimits: {
        maxOutputChars: config.FARM_TOOL_OUTPUT_CHARS,
        commandTimeoutSeconds: config.FARM_TOOL_COMMAND_TIMEOUT_S,
      },
      lessons: config.FARM_LESSONS === 'on',
      // Never in a prompt, a tool result, a log line or the trajectory, even when a repository contains them.
      secrets: [config.OPENAI_API_KEY, ...secrets, ...secretsOfEnvironment(env)].filter((s): s is string => !!s),
      credentialsFiles: credentialsFilesOf(env),
      workRoot: config.FARM_WORK_DIR,
      checkoutRoot: config.FARM_CHECKOUT_DIR,
      trajectoryDir: config.FARM_TRAJECTORY_DIR,
      maxRetries: config.FARM_MAX_RETRIES,
      checkTimeoutMs: config.FARM_CHECK_TIMEOUT_S * 1000,
      checkCeilings: checkCeilingsFromConfig(config),
      checkWritableDirs: config.FARM_CHECK_WRITABLE_DIRS,
      contextBudgetTokens: config.FARM_CONTEXT_BUDGET_TOKENS,
      author: { name: config.FARM_GIT_AUTHOR_NAME, email: config.FARM_GIT_AUTHOR_EMAIL },
    },
  };
}

const reviewOutputTokens = (c: AgentConfig) => c.FARM_REVIEW_MAX_OUTPUT_TOKENS ?? c.FARM_LLM_MAX_OUTPUT_TOKENS;

/** What of the reviewer's context its prompt may take: the rest is its answer's. */
export function reviewPromptTokens(c: AgentConfig): number {
  const window = c.FARM_REVIEW_CONTEXT_WINDOW_TOKENS ?? c.FARM_CONTEXT_WINDOW_TOKENS;
  return Math.max(500, window - Math.min(reviewOutputTokens(c), Math.floor(window / 2)));
}
