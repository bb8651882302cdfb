import { farm } from '@farm/proto';
import type { ToolModel } from '@farm/llm';
import { silentLogger } from '@farm/runtime';
import type { AgentDeps, StrategySetting } from '../agent-deps';
import { chooseStrategy } from './strategy';

const Strategy = farm.v1.AgentStrategy;
const toolModel = {} as ToolModel;
const deps = (strategy: StrategySetting, withTools: boolean): AgentDeps => ({
  services: {
    model: { proposePatch: async () => Promise.reject(new Error('unused')) },
    log: silentLogger,
    ...(withTools ? { toolModel } : {}),
  },
  settings: {
    workRoot: '/tmp',
    maxRetries: 0,
    checkTimeoutMs: 1,
    contextBudgetTokens: 1,
    author: { name: 'a', email: 'a@a' },
    strategy,
  },
});

describe('choosing a strategy', () => {
  test.each([
    // task's choice, operator's setting, tool model configured → strategy
    [Strategy.DIFF, 'tools', true, 'diff'],
    [Strategy.TOOLS, 'diff', true, 'tools'],
    [Strategy.TOOLS, 'auto', false, 'diff'],
    [undefined, 'diff', true, 'diff'],
    [undefined, 'auto', true, 'tools'],
    [undefined, 'tools', false, 'diff'],
  ] as const)('task %s, operator %s, tool model %s: %s', (taskStrategy, setting, withTools, expected) => {
    expect(chooseStrategy({ strategy: taskStrategy }, deps(setting, withTools)).name).toBe(expected);
  });
});
