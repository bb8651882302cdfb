import { contextOverflowOf, textToolCalls, wantsMaxCompletionTokens } from './server-answers';

describe('a context overflow, in the words of the servers that send it', () => {
  it.each([
    [
      "llama.cpp's server",
      400,
      'request (2872 tokens) exceeds the available context size (2048 tokens), try increasing it',
      { type: 'exceed_context_size_error', n_prompt_tokens: 2872, n_ctx: 2048 },
      { contextTokens: 2048, promptTokens: 2872 },
    ],
    [
      'vLLM, prompt and completion',
      400,
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      { type: 'BadRequestError' },
      { contextTokens: 4096, promptTokens: 4000 },
    ],
    [
      'vLLM, an output limit too large beside the prompt',
      400,
      "'max_tokens' is too large: 8192. This model's maximum context length is 4096 tokens and your request has 100 input tokens (8192 > 4096 - 100).",
      undefined,
      { contextTokens: 4096, promptTokens: 100 },
    ],
    [
      'OpenAI',
      400,
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
      { code: 'context_length_exceeded', type: 'invalid_request_error' },
      { contextTokens: 128000, promptTokens: 130512 },
    ],
    [
      'Anthropic through a gateway',
      400,
      'prompt is too long: 210000 tokens > 200000 maximum',
      undefined,
      { contextTokens: 200000, promptTokens: 210000 },
    ],
    [
      "LiteLLM's proxy",
      400,
      'litellm.ContextWindowExceededError: ContextWindowExceededError: OpenAIException - too long',
      undefined,
      {},
    ],
  ])('%s', (_, status, message, body, facts) => {
    expect(contextOverflowOf(status, message, body as Record<string, unknown> | undefined)).toEqual(facts);
  });

  it('is no overflow when the server refused something else, or failed', () => {
    expect(contextOverflowOf(400, 'tools are not supported by this model', { code: 'tools_unsupported' })).toBe(
      undefined,
    );
    expect(contextOverflowOf(404, 'model "x" not found')).toBe(undefined);
    expect(contextOverflowOf(500, 'request (10 tokens) exceeds the available context size (5 tokens)')).toBe(undefined);
  });

  it('knows a server that wants max_completion_tokens for max_tokens', () => {
    expect(
      wantsMaxCompletionTokens(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      ),
    ).toBe(true);
    expect(wantsMaxCompletionTokens("'max_tokens' is too large: 8192.")).toBe(false);
  });
});

describe('tool calls a model wrote as text', () => {
  const tools = ['read_file', 'finish'];

  it('reads Hermes/Qwen <tool_call> blocks, with the text around them', () => {
    const content =
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>\n' +
      '<tool_call>{"name": "finish", "arguments": {}}</tool_call>';
    expect(textToolCalls(content, tools)).toEqual({
      calls: [
        { name: 'read_file', arguments: '{"path":"a.py"}' },
        { name: 'finish', arguments: '{}' },
      ],
      rest: 'Let me look.',
    });
  });

  it("reads Mistral's [TOOL_CALLS], Llama 3.1's <|python_tag|> and a bare or fenced JSON call", () => {
    expect(textToolCalls('[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "b"}}]', tools).calls).toEqual([
      { name: 'read_file', arguments: '{"path":"b"}' },
    ]);
    expect(
      textToolCalls('<|python_tag|>{"name": "read_file", "parameters": {"path": "c"}}<|eom_id|>', tools).calls,
    ).toEqual([{ name: 'read_file', arguments: '{"path":"c"}' }]);
    expect(textToolCalls('```json\n{"name": "finish", "arguments": {"summary": "done"}}\n```', tools).calls).toEqual([
      { name: 'finish', arguments: '{"summary":"done"}' },
    ]);
    expect(
      textToolCalls(
        '{"type": "function", "function": {"name": "finish", "arguments": "{\\"summary\\": \\"x\\"}"}}',
        tools,
      ).calls,
    ).toEqual([{ name: 'finish', arguments: '{"summary": "x"}' }]);
  });

  it('takes nothing that is not a whole call of an offered tool', () => {
    for (const text of [
      'I will call read_file on a.py next.',
      '{"name": "delete_everything", "arguments": {}}',
      '<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>', // cut JSON
      '<tool_call>{"name": "read_file", "arguments": "not json"}</tool_call>',
      '{"diff": "--- a\\n+++ b", "reasoning": "x"}',
      '',
    ])
      expect(textToolCalls(text, tools).calls).toEqual([]);
    expect(textToolCalls(null, tools)).toEqual({ calls: [], rest: '' });
  });
});
