/**
 * What an OpenAI-compatible endpoint can do, asked of it before the farm pays for work (`farm doctor`): the
 * models it lists, its context and slots where the server says them (llama.cpp's /props, vLLM's max_model_len,
 * Ollama's num_ctx), and a few small calls through the same client the farm uses: a plain answer and its
 * latency, tool calls with tool_choice auto and required, a JSON answer, an answer cut at a small output limit,
 * and a request longer than the context (refused as such, or silently cut). Each call is small and bounded.
 */
import type OpenAI from 'openai';
import { errorMessage } from '@farm/runtime';
import { openaiClient, toModelError, usageOf, type ModelClientConfig } from './client';
import { ContextOverflow, ModelUnavailable } from './errors';
import { textToolCalls } from './server-answers';

export type ToolSupport = 'calls' | 'text-calls' | 'none' | 'refused' | 'error';

export interface EndpointFacts {
  baseURL: string;
  model: string;
  /** The listing failed: the endpoint is not reachable (or not OpenAI-compatible), with why. */
  unreachable?: string;
  models: string[];
  contextTokens?: number;
  /** Where the context size was read. */
  contextSource?: string;
  /** Requests the server answers at once (llama.cpp's slots), when it says. */
  slots?: number;
  chat?: {
    ok: boolean;
    ms: number;
    error?: string;
    /** The model name the answer gave. */
    answeredAs?: string;
    usageReported: boolean;
  };
  tools?: { auto: ToolSupport; required: ToolSupport; detail?: string };
  json?: { ok: boolean; detail?: string };
  /** An answer asked to be long, with a limit of CUT_LIMIT tokens. */
  cut?: { finishReason: string; completionTokens: number; error?: string };
  /** A request longer than the context: refused as an overflow, silently cut, or something else. */
  overflow?: { outcome: 'refused' | 'silently-cut' | 'answered' | 'other-error'; detail: string };
}

export const CUT_LIMIT = 8;
/** Room for `{"colour": "blue"}` and a model's whitespace around it. */
const JSON_LIMIT = 96;
const TOOL: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'record_colour',
    description: 'Records a colour',
    parameters: {
      type: 'object',
      properties: { colour: { type: 'string' } },
      required: ['colour'],
      additionalProperties: false,
    },
  },
};

/** The server's root (its base URL without the trailing /v1), where llama.cpp and Ollama serve their own routes. */
const rootOf = (baseURL: string) => baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');

