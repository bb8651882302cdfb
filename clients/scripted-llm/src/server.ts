import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { PromptCache } from './prompt-cache';
import { validateModelScript, type ModelScript, type ScriptStep } from './script';

export interface RecordedChatRequest {
  at: string;
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  response_format?: unknown;
  temperature?: number;
  /** The output limit it sent (max_tokens or max_completion_tokens), if any. */
  maxTokens?: number;
  /** Names of the tools the request offered (empty without tools). */
  tools: string[];
  /** Index in the script of the step that answered; null when none matched. */
  step: number | null;
  outcome: 'answer' | 'tool-calls' | 'fault' | 'malformed' | 'no-step' | 'mismatch';
  /** Why the step's tool calls did not fit the offered tools (outcome 'mismatch'). */
  mismatch?: string;
}

export interface ScriptedModelServer {
  /** Ends with /v1, ready for `new OpenAI({ baseURL })`. */
  baseURL: string;
  /** Live list of every chat request received, in order (except the refused tool requests below). */
  requests: RecordedChatRequest[];
  /**
   * Requests that offered tools to a script without any tool-call step: refused with 400 `tools_unsupported`,
   * as an endpoint without tool calling does, so a client can fall back to plain answers.
   */
  refusedToolRequests: number;
  /** Swaps the script and forgets which steps were consumed; recorded requests are kept. */
  setScript(s: ModelScript): void;
  close(): Promise<void>;
}

/** What the handlers read from request bodies; every field may be missing or of the wrong type. */
interface OfferedTool {
  type?: string;
  function?: { name?: string; parameters?: JsonSchema };
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
}
interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: unknown }>;
  tools?: OfferedTool[];
  response_format?: unknown;
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
}
interface EmbeddingsBody {
  model?: string;
  input?: unknown;
  dimensions?: number;
  encoding_format?: string;
}

const MODEL_ID = 'scripted-model';

/** Rough token count (~4 chars a token) so callers that log or budget usage see plausible numbers. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Text of a message's content, whether a plain string or OpenAI content parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('\n');
  return '';
}

/**
 * Deterministic hashed bag-of-words embedding: each lower-cased word adds ±1 to a bucket chosen by FNV-1a,
 * then the vector is L2-normalised. Texts sharing words get a high cosine similarity, which is all retrieval
 * tests need, and the same text always gives the same vector.
 */
