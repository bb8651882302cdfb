import { Registry } from 'prom-client';
import { farm } from '@farm/proto';
// The agent's metric objects themselves, as a task of an agent process records them.
import { agentMetricSamples, agentMetrics } from '@farm/coding-agent';
import { FleetAgentMetrics } from './fleet-agent-metrics';

/** What a result carries once it went over the bus (protobuf), as the orchestrator reads it. */
async function overTheBus(): Promise<farm.v1.IMetricSample[]> {
  const result = farm.v1.CommitResult.fromObject({ taskId: 't', agentMetrics: await agentMetricSamples() });
  return farm.v1.CommitResult.decode(farm.v1.CommitResult.encode(result).finish()).agentMetrics;
}

test("two agents' results are served as one sum: counters by label, histograms bucket by bucket", async () => {
  await agentMetricSamples(); // what earlier tests of this process recorded is not this test's
  const registry = new Registry();
  const fleet = new FleetAgentMetrics(registry);

  // The first agent: a task with 1,200 prompt tokens, one tool call, 2 attempts, a 3 s check.
  agentMetrics.tokens.inc({ kind: 'prompt', model: 'm' }, 1200);
  agentMetrics.toolCalls.inc({ tool: 'read_file', outcome: 'ok' });
  agentMetrics.attempts.observe(2);
  agentMetrics.stepSeconds.observe({ step: 'check' }, 3);
  agentMetrics.inFlight.set(1); // a gauge: what one process does now, not summed
  fleet.add(await overTheBus());
  // The second: 800 more prompt tokens, 1 attempt; nothing else.
  agentMetrics.tokens.inc({ kind: 'prompt', model: 'm' }, 800);
  agentMetrics.attempts.observe(1);
  const second = await overTheBus();
  expect(second.some((s) => s.name?.startsWith('farm_agent_step_duration_seconds'))).toBe(false);
  expect(second.some((s) => s.name === 'farm_agent_tool_calls_total')).toBe(false);
  fleet.add(second);
  fleet.add([
    { name: 'not_an_agent_metric', value: 5 },
    { name: 'farm_agent_tasks_total', value: NaN },
  ]);

  const text = await registry.metrics();
  expect(text).toContain('farm_agent_llm_tokens_total{kind="prompt",model="m"} 2000');
  expect(text).toContain('farm_agent_tool_calls_total{tool="read_file",outcome="ok"} 1');
  expect(text).toContain('farm_agent_attempts_bucket{le="1"} 1');
  expect(text).toContain('farm_agent_attempts_bucket{le="2"} 2');
  expect(text).toContain('farm_agent_attempts_bucket{le="+Inf"} 2');
  expect(text).toContain('farm_agent_attempts_sum 3');
  expect(text).toContain('farm_agent_attempts_count 2');
  expect(text).toContain('farm_agent_step_duration_seconds_bucket{le="2.5",step="check"} 0');
  expect(text).toContain('farm_agent_step_duration_seconds_bucket{le="5",step="check"} 1');
  expect(text).toContain('# TYPE farm_agent_attempts histogram');
  expect(text).not.toContain('farm_agent_tasks_in_flight');
  expect(text).not.toContain('not_an_agent_metric');
  expect(text).not.toMatch(/^farm_agent_tasks_total[ {]/m); // the NaN was left out
  // A histogram's series come in Prometheus' order: every bucket by le, then the sum and the count.
  const attempts = text.split('\n').filter((l) => l.startsWith('farm_agent_attempts'));
  expect(attempts.map((l) => l.replace(/ [\d.]+$/, ''))).toEqual([
    ...['1', '2', '3', '4', '5', '+Inf'].map((le) => `farm_agent_attempts_bucket{le="${le}"}`),
    'farm_agent_attempts_sum',
    'farm_agent_attempts_count',
  ]);
});

test('a process that serves the agent metrics itself keeps its own under the same names', () => {
  const registry = new Registry();
  const own = { name: 'farm_agent_tasks_total', get: async () => ({}) };
  registry.registerMetric(own as never);
  new FleetAgentMetrics(registry);
  expect(registry.getSingleMetric('farm_agent_tasks_total')).toBe(own);
  expect(registry.getSingleMetric('farm_agent_llm_tokens_total')).toBeDefined();
});
