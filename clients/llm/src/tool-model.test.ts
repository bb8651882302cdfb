// Tool calling through the real openai client against the project's scripted server on loopback.
import { startScriptedModelServer, type ScriptedModelServer } from '@farm/scripted-llm';
import {
  createToolModel,
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
});