export function hashedEmbedding(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0;
    v[h % dimensions] += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

const typeOf = (v: unknown): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v;

/** Why `value` does not fit `schema` (the subset tool schemas use), or undefined when it does. */
export function schemaMismatch(value: unknown, schema: JsonSchema | undefined, at = 'arguments'): string | undefined {
  if (!schema?.type) return undefined;
  const actual = typeOf(value);
  const fits = schema.type === actual || (schema.type === 'number' && actual === 'integer');
  if (!fits) return `${at} should be ${schema.type}, is ${actual}`;
  if (schema.type === 'array' && schema.items) {
    for (const [i, item] of (value as unknown[]).entries()) {
      const problem = schemaMismatch(item, schema.items, `${at}[${i}]`);
      if (problem) return problem;
    }
  }
  if (schema.type !== 'object') return undefined;
  const obj = value as Record<string, unknown>;
  for (const name of schema.required ?? []) if (!(name in obj)) return `${at}.${name} is required`;
  for (const [name, v] of Object.entries(obj)) {
    const prop = schema.properties?.[name];
    if (!prop) {
      if (schema.additionalProperties === false) return `${at}.${name} is not a parameter of the tool`;
      continue;
    }
    const problem = schemaMismatch(v, prop, `${at}.${name}`);
    if (problem) return problem;
  }
  return undefined;
}

export async function startScriptedModelServer(opts: {
  script: ModelScript;
  port?: number;
  host?: string;
}): Promise<ScriptedModelServer> {
  let script = validateModelScript(opts.script);
  let consumed = new Set<number>();
  const requests: RecordedChatRequest[] = [];
  let refusedToolRequests = 0;
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return; // the client gave up (timeout); nothing to answer
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const apiError = (message: string, type: string, code: string | number | null) => ({
    error: { message, type, param: null, code },
  });

  const takeStep = (text: string, last: string, offersTools: boolean): number | null => {
    const i = script.chat.findIndex(
      (s, i) =>
        !consumed.has(i) &&
        (s.match === undefined || text.includes(s.match)) &&
        (s.matchLast === undefined || last.includes(s.matchLast)) &&
        // a tool-calling step answers only a request that offers tools (not, say, the reviewer's call)
        (s.toolCalls === undefined || offersTools),
    );
    if (i < 0) return null;
    if (!script.chat[i].repeat) consumed.add(i);
    return i;
  };

  const promptCache = new PromptCache();
  async function chat(body: ChatBody, res: http.ServerResponse) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const prompt = messages.map((m) => contentText(m?.content)).join('\n');
    const offered = new Map<string, JsonSchema | undefined>();
    for (const t of Array.isArray(body.tools) ? body.tools : []) {
      if (t?.type === 'function' && typeof t.function?.name === 'string')
        offered.set(t.function.name, t.function.parameters);
    }
    // As llama-server with -c: a prompt its context cannot hold is refused before any step is taken.
    const promptTokensAll = estimateTokens(prompt) + estimateTokens(JSON.stringify(body.tools ?? []));
    if (script.contextTokens && promptTokensAll >= script.contextTokens) {
      return send(res, 400, {
        error: {
          code: 400,
          message: `request (${promptTokensAll} tokens) exceeds the available context size (${script.contextTokens} tokens), try increasing it`,
          type: 'exceed_context_size_error',
          n_prompt_tokens: promptTokensAll,
          n_ctx: script.contextTokens,
        },
      });
    }
    // As vLLM with --max-model-len: the prompt and the output limit asked for must fit together.
    const asked = body.max_tokens ?? body.max_completion_tokens ?? 0;
    if (script.maxModelLen && promptTokensAll + asked > script.maxModelLen) {
      const message =
        promptTokensAll >= script.maxModelLen
          ? `This model's maximum context length is ${script.maxModelLen} tokens. However, you requested ${promptTokensAll + asked} tokens (${promptTokensAll} in the messages, ${asked} in the completion). Please reduce the length of the messages or completion.`
          : `'max_tokens' is too large: ${asked}. This model's maximum context length is ${script.maxModelLen} tokens and your request has ${promptTokensAll} input tokens (${asked} > ${script.maxModelLen} - ${promptTokensAll}).`;
      return send(res, 400, { object: 'error', message, type: 'BadRequestError', param: null, code: 400 });
    }
    if (offered.size > 0 && !script.chat.some((s) => s.toolCalls)) {
      refusedToolRequests++;
      return send(
        res,
        400,
        apiError(
          'this scripted model does not support tools (its script has no tool calls)',
          'invalid_request_error',
          'tools_unsupported',
        ),
      );
    }
    const index = takeStep(prompt, contentText(messages.at(-1)?.content), offered.size > 0);
    const step: ScriptStep | undefined = index === null ? undefined : script.chat[index];
    // The script says which tools the model calls; the request must offer them, with fitting parameters.
    let mismatch: string | undefined;
    for (const call of step?.toolCalls ?? []) {
      mismatch = !offered.has(call.name)
        ? `tool ${call.name} was not offered (offered: ${[...offered.keys()].join(', ')})`
        : typeof call.arguments === 'string'
          ? undefined // raw arguments (a broken-JSON fault) are sent unchecked
          : schemaMismatch(call.arguments, offered.get(call.name), `${call.name}.arguments`);
      if (mismatch) break;
    }
    const outcome: RecordedChatRequest['outcome'] = !step
      ? 'no-step'
      : mismatch
        ? 'mismatch'
        : step.fault?.status
          ? 'fault'
          : step.fault?.malformed || step.fault?.emptyChoices
            ? 'malformed'
            : step.toolCalls
              ? 'tool-calls'
              : 'answer';
    requests.push({
      at: new Date().toISOString(),
      model: String(body.model ?? ''),
      messages,
      response_format: body.response_format,
      temperature: body.temperature,
      ...(typeof (body.max_tokens ?? body.max_completion_tokens) === 'number'
        ? { maxTokens: body.max_tokens ?? body.max_completion_tokens }
        : {}),
      tools: [...offered.keys()],
      step: index,
      outcome,
      ...(mismatch ? { mismatch } : {}),
    });
    if (mismatch) {
      return send(
        res,
        400,
        apiError(`scripted step ${index}: ${mismatch}`, 'invalid_request_error', 'script_mismatch'),
      );
    }
    if (!step) {
      // 400 rather than 404 so the openai client neither retries nor hides it: a test script is missing a step.
      return send(
        res,
        400,
        apiError('scripted model has no step for this request', 'invalid_request_error', 'no_scripted_step'),
      );
    }
    const fault = step.fault ?? {};
    if (fault.delayMs) await sleep(fault.delayMs);
    if (fault.status) {
      const type =
        fault.status === 429 ? 'rate_limit_exceeded' : fault.status >= 500 ? 'server_error' : 'invalid_request_error';
      const headers: Record<string, string> =
        fault.retryAfterMs !== undefined ? { 'retry-after-ms': String(fault.retryAfterMs) } : {};
      return send(res, fault.status, apiError(`scripted fault ${fault.status}`, type, fault.status), headers);
    }
    if (fault.malformed) return send(res, 200, '{"id": "chatcmpl-broken", "choices": [');
    if (fault.emptyChoices) {
      return send(res, 200, {
        id: 'chatcmpl-empty',
        object: 'chat.completion',
        created: 0,
        model: MODEL_ID,
        choices: [],
      });
    }
    const toolCalls = step.toolCalls?.map((c, i) => ({
      id: `call_${requests.length}_${i}`,
      type: 'function',
      function: {
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      },
    }));
    const content = toolCalls ? (step.content ?? null) : (step.content ?? JSON.stringify(step.answer));
    const promptTokens = Math.min(
      step.usage?.promptTokens ?? estimateTokens(prompt),
      script.readsPromptTokens ?? Number.POSITIVE_INFINITY,
    );
    const cachedTokens = step.usage
      ? (step.usage.cachedTokens ?? 0)
      : promptCache.cachedTokens(JSON.stringify([body.tools ?? [], messages]), promptTokens);
    const completionTokens = step.usage?.completionTokens ?? estimateTokens(content ?? JSON.stringify(toolCalls));
    send(res, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: script.answeredModel ?? (typeof body.model === 'string' ? body.model : MODEL_ID),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
          logprobs: null,
          finish_reason: step.finishReason === 'length' ? 'length' : toolCalls ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        ...(cachedTokens ? { prompt_tokens_details: { cached_tokens: cachedTokens } } : {}),
      },
    });
  }

  function embeddings(body: EmbeddingsBody, res: http.ServerResponse) {
    const input: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
    if (!input.every((t) => typeof t === 'string')) {
      return send(res, 400, apiError('input must be a string or an array of strings', 'invalid_request_error', null));
    }
    const asked = body.dimensions;
    const dims =
      typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? asked : (script.embeddingDimensions ?? 64);
    // The openai client asks for base64 (packed little-endian float32) unless told otherwise.
    const base64 = body.encoding_format === 'base64';
    const data = (input as string[]).map((text, index) => {
      const vec = hashedEmbedding(text, dims);
      const embedding = base64 ? Buffer.from(new Float32Array(vec).buffer).toString('base64') : vec;
      return { object: 'embedding', index, embedding };
    });
    const tokens = (input as string[]).reduce((n, t) => n + estimateTokens(t), 0);
    send(res, 200, {
      object: 'list',
      data,
      model: body.model ?? MODEL_ID,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const server = http.createServer(async (req, res) => {
    try {
      const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
      if (req.method === 'GET' && path === '/v1/models') {
        return send(res, 200, {
          object: 'list',
          data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'agent-farm' }],
        });
      }
      if (req.method === 'GET' && path === '/_scripted/requests') return send(res, 200, requests);
      // As llama-server tells its context (per slot) and slots, when the script plays one.
      if (req.method === 'GET' && path === '/props' && script.contextTokens) {
        return send(res, 200, {
          default_generation_settings: { n_ctx: script.contextTokens },
          total_slots: script.slots ?? 1,
          model_path: script.answeredModel ?? MODEL_ID,
        });
      }
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/embeddings')) {
        return send(res, 404, apiError(`no route ${req.method} ${path}`, 'invalid_request_error', 'unknown_url'));
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      // Clients are not trusted to send the right shape; each handler reads fields defensively.
      let body: ChatBody & EmbeddingsBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) ?? {};
      } catch {
        return send(res, 400, apiError('request body is not valid JSON', 'invalid_request_error', null));
      }
      if (path === '/v1/embeddings') return embeddings(body, res);
      await chat(body, res);
    } catch (err) {
      send(res, 500, apiError(`scripted server error: ${(err as Error).message}`, 'server_error', null));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as { address: string; port: number };
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    baseURL: `http://${host}:${port}/v1`,
    requests,
    get refusedToolRequests() {
      return refusedToolRequests;
    },
    setScript(s) {
      script = validateModelScript(s);
      consumed = new Set();
    },
    close() {
      // Delayed answers and keep-alive sockets would otherwise hold close() open.
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
