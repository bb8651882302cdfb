// Node's own fetch, not openai v4's default node-fetch and its polyfills (~0.5 MB each agent would load at
// start); it must come before the first import of 'openai' (openai's README, "Customizing the fetch client").
import 'openai/shims/web';
import OpenAI from 'openai';
import { FarmError, causedByStopping, errorMessage, silentLogger, stoppingSignal, z, type Logger } from '@farm/runtime';
import {
  ContextOverflow,
  ModelAnswerCut,
  ModelAnswerInvalid,
  ModelResponseMalformed,
  ModelUnavailable,
} from './errors';
import { retryMalformedAnswers } from './malformed-answers';
import { answerSchema } from './model-schema';
import { contextOverflowOf, wantsMaxCompletionTokens } from './server-answers';
import type { TokenUsage } from './token-usage';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type { TokenUsage } from './token-usage';

/** The usage of an OpenAI-compatible answer, with the prompt-cache hits when the endpoint reports them. */
export function usageOf(usage: OpenAI.CompletionUsage | undefined): TokenUsage {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    totalTokens: usage?.total_tokens ?? 0,
    ...(cached ? { cachedInputTokens: cached } : {}),
  };
}

export interface PatchProposal {
  diff: string;
  reasoning: string;
  usage: TokenUsage;
  /** The configured model (what the call is priced by). */
  model: string;
  /** The name the server answered with, when it differs. */
  servedBy?: string;
  /** Malformed HTTP answers received (and asked again) before this one. */
  malformedRetries?: number;
}

export interface PatchModel {
  proposePatch(messages: ChatMessage[]): Promise<PatchProposal>;
}

export interface ModelClientConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per attempt, enforced by the openai client. Default 60s. */
  timeoutMs?: number;
  /**
   * Retries with exponential backoff, default 2: the openai client's own on 408/409/429/5xx and timeouts, and
   * as many for an answer whose body is malformed (not JSON, no choices, tool arguments that are not JSON).
   */
  maxRetries?: number;
  /** Ask for a JSON schema-constrained answer (structured outputs) where the endpoint supports it. */
  structuredOutput?: boolean;
  /**
   * The most tokens an answer may have (sent as `max_tokens`, or `max_completion_tokens` where the server asks
   * for it). Default DEFAULT_MAX_OUTPUT_TOKENS: without one, a local server's model that does not stop runs until
   * its context is full.
   */
  maxOutputTokens?: number;
  log?: Logger;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

export interface JsonAnswer {
  /** The parsed JSON value of the answer. */
  value: unknown;
  content: string;
  usage: TokenUsage;
  /** The configured model (what the call is priced by). */
  model: string;
  /** The name the server answered with, when it differs (a gateway's routed model, llama.cpp's model file). */
  servedBy?: string;
  /** Malformed HTTP answers received (and asked again) before this one. */
  malformedRetries?: number;
}

/** A chat model answering with one JSON object; the planners and the patch model share it. */
export interface JsonModel {
  completeJson(
    messages: ChatMessage[],
    schema?: { name: string; schema: Record<string, unknown> },
  ): Promise<JsonAnswer>;
}

/** The diff strategy's answer, declared once: it checks the answer and gives the model its JSON schema. */
const patchAnswerSchema = z.object({ diff: z.string(), reasoning: z.string().catch('') });

export const PATCH_SCHEMA = answerSchema('patch', patchAnswerSchema);

export interface EmbedderConfig extends ModelClientConfig {
  /** Ask for vectors of this length (models that support `dimensions`). */
  dimensions?: number;
}

export interface Embedder {
  embed(texts: string[]): Promise<number[][]>;
}

// Low but not zero: patches should be near-deterministic, yet a retry after an invalid answer needs a chance
// to come out differently.
const TEMPERATURE = 0.1;

export function openaiClient(cfg: ModelClientConfig): OpenAI {
  return new OpenAI({
    baseURL: cfg.baseURL,
    apiKey: cfg.apiKey,
    timeout: cfg.timeoutMs ?? 60_000,
    maxRetries: cfg.maxRetries ?? 2,
    fetch: errorBodiesAsOpenAi,
  });
}

