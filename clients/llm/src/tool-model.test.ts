// Tool calling through the real openai client against the project's scripted server on loopback.
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import {
  ContextOverflow,
  createJsonModel,
  createToolModel,
  DEFAULT_MAX_OUTPUT_TOKENS,
  ModelAnswerCut,
  ModelResponseMalformed,
  ModelUnavailable,
  type ConversationMessage,
  type ToolSpec,
} from './index';

const TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, start_line: { type: 'integer' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  { name: 'finish', description: 'Finish', parameters: { type: 'object', properties: {}, required: [] } },
];
const start: ConversationMessage[] = [
  { role: 'system', content: 'You are a coding agent with tools.' },
  { role: 'user', content: 'Fix x.ts' },
];

describe('createToolModel against the scripted server', () => {
  let server: ScriptedModelServer;
  const model = (maxRetries = 0) =>
    createToolModel({ baseURL: server.baseURL, apiKey: 'test', model: 'gpt-test', maxRetries });

  beforeAll(async () => (server = await startScriptedModelServer({ script: { chat: [] } })));
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  it('sends the tools and the conversation, and returns the tool calls with usage', async () => {
    server.setScript({
      chat: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'x.ts', start_line: 2 } }], content: 'looking' },
        { toolCalls: [{ name: 'finish', arguments: {} }], matchLast: 'export const x' },
      ],
    });
    const first = await model().nextTurn(start, TOOLS);
    expect(first).toMatchObject({ content: 'looking', finishReason: 'tool_calls', model: 'gpt-test' });
    expect(first.toolCalls).toEqual([
      { id: expect.any(String), name: 'read_file', arguments: '{"path":"x.ts","start_line":2}' },
    ]);
    expect(first.usage.promptTokens).toBeGreaterThan(0);

    const conversation: ConversationMessage[] = [
      ...start,
      { role: 'assistant', content: first.content, toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: first.toolCalls[0].id, content: '2| export const x = 1;' },
    ];
    const second = await model().nextTurn(conversation, TOOLS);
    expect(second.toolCalls.map((c) => c.name)).toEqual(['finish']);
    expect(server.requests.map((r) => [r.outcome, r.tools])).toEqual([
      ['tool-calls', ['read_file', 'finish']],
      ['tool-calls', ['read_file', 'finish']],
    ]);
    // The wire format: the assistant's tool calls and the tool result with its call id.
    expect(server.requests[1].messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'looking',
        tool_calls: [
          {
            id: first.toolCalls[0].id,
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"x.ts","start_line":2}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: first.toolCalls[0].id, content: '2| export const x = 1;' },
    ]);
  });

  it('reports the prompt tokens the endpoint served from its prompt cache', async () => {
    server.setScript({
      chat: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'x.ts' } }] },
        { toolCalls: [{ name: 'finish', arguments: {} }] },
      ],
    });
    const long: ConversationMessage[] = [
      { role: 'system', content: `You are a coding agent. ${'Rules of the house. '.repeat(400)}` },
      { role: 'user', content: 'Fix x.ts' },
    ];
    const first = await model().nextTurn(long, TOOLS);
    expect(first.usage.cachedInputTokens).toBeUndefined(); // nothing cached yet
    const second = await model().nextTurn(
      [
        ...long,
        { role: 'assistant', content: null, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: first.toolCalls[0].id, content: '1| export const x = 1;' },
      ],
      TOOLS,
    );
    // the shared start (tools, rules, task) came from the cache, in steps of 128 tokens
    expect(second.usage.cachedInputTokens).toBeGreaterThanOrEqual(1024);
    expect(second.usage.cachedInputTokens! % 128).toBe(0);
    expect(second.usage.cachedInputTokens).toBeLessThan(second.usage.promptTokens);
  });

  it('the scripted server refuses a step whose tool was not offered or whose arguments do not fit', async () => {
    server.setScript({ chat: [{ toolCalls: [{ name: 'delete_everything', arguments: {} }] }] });
    await expect(model().nextTurn(start, TOOLS)).rejects.toThrow(/tool delete_everything was not offered/);
    server.setScript({ chat: [{ toolCalls: [{ name: 'read_file', arguments: { start_line: 'two' } }] }] });
    await expect(model().nextTurn(start, TOOLS)).rejects.toThrow(/read_file\.arguments\.path is required/);
    server.setScript({ chat: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'x', start_line: 'two' } }] }] });
    await expect(model().nextTurn(start, TOOLS)).rejects.toThrow(/start_line should be integer, is string/);
    expect(server.requests.map((r) => r.outcome)).toEqual(['mismatch', 'mismatch', 'mismatch']);
  });

  it('a tool call whose arguments are not JSON is asked again; without retries left it is ModelResponseMalformed', async () => {
    server.setScript({
      chat: [
        { toolCalls: [{ name: 'read_file', arguments: '{"path": "x.ts"' }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'x.ts' } }] },
      ],
    });
    const turn = await model(2).nextTurn(start, TOOLS);
    expect(turn).toMatchObject({
      malformedRetries: 1,
      toolCalls: [{ name: 'read_file', arguments: '{"path":"x.ts"}' }],
    });

    server.setScript({ chat: [{ toolCalls: [{ name: 'read_file', arguments: 'path=x.ts' }] }] });
    const err = await model(0)
      .nextTurn(start, TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelResponseMalformed);
    expect((err as Error).message).toMatch(/arguments of tool call read_file are not JSON/);
  });

  it('a script without tool calls answers tool requests like an endpoint without tool calling: 400', async () => {
    server.setScript({ chat: [{ answer: { diff: 'x' } }] });
    const err = await model()
      .nextTurn(start, TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelUnavailable);
    expect(err).toMatchObject({ status: 400, retryable: false });
    expect(server.refusedToolRequests).toBeGreaterThan(0);
  });

  it('sends an output limit on every call: the default, or the one configured', async () => {
    server.setScript({ chat: [{ toolCalls: [{ name: 'finish', arguments: {} }], repeat: true }] });
    await model().nextTurn(start, TOOLS);
    await createToolModel({ baseURL: server.baseURL, apiKey: 't', model: 'm', maxOutputTokens: 512 }).nextTurn(
      start,
      TOOLS,
    );
    expect(server.requests.map((r) => r.maxTokens)).toEqual([DEFAULT_MAX_OUTPUT_TOKENS, 512]);
  });

  it("a context overflow (llama.cpp's 400) is ContextOverflow with both sizes, never a refusal of tools", async () => {
    server.setScript({ chat: [{ toolCalls: [{ name: 'finish', arguments: {} }] }], contextTokens: 50 });
    const err = await model()
      .nextTurn([...start, { role: 'user', content: 'x'.repeat(400) }], TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextOverflow);
    expect(err).toMatchObject({ contextTokens: 50, retryable: false, status: 400 });
    expect((err as ContextOverflow).promptTokens).toBeGreaterThan(50);
    expect((err as Error).message).toMatch(/^the model server's context \(50 tokens\) cannot hold the request/);
  });

  it("an output limit vLLM's context cannot hold beside the prompt is lowered to what fits, and the call answered", async () => {
    server.setScript({ chat: [{ toolCalls: [{ name: 'finish', arguments: {} }] }], maxModelLen: 4096 });
    const turn = await model().nextTurn(start, TOOLS);
    expect(turn.toolCalls.map((c) => c.name)).toEqual(['finish']);
    // (the refused request, with the default limit, is not among the answered ones)
    const answered = server.requests.map((r) => r.maxTokens!);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toBeLessThan(4096 - 16);
    // vLLM's own body ({"object": "error", "message": ...}) is read: a prompt too long says so.
    server.setScript({ chat: [{ toolCalls: [{ name: 'finish', arguments: {} }] }], maxModelLen: 20 });
    const err = await model()
      .nextTurn([...start, { role: 'user', content: 'y'.repeat(400) }], TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextOverflow);
    expect((err as Error).message).toMatch(/maximum context length is 20 tokens/);
  });

  it('an answer cut at the output limit is never taken as whole: ModelAnswerCut, for calls and for JSON', async () => {
    server.setScript({
      chat: [
        { toolCalls: [{ name: 'read_file', arguments: '{"path": "x.t' }], finishReason: 'length' },
        { content: 'I will now edit the file and', finishReason: 'length' },
      ],
    });
    for (let i = 0; i < 2; i++) {
      const err = await model()
        .nextTurn(start, TOOLS)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelAnswerCut);
      expect((err as Error).message).toMatch(/cut at the output limit/);
    }
    // A JSON answer that parses, but stopped at the limit: not the whole answer either.
    server.setScript({ chat: [{ content: '{"diff": "", "reasoning": "x"}', finishReason: 'length' }] });
    const json = createJsonModel({ baseURL: server.baseURL, apiKey: 't', model: 'm', maxRetries: 0 });
    await expect(json.completeJson([{ role: 'user', content: 'Plan it' }])).rejects.toBeInstanceOf(ModelAnswerCut);
  });

  it('tool calls written as text (a server without a parser for the format) are read as calls', async () => {
    // (a script with no tool-call step refuses tool requests: this one offers a finish step too)
    server.setScript({
      chat: [
        {
          content: 'Reading it.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "x.ts"}}\n</tool_call>',
        },
        { toolCalls: [{ name: 'finish', arguments: {} }] },
      ],
    });
    const turn = await model().nextTurn(start, TOOLS);
    expect(turn).toMatchObject({
      content: 'Reading it.',
      toolCalls: [{ name: 'read_file', arguments: '{"path":"x.ts"}' }],
      textToolCalls: true,
    });
  });

  it('a server that echoes another model name (llama.cpp: its model file) is recorded apart; the configured name is kept', async () => {
    server.setScript({
      chat: [{ toolCalls: [{ name: 'finish', arguments: {} }] }],
      answeredModel: '/models/qwen2.5-coder-7b-q4_k_m.gguf',
    });
    const turn = await model().nextTurn(start, TOOLS);
    expect(turn).toMatchObject({ model: 'gpt-test', servedBy: '/models/qwen2.5-coder-7b-q4_k_m.gguf' });
  });
});
