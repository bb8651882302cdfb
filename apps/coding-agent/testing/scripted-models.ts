// In-process models driven by a script, for unit tests of the loops that talk to a model. Each call takes
// the next step of the script; a step may throw (an outage, an unreadable answer). The real `openai` client
// against the scripted model server is what the integration tests use.
import type {
  ChatMessage,
  ConversationMessage,
  JsonAnswer,
  JsonModel,
  TokenUsage,
  ToolModel,
  ToolSpec,
  ToolTurn,
} from '@farm/llm';

/** One answer of a scripted tool model: tool calls (none: plain text), or an error thrown instead. */
export interface ToolModelStep {
  calls?: { name: string; args?: Record<string, unknown> | string }[];
  content?: string;
  usage?: Partial<TokenUsage>;
  malformedRetries?: number;
  throws?: Error;
}

/** A call with its arguments, as the model would write it. */
export const call = (name: string, args: Record<string, unknown> | string = {}, more: ToolModelStep = {}) => ({
  ...more,
  calls: [{ name, args }],
});

/** The step's usage; its prompt tokens by default as a server counts them (about 4 characters a token). */
const usageOf = (u: Partial<TokenUsage> = {}, messages?: ConversationMessage[]): TokenUsage => {
  const sent = messages?.reduce((n, m) => n + (m.content ?? '').length, 0);
  const promptTokens = u.promptTokens ?? (sent === undefined ? 10 : Math.max(10, Math.ceil(sent / 4)));
  const completionTokens = u.completionTokens ?? 5;
  return { promptTokens, completionTokens, totalTokens: u.totalTokens ?? promptTokens + completionTokens };
};

export class ScriptedToolModel implements ToolModel {
  readonly model = 'scripted-coder';
  /** The conversation as each call received it (a copy). */
  readonly requests: ConversationMessage[][] = [];
  private next = 0;

  constructor(private readonly script: ToolModelStep[]) {}

  async nextTurn(messages: ConversationMessage[], tools: ToolSpec[]): Promise<ToolTurn> {
    this.requests.push(structuredClone(messages));
    const step = this.script[this.next++];
    if (!step) throw new Error(`the script has no step ${this.next} (offered ${tools.length} tools)`);
    if (step.throws) throw step.throws;
    const toolCalls = (step.calls ?? []).map((c, i) => ({
      id: `call_${this.next}_${i}`,
      name: c.name,
      arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}),
    }));
    return {
      content: step.content ?? null,
      toolCalls,
      usage: usageOf(step.usage, messages),
      model: this.model,
      finishReason: toolCalls.length ? 'tool_calls' : 'stop',
      malformedRetries: step.malformedRetries,
    };
  }

  /** The tool results the model has received, in order, as of its last call. */
  toolResults(): string[] {
    return (this.requests.at(-1) ?? []).flatMap((m) => (m.role === 'tool' ? [m.content] : []));
  }
}

/** One answer of a scripted JSON model: a value, raw text, or an error thrown instead. */
export interface JsonModelStep {
  value?: unknown;
  content?: string;
  usage?: Partial<TokenUsage>;
  throws?: Error;
}

export class ScriptedJsonModel implements JsonModel {
  readonly requests: ChatMessage[][] = [];
  private next = 0;

  constructor(
    private readonly script: JsonModelStep[],
    readonly model = 'scripted-reviewer',
  ) {}

  async completeJson(messages: ChatMessage[]): Promise<JsonAnswer> {
    this.requests.push(structuredClone(messages));
    const step = this.script[this.next++];
    if (!step) throw new Error(`the script has no step ${this.next}`);
    if (step.throws) throw step.throws;
    const content = step.content ?? JSON.stringify(step.value);
    let value: unknown = step.value;
    if (value === undefined) {
      try {
        value = JSON.parse(content);
      } catch {
        value = null;
      }
    }
    return { value, content, usage: usageOf(step.usage), model: this.model };
  }
}