/**
 * Node's fetch, with the error bodies of OpenAI-compatible servers put in OpenAI's shape: the openai client
 * reads only `{"error": {...}}`, and would report vLLM's top-level `{"object": "error", "message": ...}` or
 * Ollama's `{"error": "..."}` as "400 status code (no body)", losing what the server said (a context overflow).
 */
export async function errorBodiesAsOpenAi(...args: Parameters<typeof fetch>): Promise<Response> {
  const res = await fetch(...args);
  if (res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return res;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const o = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const shaped =
    o && typeof o.error === 'string'
      ? { error: { message: o.error } }
      : o && !('error' in o) && typeof o.message === 'string'
        ? { error: o }
        : undefined;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(shaped ? JSON.stringify(shaped) : text, {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

/**
 * Sends chat requests with an output limit, as the server takes it: `max_tokens`, or `max_completion_tokens`
 * once the server names it instead (OpenAI's reasoning models); a limit the server says is too large for its
 * context beside the prompt is lowered to what fits, once per request. Remembers what worked for later calls.
 */
export function outputLimited(client: OpenAI, cfg: ModelClientConfig) {
  let param: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';
  const limit = cfg.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const log = cfg.log ?? silentLogger;
  return {
    limit,
    async create(body: OpenAI.ChatCompletionCreateParamsNonStreaming): Promise<OpenAI.ChatCompletion> {
      let max = limit;
      for (let attempt = 0; ; attempt++) {
        try {
          return await client.chat.completions.create({ ...body, [param]: max }, { signal: stoppingSignal() });
        } catch (err) {
          const e = toModelError(err);
          if (attempt >= 2) throw e;
          if (param === 'max_tokens' && wantsMaxCompletionTokens(errorMessage(err))) {
            param = 'max_completion_tokens';
            continue;
          }
          // vLLM: "'max_tokens' is too large: 8192. This model's maximum context length is 4096 tokens and your
          // request has 100 input tokens": the prompt fits, the limit beside it does not.
          if (e instanceof ContextOverflow && e.contextTokens && e.promptTokens !== undefined) {
            const room = e.contextTokens - e.promptTokens - 16;
            if (room >= 64 && room < max) {
              log.warn('output limit lowered to what the server context holds beside the prompt', {
                from: max,
                to: room,
                contextTokens: e.contextTokens,
              });
              max = room;
              continue;
            }
          }
          throw e;
        }
      }
    },
  };
}

/** Maps whatever the openai client threw (after its own retries) to a typed farm error. */
export function toModelError(err: unknown): FarmError {
  if (err instanceof FarmError) return err;
  // The process began to stop (see stoppingSignal): not the model's failure; its work is redone by the next start.
  if (stoppingSignal().aborted && (err instanceof OpenAI.APIUserAbortError || causedByStopping(err))) {
    return stoppingSignal().reason as FarmError;
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelUnavailable('model API timed out', { retryable: true, cause: err, details: { timeout: true } });
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new ModelUnavailable(`model API unreachable: ${errorMessage(err)}`, { retryable: true, cause: err });
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    const overflow = contextOverflowOf(status, err.message, err.error as Record<string, unknown> | undefined);
    if (overflow) {
      const { contextTokens, promptTokens } = overflow;
      return new ContextOverflow(
        `the model server's context${contextTokens ? ` (${contextTokens} tokens)` : ''} cannot hold the request` +
          `${promptTokens ? ` (${promptTokens} tokens)` : ''}: ${err.message}`,
        { status, contextTokens, promptTokens, cause: err },
      );
    }
    // 4xx (bad request, auth, unknown model) will fail the same way again; rate limits and server faults pass.
    const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
    return new ModelUnavailable(`model API error: ${err.message}`, { status, retryable, cause: err });
  }
  if ((err as Error | null)?.name === 'SyntaxError' || (err as { type?: string } | null)?.type === 'invalid-json') {
    // The openai client parses the body itself; a garbled body surfaces as a bare SyntaxError (native fetch:
    // from Node's own realm, hence by name) or node-fetch's FetchError of type 'invalid-json', never as an APIError.
    return new ModelResponseMalformed(`model API returned a malformed response: ${errorMessage(err)}`, { cause: err });
  }
  return new ModelUnavailable(`model API call failed: ${errorMessage(err)}`, { retryable: true, cause: err });
}

/** Parses the model's content as `{diff, reasoning}`; tolerates a surrounding ```json fence some models add. */
export function parsePatchAnswer(content: string): { diff: string; reasoning: string } {
  const parsed = patchAnswerSchema.safeParse(parseJsonAnswer(content));
  if (!parsed.success) throw new ModelAnswerInvalid('model answer lacks a string "diff"', content);
  return parsed.data;
}

export function parseJsonAnswer(content: string): unknown {
  const unfenced = content.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1');
  try {
    return JSON.parse(unfenced);
  } catch (err) {
    throw new ModelAnswerInvalid(`model answer is not JSON: ${errorMessage(err)}`, content, { cause: err });
  }
}

export function createJsonModel(cfg: ModelClientConfig): JsonModel {
  const log = (cfg.log ?? silentLogger).child({ model: cfg.model });
  const chat = outputLimited(openaiClient(cfg), { ...cfg, log });
  return {
    async completeJson(messages, schema) {
      const started = Date.now();
      const ask = async (): Promise<OpenAI.ChatCompletion> => {
        const completion = await chat.create({
          model: cfg.model,
          messages,
          response_format:
            cfg.structuredOutput && schema
              ? { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: true } }
              : { type: 'json_object' },
          temperature: TEMPERATURE,
        });
        if (!completion?.choices?.[0]?.message) {
          throw new ModelResponseMalformed('model response has no choices', {
            details: { body: JSON.stringify(completion ?? null).slice(0, 500) },
          });
        }
        return completion;
      };
      let completion: OpenAI.ChatCompletion;
      let malformedRetries: number;
      try {
        ({ answer: completion, malformedRetries } = await retryMalformedAnswers(ask, {
          retries: cfg.maxRetries ?? 2,
          log,
        }));
      } catch (err) {
        const e = toModelError(err);
        log.warn('model call failed', { err: e, retryable: e.retryable, ms: Date.now() - started });
        throw e;
      }
      const content = completion.choices[0].message.content;
      if (typeof content !== 'string') {
        throw new ModelAnswerInvalid('model response has no message content', JSON.stringify(completion ?? null));
      }
      const usage = usageOf(completion.usage);
      const finishReason = completion.choices[0].finish_reason ?? '';
      log.info('model answered', {
        ms: Date.now() - started,
        ...usage,
        chars: content.length,
        malformedRetries,
        finishReason,
      });
      // Cut at the output limit: whatever it holds is not the whole answer, even where it parses.
      if (finishReason === 'length') {
        const cut = new ModelAnswerCut(content, { outputTokens: usage.completionTokens, limit: chat.limit });
        cut.usage = usage;
        if (completion.model && completion.model !== cfg.model) cut.servedBy = completion.model;
        throw cut;
      }
      let value: unknown;
      try {
        value = parseJsonAnswer(content);
      } catch (err) {
        if (err instanceof ModelAnswerInvalid) err.usage = usage;
        throw err;
      }
      return {
        value,
        content,
        usage,
        // Priced and recorded by the configured name: a server may echo anything (llama.cpp: the model file).
        model: cfg.model,
        ...(completion.model && completion.model !== cfg.model ? { servedBy: completion.model } : {}),
        malformedRetries,
      };
    },
  };
}

export function createPatchModel(cfg: ModelClientConfig): PatchModel {
  const json = createJsonModel(cfg);
  return {
    async proposePatch(messages) {
      const answer = await json.completeJson(messages, PATCH_SCHEMA);
      return {
        ...parsePatchAnswer(answer.content),
        usage: answer.usage,
        model: answer.model,
        ...(answer.servedBy ? { servedBy: answer.servedBy } : {}),
        malformedRetries: answer.malformedRetries,
      };
    },
  };
}

export function createEmbedder(cfg: EmbedderConfig): Embedder {
  const client = openaiClient(cfg);
  return {
    async embed(texts) {
      if (texts.length === 0) return [];
      try {
        const res = await client.embeddings.create(
          {
            model: cfg.model,
            input: texts,
            // Plain floats: not every OpenAI-compatible server implements the client's default base64 encoding.
            encoding_format: 'float',
            ...(cfg.dimensions ? { dimensions: cfg.dimensions } : {}),
          },
          { signal: stoppingSignal() },
        );
        return [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      } catch (err) {
        throw toModelError(err);
      }
    },
  };
}
