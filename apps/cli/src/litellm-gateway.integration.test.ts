// The farm's model clients behind a real gateway nobody here wrote: LiteLLM's proxy (PyPI, litellm-proxy.ts) in
// front of the scripted model. What the gateway answers is read as it means it: its JSON and tool-call answers
// (its own response ids, the route's name), a context overflow it wraps in its ContextWindowExceededError (with the
// upstream's sizes), an answer cut at the output limit, and an upstream's 429 as LiteLLM passes it on (retryable).
// `farm doctor`'s probe through it says the same, and that a gateway does not tell its upstream's context.
import {
  ContextOverflow,
  createJsonModel,
  createToolModel,
  ModelAnswerCut,
  ModelUnavailable,
  probeEndpoint,
  type ToolSpec,
} from '@farm/llm';
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import { doctorFindings } from './doctor';
import { startLiteLlmProxy, type LiteLlmProxy } from '../../../scripts/local-services/litellm-proxy';

const TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

let upstream: ScriptedModelServer;
let gateway: LiteLlmProxy;
beforeAll(async () => {
  upstream = await startScriptedModelServer({
    script: {
      contextTokens: 4096,
      chat: [
        { match: 'PLAN', content: JSON.stringify({ items: ['a', 'b'] }), repeat: true },
        { match: 'READ', toolCalls: [{ name: 'read_file', arguments: { path: 'calc.py' } }], repeat: true },
        { match: 'LONG ANSWER', content: '{"items": ["a", "b", "c', finishReason: 'length', repeat: true },
        { match: 'BUSY', fault: { status: 429 }, repeat: true },
        // farm doctor's probes, answered as a model that can do what it asks
        {
          match: 'record_colour tool',
          toolCalls: [{ name: 'record_colour', arguments: { colour: 'blue' } }],
          repeat: true,
        },
        { match: '{"colour": "blue"}', content: '{"colour": "blue"}', repeat: true },
        { match: 'Count from one', content: 'one two three', finishReason: 'length', repeat: true },
        { content: 'ok', repeat: true },
      ],
    },
  });
  gateway = await startLiteLlmProxy({
    upstreamBaseURL: upstream.baseURL,
    routes: [{ name: 'farm-coder', upstreamModel: 'scripted-upstream' }],
  });
}, 15 * 60_000); // cold: the install (~750 MB from PyPI) runs first unless test.sh's is done
afterAll(async () => {
  await gateway?.stop();
  await upstream?.close();
});

const cfg = () => ({ baseURL: gateway.baseURL, apiKey: gateway.apiKey, model: 'farm-coder', maxRetries: 0 });

test('a JSON answer and a tool call through the gateway are read, named by the configured route', async () => {
  const json = await createJsonModel(cfg()).completeJson([{ role: 'user', content: 'PLAN the change' }]);
  expect(json.value).toEqual({ items: ['a', 'b'] });
  expect(json.model).toBe('farm-coder');
  expect(json.usage.totalTokens).toBeGreaterThan(0);
  const turn = await createToolModel(cfg()).nextTurn([{ role: 'user', content: 'READ calc.py' }], TOOLS);
  expect(turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['read_file', { path: 'calc.py' }]]);
  expect(turn.model).toBe('farm-coder');
  // The upstream saw the gateway's call, with the output limit the farm sent.
  expect(upstream.requests.at(-1)).toMatchObject({ model: 'scripted-upstream', tools: ['read_file'] });
  expect(upstream.requests.at(-1)?.maxTokens).toBeGreaterThan(0);
}, 120_000);

test('an overflow wrapped in LiteLLM’s ContextWindowExceededError is a context overflow with the sizes', async () => {
  const err = await createToolModel(cfg())
    .nextTurn([{ role: 'user', content: 'Explain. '.repeat(3000) }], TOOLS)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ContextOverflow);
  const overflow = err as ContextOverflow;
  expect(overflow.message).toMatch(/ContextWindowExceededError/);
  expect(overflow.contextTokens).toBe(4096);
  expect(overflow.promptTokens).toBeGreaterThan(4096);
}, 120_000);

test('an answer cut at the output limit is never taken as whole through the gateway', async () => {
  const err = await createJsonModel(cfg())
    .completeJson([{ role: 'user', content: 'LONG ANSWER please' }])
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ModelAnswerCut);
}, 120_000);

test('an upstream 429 as LiteLLM passes it on is a retryable rate limit, with its words', async () => {
  const err = await createJsonModel(cfg())
    .completeJson([{ role: 'user', content: 'BUSY now' }])
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ModelUnavailable);
  expect(err).not.toBeInstanceOf(ContextOverflow);
  expect((err as ModelUnavailable).status).toBe(429);
  expect((err as ModelUnavailable).retryable).toBe(true);
  expect((err as ModelUnavailable).message).toMatch(/RateLimitError|rate limit|429/i);
}, 120_000);

test('farm doctor through the gateway: it answers, calls tools, parses JSON, tells a cut; no failure', async () => {
  const facts = await probeEndpoint({ ...cfg(), timeoutMs: 60_000 }, { overflowUpTo: 40_000 });
  const findings = doctorFindings(facts, {
    roles: ['agent'],
    contextWindowTokens: 3_000,
    contextBudgetTokens: 1_000,
    maxOutputTokens: 512,
    timeoutS: 60,
    strategy: 'auto',
    priced: true,
  });
  expect(facts.models).toContain('farm-coder');
  expect(findings.filter((f) => f.level === 'fail')).toEqual([]);
  const said = findings.map((f) => f.what).join('\n');
  expect(said).toMatch(/tool calls work/);
  expect(said).toMatch(/an answer cut at the output limit says so/);
  // A gateway does not tell its upstream's context: the farm says what it does instead of guessing.
  expect(said).toMatch(/the server does not say its context: the farm keeps to FARM_CONTEXT_WINDOW_TOKENS/);
}, 300_000);