async function getJson(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<unknown> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
  return res.json();
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** The context and slots the server tells (its model listing, then its own routes); none when it tells nothing. */
export async function serverContextOf(
  cfg: ModelClientConfig,
): Promise<Pick<EndpointFacts, 'contextTokens' | 'contextSource' | 'slots'>> {
  const listing = await getJson(`${cfg.baseURL.replace(/\/+$/, '')}/models`, {
    headers: { authorization: `Bearer ${cfg.apiKey}` },
  }).catch(() => undefined);
  return contextOf(cfg, listing);
}

async function contextOf(cfg: ModelClientConfig, listing: unknown): Promise<Partial<EndpointFacts>> {
  const models = (listing as { data?: Record<string, unknown>[] })?.data ?? [];
  const mine = models.find((m) => m.id === cfg.model) ?? (models.length === 1 ? models[0] : undefined);
  const vllm = num(mine?.max_model_len);
  if (vllm) return { contextTokens: vllm, contextSource: 'max_model_len in /v1/models (vLLM)' };
  const root = rootOf(cfg.baseURL);
  const props = (await getJson(`${root}/props`).catch(() => undefined)) as Record<string, unknown> | undefined;
  const settings = props?.default_generation_settings as Record<string, unknown> | undefined;
  const nCtx = num(settings?.n_ctx) ?? num(props?.n_ctx);
  if (nCtx) {
    const slots = num(props?.total_slots);
    // llama.cpp divides -c among its -np slots: one request gets its slot's share.
    return { contextTokens: nCtx, contextSource: 'n_ctx of /props (llama.cpp), per slot', ...(slots ? { slots } : {}) };
  }
  const show = (await getJson(`${root}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: cfg.model }),
  }).catch(() => undefined)) as Record<string, unknown> | undefined;
  if (show) {
    const param = /(^|\n)\s*num_ctx\s+(\d+)/.exec(String(show.parameters ?? ''));
    // Ollama's own default context, when the model's parameters do not set one, is small.
    return {
      contextTokens: param ? Number(param[2]) : 2048,
      contextSource: param ? 'num_ctx of /api/show (Ollama)' : "Ollama's default num_ctx (the model sets none)",
    };
  }
  return {};
}

type Call = (body: Omit<OpenAI.ChatCompletionCreateParamsNonStreaming, 'model'>) => Promise<OpenAI.ChatCompletion>;

function toolSupport(completion: OpenAI.ChatCompletion): ToolSupport {
  const message = completion.choices?.[0]?.message;
  if (message?.tool_calls?.some((c) => c.function?.name === TOOL.function.name)) return 'calls';
  return textToolCalls(message?.content, [TOOL.function.name]).calls.length ? 'text-calls' : 'none';
}

async function toolProbe(call: Call, choice: 'auto' | 'required'): Promise<{ support: ToolSupport; detail?: string }> {
  try {
    const completion = await call({
      messages: [{ role: 'user', content: 'Record the colour blue with the record_colour tool.' }],
      tools: [TOOL],
      tool_choice: choice,
      max_tokens: 64,
    });
    return { support: toolSupport(completion) };
  } catch (err) {
    const e = toModelError(err);
    const refused = e instanceof ModelUnavailable && [400, 404, 422].includes(e.status ?? 0);
    return { support: refused ? 'refused' : 'error', detail: errorMessage(e) };
  }
}

/** Asks the endpoint what it can do; never throws (an unreachable endpoint is a fact too). */
export async function probeEndpoint(
  cfg: ModelClientConfig,
  opts: { overflowUpTo?: number } = {},
): Promise<EndpointFacts> {
  const facts: EndpointFacts = { baseURL: cfg.baseURL, model: cfg.model, models: [] };
  let listing: unknown;
  try {
    listing = await getJson(`${cfg.baseURL.replace(/\/+$/, '')}/models`, {
      headers: { authorization: `Bearer ${cfg.apiKey}` },
    });
    facts.models = ((listing as { data?: { id?: unknown }[] })?.data ?? []).map((m) => String(m.id));
  } catch (err) {
    facts.unreachable = `GET ${cfg.baseURL.replace(/\/+$/, '')}/models: ${errorMessage(err)}`;
    return facts;
  }
  Object.assign(facts, await contextOf(cfg, listing));
  const client = openaiClient({ ...cfg, maxRetries: 0 });
  const call: Call = (body) => client.chat.completions.create({ model: cfg.model, temperature: 0, ...body });

  const started = Date.now();
  try {
    const answer = await call({
      messages: [{ role: 'user', content: 'Answer with the single word: ready' }],
      max_tokens: 16,
    });
    facts.chat = {
      ok: true,
      ms: Date.now() - started,
      answeredAs: answer.model,
      usageReported: usageOf(answer.usage).promptTokens > 0,
    };
  } catch (err) {
    facts.chat = { ok: false, ms: Date.now() - started, error: errorMessage(toModelError(err)), usageReported: false };
    return facts; // no plain answer: the other calls would fail the same way
  }

  const [auto, required] = [await toolProbe(call, 'auto'), await toolProbe(call, 'required')];
  facts.tools = { auto: auto.support, required: required.support, detail: auto.detail ?? required.detail };

  try {
    const answer = await call({
      messages: [{ role: 'user', content: 'Answer with a JSON object {"colour": "blue"} and nothing else.' }],
      response_format: { type: 'json_object' },
      max_tokens: JSON_LIMIT,
    });
    const content = answer.choices?.[0]?.message?.content ?? '';
    if (answer.choices?.[0]?.finish_reason === 'length') {
      facts.json = {
        ok: false,
        detail: `the model did not stop after a short JSON object (cut at ${JSON_LIMIT} tokens): ${JSON.stringify(content.slice(0, 60))}`,
      };
    } else {
      try {
        JSON.parse(content.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1'));
        facts.json = { ok: true };
      } catch {
        facts.json = { ok: false, detail: `not JSON: ${JSON.stringify(content.slice(0, 80))}` };
      }
    }
  } catch (err) {
    facts.json = { ok: false, detail: errorMessage(toModelError(err)) };
  }

  try {
    const answer = await call({
      messages: [{ role: 'user', content: 'Count from one to fifty in words, separated by spaces.' }],
      max_tokens: CUT_LIMIT,
    });
    facts.cut = {
      finishReason: answer.choices?.[0]?.finish_reason ?? '',
      completionTokens: usageOf(answer.usage).completionTokens,
    };
  } catch (err) {
    facts.cut = { finishReason: '', completionTokens: 0, error: errorMessage(toModelError(err)) };
  }

  // Only where the context is known and small enough to exceed cheaply (a server tokenizes, it does not answer).
  const ctx = facts.contextTokens;
  if (ctx && ctx <= (opts.overflowUpTo ?? 65_536)) {
    const words = Math.ceil(ctx * 1.5);
    const sentApprox = words;
    try {
      const answer = await call({
        messages: [{ role: 'user', content: `${'word '.repeat(words)}\nAnswer: ok` }],
        max_tokens: 4,
      });
      const read = usageOf(answer.usage).promptTokens;
      facts.overflow =
        read && read * 1.5 < sentApprox
          ? {
              outcome: 'silently-cut',
              detail: `sent about ${sentApprox} tokens, the server read ${read} and answered 200`,
            }
          : { outcome: 'answered', detail: `sent about ${sentApprox} tokens; the server answered (it read ${read})` };
    } catch (err) {
      const e = toModelError(err);
      facts.overflow =
        e instanceof ContextOverflow
          ? { outcome: 'refused', detail: errorMessage(e) }
          : { outcome: 'other-error', detail: errorMessage(e) };
    }
  }
  return facts;
}
