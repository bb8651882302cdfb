import type OpenAI from 'openai';
import { errorMessage, silentLogger } from '@farm/runtime';
import { openaiClient, outputLimited, toModelError, usageOf, type ModelClientConfig, type TokenUsage } from './client';
import { ModelAnswerCut, ModelResponseMalformed } from './errors';
import { textToolCalls } from './server-answers';
import { retryMalformedAnswers } from './malformed-answers';
import type { ToolSpec } from './model-schema';

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them: JSON text, not yet parsed or checked. */
  arguments: string;
}

/** A conversation with tools, in the farm's own shape (mapped to the OpenAI wire format per call). */
export type ConversationMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ToolTurn {
  /** Text the model wrote besides (or instead of) tool calls. */
  content: string | null;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  /** The configured model (what the call is priced by). */
  model: string;
  /** The name the server answered with, when it differs. */
  servedBy?: string;
  finishReason: string;
  /** Malformed HTTP answers received (and asked again) before this one. */
  malformedRetries?: number;
  /** The calls were written in the text (no server-side parser for the model's format), read from it. */
  textToolCalls?: boolean;
}

/** A chat model that answers with tool calls (the coding agent's tool strategy). */
export interface ToolModel {
  readonly model: string;
  /** The output limit each call sends (max_tokens), when the model has one. */
  readonly outputLimit?: number;
  nextTurn(messages: ConversationMessage[], tools: ToolSpec[]): Promise<ToolTurn>;
}

// Near-deterministic like the patch model; a repeated turn after a tool error still gets a chance to differ.
const TEMPERATURE = 0.1;

export function toOpenAiMessages(messages: ConversationMessage[]): OpenAI.ChatCompletionMessageParam[] {
  return messages.map((m): OpenAI.ChatCompletionMessageParam => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    if (m.role === 'assistant') {
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    }
    return { role: m.role, content: m.content };
  });
}

export function createToolModel(cfg: ModelClientConfig): ToolModel {
  const log = (cfg.log ?? silentLogger).child({ model: cfg.model });
  const chat = outputLimited(openaiClient(cfg), { ...cfg, log });
  return {
    model: cfg.model,
    outputLimit: chat.limit,
    async nextTurn(messages, tools) {
      const started = Date.now();
      const ask = async (): Promise<ToolTurn> => {
        const completion = await chat.create({
          model: cfg.model,
          messages: toOpenAiMessages(messages),
          tools: tools.map((t) => ({
            type: 'function' as const,
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
          tool_choice: 'auto',
          // One call at a time keeps the trajectory a sequence the model can reason about step by step.
          parallel_tool_calls: false,
          temperature: TEMPERATURE,
        });
        return readTurn(completion, cfg.model, {
          tools: tools.map((t) => t.name),
          limit: chat.limit,
        });
      };
      let turn: ToolTurn;
      let malformedRetries: number;
      try {
        ({ answer: turn, malformedRetries } = await retryMalformedAnswers(ask, { retries: cfg.maxRetries ?? 2, log }));
      } catch (err) {
        const e = toModelError(err);
        log.warn('model call failed', { err: e, retryable: e.retryable, ms: Date.now() - started });
        throw e;
      }
      log.info('model answered', {
        ms: Date.now() - started,
        ...turn.usage,
        toolCalls: turn.toolCalls.map((c) => c.name),
        malformedRetries,
      });
      return { ...turn, malformedRetries };
    },
  };
}

/**
 * The turn in a completion; ModelResponseMalformed when it has no choice or a tool call's arguments are not JSON,
 * ModelAnswerCut when the answer stopped at the output limit before its calls were whole. Tool calls the model
 * wrote as text (a server without a parser for its format) are read as calls of the offered tools.
 */
export function readTurn(
  completion: OpenAI.ChatCompletion,
  model: string,
  offered: { tools: string[]; limit?: number } = { tools: [] },
): ToolTurn {
  const choice = completion?.choices?.[0];
  if (!choice?.message) {
    throw new ModelResponseMalformed('model response has no choices', {
      details: { body: JSON.stringify(completion ?? null).slice(0, 500) },
    });
  }
  const usage = usageOf(completion.usage);
  const finishReason = choice.finish_reason ?? '';
  let content = choice.message.content ?? null;
  let toolCalls: ToolCall[] = (choice.message.tool_calls ?? [])
    .filter((c) => c.type === 'function')
    .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '' }));
  let textCalls = false;
  if (!toolCalls.length && content) {
    const written = textToolCalls(content, offered.tools);
    if (written.calls.length) {
      textCalls = true;
      const base = completion.id ?? 'text';
      toolCalls = written.calls.map((c, i) => ({ id: `${base}-text-${i}`, ...c }));
      content = written.rest || null;
    }
  }
  const cut = () =>
    new ModelAnswerCut(JSON.stringify({ content, toolCalls }), {
      outputTokens: usage.completionTokens,
      limit: offered.limit,
    });
  for (const call of toolCalls) {
    if (!call.arguments.trim()) continue; // no arguments: the tool gets {}
    try {
      JSON.parse(call.arguments);
    } catch (err) {
      if (finishReason === 'length') throw cut();
      throw new ModelResponseMalformed(`arguments of tool call ${call.name} are not JSON: ${errorMessage(err)}`, {
        details: { arguments: call.arguments.slice(0, 500) },
      });
    }
  }
  // Cut with no call: its text is not whole either (a call may have been about to begin).
  if (finishReason === 'length' && !toolCalls.length) throw cut();
  return {
    content,
    toolCalls,
    usage,
    // Priced and recorded by the configured name: a server may echo anything (llama.cpp: the model file).
    model,
    ...(completion.model && completion.model !== model ? { servedBy: completion.model } : {}),
    finishReason,
    ...(textCalls ? { textToolCalls: true } : {}),
  };
}
