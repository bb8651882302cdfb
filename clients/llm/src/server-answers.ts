/**
 * What model servers mean by what they answer, read as they mean it (pure): a request too long for the server's
 * context in the words and codes of llama.cpp, vLLM, OpenAI, Anthropic and LiteLLM, and tool calls a model wrote
 * as text because the server has no parser for its format (Hermes/Qwen `<tool_call>`, Mistral `[TOOL_CALLS]`,
 * Llama 3.1 `<|python_tag|>`, a bare or fenced JSON call).
 */

/** A request the server's context cannot hold, with the sizes it said when it said them. */
export interface ContextOverflowFacts {
  /** The server's context, in tokens. */
  contextTokens?: number;
  /** The request's prompt as the server counted it. */
  promptTokens?: number;
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/,/g, '')));

/**
 * The overflow an error answer reports, or undefined when it is another error. `body` is the error object
 * (`{ message, type, code, n_ctx, n_prompt_tokens }` as llama.cpp sends it).
 */
export function contextOverflowOf(
  status: number | undefined,
  message: string,
  body?: Record<string, unknown>,
): ContextOverflowFacts | undefined {
  if (status !== undefined && status !== 400 && status !== 413 && status !== 422) return undefined;
  const text = message ?? '';
  const type = String(body?.type ?? '');
  const code = String(body?.code ?? '');
  const facts: ContextOverflowFacts = {};
  const ctx = typeof body?.n_ctx === 'number' ? body.n_ctx : undefined;
  const prompt = typeof body?.n_prompt_tokens === 'number' ? body.n_prompt_tokens : undefined;
  // llama.cpp: "request (2872 tokens) exceeds the available context size (2048 tokens)", type exceed_context_size_error
  const llama = /request \(([\d,]+) tokens\) exceeds the available context size \(([\d,]+) tokens\)/i.exec(text);
  // vLLM and OpenAI: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens
  // (4000 in the messages, 1000 in the completion)" / "your messages resulted in 5000 tokens" / "your request has
  // 3000 input tokens"
  const maxLength = /maximum context length is ([\d,]+) tokens/i.exec(text);
  const asked =
    /(?:you requested|resulted in|your request has|prompt contains at least) ([\d,]+)(?: input)? tokens/i.exec(text);
  const inMessages = /\(([\d,]+) in the messages/i.exec(text);
  // Anthropic (directly or through a gateway): "prompt is too long: 210000 tokens > 200000 maximum"
  const anthropic = /prompt is too long: ([\d,]+) tokens > ([\d,]+) maximum/i.exec(text);
  const named =
    type === 'exceed_context_size_error' ||
    code === 'context_length_exceeded' ||
    /ContextWindowExceeded|context[_ ]length[_ ]exceeded|exceeds? (?:the )?(?:model's |available )?context/i.test(text);
  if (!(llama || maxLength || anthropic || named || ctx !== undefined)) return undefined;
  facts.contextTokens = ctx ?? num(llama?.[2]) ?? num(maxLength?.[1]) ?? num(anthropic?.[2]);
  facts.promptTokens = prompt ?? num(llama?.[1]) ?? num(inMessages?.[1]) ?? num(asked?.[1]) ?? num(anthropic?.[1]);
  for (const k of Object.keys(facts) as (keyof ContextOverflowFacts)[]) if (facts[k] === undefined) delete facts[k];
  return facts;
}

/** Whether an error answer refuses the `max_tokens` parameter and names `max_completion_tokens` instead. */
export const wantsMaxCompletionTokens = (message: string): boolean =>
  /max_tokens/.test(message) && /max_completion_tokens/.test(message);

export interface TextToolCall {
  name: string;
  /** JSON text of the arguments object. */
  arguments: string;
}

/** A `{name, arguments|parameters}` object as a call of one of `tools`, or undefined. */
function asCall(value: unknown, tools: ReadonlySet<string>): TextToolCall | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const fn = o.function && typeof o.function === 'object' ? (o.function as Record<string, unknown>) : o;
  const name = fn.name;
  if (typeof name !== 'string' || !tools.has(name)) return undefined;
  const args = fn.arguments ?? fn.parameters ?? {};
  if (typeof args === 'string') {
    try {
      const parsed: unknown = JSON.parse(args || '{}');
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { name, arguments: args } : undefined;
    } catch {
      return undefined;
    }
  }
  return args && typeof args === 'object' && !Array.isArray(args)
    ? { name, arguments: JSON.stringify(args) }
    : undefined;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Calls in a JSON value: one call, or an array of them; all must be calls of the offered tools. */
function callsIn(value: unknown, tools: ReadonlySet<string>): TextToolCall[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  const calls = list.map((v) => asCall(v, tools));
  return calls.length && calls.every((c) => c) ? (calls as TextToolCall[]) : undefined;
}

/**
 * The tool calls a model wrote in its text, in the common formats, when they name offered tools and their
 * arguments are JSON objects; none otherwise (a text that only mentions a tool is text). The text around the
 * calls is returned as `rest`.
 */
export function textToolCalls(
  content: string | null | undefined,
  toolNames: Iterable<string>,
): { calls: TextToolCall[]; rest: string } {
  const none = { calls: [], rest: content ?? '' };
  if (!content) return none;
  const tools = new Set(toolNames);
  // Hermes / Qwen: <tool_call>{"name": ..., "arguments": {...}}</tool_call>, one block per call.
  const blocks = [...content.matchAll(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g)];
  if (blocks.length) {
    const calls = blocks.map((b) => callsIn(parsed(b[1]), tools));
    if (calls.every((c) => c)) {
      return {
        calls: calls.flat() as TextToolCall[],
        rest: content.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, '').trim(),
      };
    }
    return none;
  }
  // Mistral: [TOOL_CALLS] [{"name": ..., "arguments": {...}}]
  const mistral = /\[TOOL_CALLS\]\s*(\[[\s\S]*\]|\{[\s\S]*\})\s*$/.exec(content);
  if (mistral) {
    const calls = callsIn(parsed(mistral[1]), tools);
    return calls ? { calls, rest: content.slice(0, mistral.index).trim() } : none;
  }
  // Llama 3.1: <|python_tag|>{"name": ..., "parameters": {...}}
  const python = /<\|python_tag\|>\s*([\s\S]*?)\s*(?:<\|eom_id\|>|<\|eot_id\|>)?\s*$/.exec(content);
  if (python) {
    const calls = callsIn(parsed(python[1]), tools);
    return calls ? { calls, rest: content.slice(0, python.index).trim() } : none;
  }
  // The whole answer one JSON call (or a list of them), maybe in a ```json fence.
  const unfenced = content.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1');
  const calls = callsIn(parsed(unfenced), tools);
  return calls ? { calls, rest: '' } : none;
}
