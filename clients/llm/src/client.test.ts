// The real openai client against the project's scripted server on loopback; imported by path because
// @farm/scripted-llm is a test-only helper, not a dependency of this package.
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import {
  createEmbedder,
  createPatchModel,
  ModelAnswerInvalid,
  ModelResponseMalformed,
  ModelUnavailable,
  PATCH_SCHEMA,
  type ChatMessage,
} from './index';

const DIFF = '--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n';
const prompt: ChatMessage[] = [
  { role: 'system', content: 'You write patches. Answer as JSON {diff, reasoning}.' },
  { role: 'user', content: 'Fix the bug in x.ts' },
];

describe('createPatchModel against the scripted server', () => {
  let server: ScriptedModelServer;
  const model = (over: { timeoutMs?: number; maxRetries?: number; structuredOutput?: boolean } = {}) =>
    createPatchModel({ baseURL: server.baseURL, apiKey: 'test', model: 'gpt-test', maxRetries: 0, ...over });

  beforeAll(async () => (server = await startScriptedModelServer({ script: { chat: [] } })));
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0)); // each test sets its own script and reads only its requests

  it('returns diff, reasoning, usage and model; the server saw the prompt in JSON mode', async () => {
    server.setScript({ chat: [{ answer: { diff: DIFF, reasoning: 'a becomes b' } }] });
    const out = await model().proposePatch(prompt);
    expect(out).toMatchObject({ diff: DIFF, reasoning: 'a becomes b', model: 'gpt-test' });
    expect(out.usage.promptTokens).toBeGreaterThan(0);
    expect(out.usage.totalTokens).toBe(out.usage.promptTokens + out.usage.completionTokens);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      model: 'gpt-test',
      messages: prompt,
      response_format: { type: 'json_object' },
    });
    expect(server.requests[0].temperature).toBeLessThanOrEqual(0.2);
  });

  it('retries through 429 and 500 with the client backoff, then succeeds', async () => {
    server.setScript({ chat: [{ fault: { status: 429 } }, { fault: { status: 500 } }, { answer: { diff: DIFF } }] });
    const out = await model({ maxRetries: 3 }).proposePatch(prompt);
    expect(out).toMatchObject({ diff: DIFF, reasoning: '' });
    expect(server.requests.map((r) => r.outcome)).toEqual(['fault', 'fault', 'answer']);
  });

  it('surfaces a status error as ModelUnavailable once retries run out, retryable by status', async () => {
    server.setScript({ chat: [{ fault: { status: 503 } }, { fault: { status: 401 } }] });
    const e503 = await model()
      .proposePatch(prompt)
      .catch((e) => e);
    expect(e503).toBeInstanceOf(ModelUnavailable);
    expect(e503).toMatchObject({ status: 503, retryable: true });
    const e401 = await model()
      .proposePatch(prompt)
      .catch((e) => e);
    expect(e401).toMatchObject({ status: 401, retryable: false });
  });

  it('a malformed response body is a retryable ModelUnavailable', async () => {
    server.setScript({ chat: [{ fault: { malformed: true } }] });
    const err = await model()
      .proposePatch(prompt)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelUnavailable);
    expect(err).toBeInstanceOf(ModelResponseMalformed);
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/malformed/);
  });

  it('asks again after a malformed body or a response without choices, like after a 429, and says so', async () => {
    server.setScript({
      chat: [{ fault: { malformed: true } }, { fault: { emptyChoices: true } }, { answer: { diff: DIFF } }],
    });
    const out = await model({ maxRetries: 2 }).proposePatch(prompt);
    expect(out).toMatchObject({ diff: DIFF, malformedRetries: 2 });
    expect(server.requests.map((r) => r.outcome)).toEqual(['malformed', 'malformed', 'answer']);
  });

  it('gives up after maxRetries malformed answers with a retryable error that counts them', async () => {
    server.setScript({ chat: [{ fault: { malformed: true }, repeat: true }] });
    const err = await model({ maxRetries: 1 })
      .proposePatch(prompt)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelResponseMalformed);
    expect(err).toMatchObject({ retryable: true, attempts: 2 });
    expect(err.message).toMatch(/malformed 2 time/);
    expect(server.requests).toHaveLength(2);
  });

  it('asks for the patch schema derived from the zod schema that checks the answer; reasoning may be left out', async () => {
    expect(PATCH_SCHEMA).toEqual({
      name: 'patch',
      schema: {
        type: 'object',
        properties: { diff: { type: 'string' }, reasoning: { type: 'string' } },
        required: ['diff', 'reasoning'],
        additionalProperties: false,
      },
    });
    server.setScript({ chat: [{ content: JSON.stringify({ diff: DIFF, reasoning: 7 }) }] });
    expect(await model({ structuredOutput: true }).proposePatch(prompt)).toMatchObject({ diff: DIFF, reasoning: '' });
    expect(server.requests[0].response_format).toEqual({
      type: 'json_schema',
      json_schema: { ...PATCH_SCHEMA, strict: true },
    });
  });

  it('content that is not {diff} JSON is ModelAnswerInvalid carrying the raw content', async () => {
    server.setScript({ chat: [{ content: '  Sure! Here is the patch.  ' }, { content: '{"patch": "x"}' }] });
    const notJson = await model()
      .proposePatch(prompt)
      .catch((e) => e);
    expect(notJson).toBeInstanceOf(ModelAnswerInvalid);
    expect(notJson).toMatchObject({ retryable: true, raw: 'Sure! Here is the patch.' });
    const noDiff = await model()
      .proposePatch(prompt)
      .catch((e) => e);
    expect(noDiff).toBeInstanceOf(ModelAnswerInvalid);
    expect(noDiff.message).toMatch(/diff/);
  });

  it('an answer slower than timeoutMs is a retryable ModelUnavailable', async () => {
    server.setScript({ chat: [{ content: '{"diff": ""}', fault: { delayMs: 2000 } }] });
    const started = Date.now();
    const err = await model({ timeoutMs: 200 })
      .proposePatch(prompt)
      .catch((e) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(err).toBeInstanceOf(ModelUnavailable);
    expect(err).toMatchObject({ retryable: true, status: undefined });
    expect(err.message).toMatch(/timed out/);
  });

  it('picks the step whose match occurs in the prompt, not the first one', async () => {
    server.setScript({
      chat: [
        { match: 'y.ts', answer: { diff: 'for y', reasoning: 'y' } },
        { match: 'x.ts', answer: { diff: 'for x', reasoning: 'x' } },
      ],
    });
    expect((await model().proposePatch(prompt)).diff).toBe('for x');
    expect(server.requests[0].step).toBe(1);
  });
});

describe('createEmbedder against the scripted server', () => {
  let server: ScriptedModelServer;
  beforeAll(async () => (server = await startScriptedModelServer({ script: { chat: [], embeddingDimensions: 32 } })));
  afterAll(() => server.close());
  const embedder = (dimensions?: number) =>
    createEmbedder({ baseURL: server.baseURL, apiKey: 'test', model: 'emb', dimensions });
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

  it('gives deterministic vectors of the configured dimension, similar for shared words', async () => {
    const texts = ['fix the parser bug', 'fix the parser bug', 'parser bug in lexer', 'unrelated gardening notes'];
    const [a, b, c, d] = await embedder().embed(texts);
    expect(a).toHaveLength(32);
    expect(a).toEqual(b);
    expect(await embedder().embed([texts[0]])).toEqual([a]);
    expect(cos(a, c)).toBeGreaterThan(cos(a, d));
    expect((await embedder(12).embed(['x']))[0]).toHaveLength(12);
    expect(await embedder().embed([])).toEqual([]);
  });
});
