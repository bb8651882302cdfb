import { ConfigError } from '@farm/runtime';
import { agentDepsFromConfig } from './agent-deps';
import { loadAgentConfig } from './config';
import { DEFAULT_MODEL_PRICES } from '@farm/llm';
import { silentLogger } from '@farm/runtime';
import { startScriptedModelServer } from '@farm/scripted-llm';

const base = { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_API_KEY: 'sk-config-test-key-123' };

describe('the coding agent’s configuration', () => {
  test('defaults: the tool loop with a reviewer, budgets, the built-in price table, lessons on', () => {
    const config = loadAgentConfig(base);
    expect(config).toMatchObject({
      FARM_AGENT_STRATEGY: 'auto',
      FARM_AGENT_MAX_STEPS: 40,
      FARM_AGENT_MAX_TOKENS: 400_000,
      FARM_AGENT_MAX_COST_USD: 2,
      FARM_MODEL_PRICES: DEFAULT_MODEL_PRICES,
      FARM_REVIEW_ROUNDS: 2,
      FARM_LESSONS: 'on',
    });
    const { services, settings } = agentDepsFromConfig(config, silentLogger, ['git-token-value-42']);
    expect([!!services.toolModel, !!services.reviewModel, settings.strategy]).toEqual([true, true, 'auto']);
    expect(settings.secrets).toEqual(['sk-config-test-key-123', 'git-token-value-42']);
  });

  test('a price table from the environment replaces the built-in one; diff strategy and no review leave those models out', () => {
    const config = loadAgentConfig({
      ...base,
      FARM_MODEL_PRICES: '{"my-model": {"inputPerMillion": 1, "outputPerMillion": 2}}',
      FARM_AGENT_STRATEGY: 'diff',
      FARM_REVIEW_ROUNDS: '0',
    });
    expect(config.FARM_MODEL_PRICES).toEqual({ 'my-model': { inputPerMillion: 1, outputPerMillion: 2 } });
    const { services } = agentDepsFromConfig(config, silentLogger);
    expect([services.toolModel, services.reviewModel]).toEqual([undefined, undefined]);
  });

  test("the reviewer's own timeout, retries, output limit and context, each the agent's when not set", async () => {
    const agentOnly = agentDepsFromConfig(
      loadAgentConfig({ ...base, FARM_CONTEXT_WINDOW_TOKENS: '8000' }),
      silentLogger,
    );
    expect(agentOnly.settings.reviewPromptTokens).toBe(8000 - 4000); // half the window for a default 8,192 answer
    const server = await startScriptedModelServer({
      script: { chat: [{ content: JSON.stringify({ approved: true, objections: [], confidence: 1 }) }] },
    });
    try {
      const config = loadAgentConfig({
        ...base,
        OPENAI_BASE_URL: server.baseURL,
        FARM_REVIEW_MODEL: 'small-reviewer',
        FARM_REVIEW_MAX_OUTPUT_TOKENS: '512',
        FARM_REVIEW_CONTEXT_WINDOW_TOKENS: '4096',
        FARM_REVIEW_TIMEOUT_S: '30',
      });
      const { services, settings } = agentDepsFromConfig(config, silentLogger);
      expect(settings.reviewPromptTokens).toBe(4096 - 512);
      await services.reviewModel!.completeJson([{ role: 'user', content: 'review' }]);
      expect(server.requests[0]).toMatchObject({ model: 'small-reviewer', maxTokens: 512 });
    } finally {
      await server.close();
    }
  });

  test('a malformed price table stops start-up naming the variable and the shape it expects', () => {
    expect(() => loadAgentConfig({ ...base, FARM_MODEL_PRICES: '{gpt: 1}' })).toThrow(ConfigError);
    expect(() => loadAgentConfig({ ...base, FARM_MODEL_PRICES: '{gpt: 1}' })).toThrow(
      /FARM_MODEL_PRICES.*must be JSON: \{"model": \{"inputPerMillion": n, "outputPerMillion": n\}\}/s,
    );
    expect(() => loadAgentConfig({ ...base, FARM_MODEL_PRICES: '{"gpt": {"inputPerMillion": -1}}' })).toThrow(
      /FARM_MODEL_PRICES/,
    );
  });

  test('the review gate’s confidence bar: 0.5 by default, set by FARM_REVIEW_MIN_CONFIDENCE within 0..1', () => {
    expect(agentDepsFromConfig(loadAgentConfig(base), silentLogger).settings.reviewMinConfidence).toBe(0.5);
    const config = loadAgentConfig({ ...base, FARM_REVIEW_MIN_CONFIDENCE: '0.8' });
    expect(agentDepsFromConfig(config, silentLogger).settings.reviewMinConfidence).toBe(0.8);
    expect(() => loadAgentConfig({ ...base, FARM_REVIEW_MIN_CONFIDENCE: '1.5' })).toThrow(/FARM_REVIEW_MIN_CONFIDENCE/);
  });
});
