import { ConfigError } from '@farm/runtime';
import { agentDepsFromConfig } from './agent-deps';
import { loadAgentConfig } from './config';
import { DEFAULT_MODEL_PRICES } from '@farm/llm';
import { silentLogger } from '@farm/runtime';

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
