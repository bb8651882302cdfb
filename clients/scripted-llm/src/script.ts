import { readFile } from 'node:fs/promises';
import { FarmError, z, type FarmErrorOptions } from '@farm/runtime';

/** Makes the scripted model misbehave the way real providers do, so clients' error paths can be tested. */
export interface ScriptFault {
  /** Answer with this HTTP status and an OpenAI-style error body (e.g. 429, 500). */
  status?: number;
  /** Wait this long before answering (or before the fault), to exercise client timeouts. */
  delayMs?: number;
  /** Answer 200 with a body that is not valid JSON. */
  malformed?: boolean;
  /** Answer 200 with a well-formed completion that has no choices. */
  emptyChoices?: boolean;
  /** Sent as `retry-after-ms` with a status fault; the openai client honours it, so retry tests stay fast. */
  retryAfterMs?: number;
}

/** A tool call the scripted model makes; the server checks it against the tools the request offers. */
export interface ScriptToolCall {
  name: string;
  /** An object is sent as JSON and checked against the tool's schema; a string is sent as is (e.g. broken JSON). */
  arguments: Record<string, unknown> | string;
}

export interface ScriptStep {
  /** Substring that must occur in the request's joined message contents. */
  match?: string;
  /** Substring that must occur in the request's last message (e.g. the latest tool result). */
  matchLast?: string;
  /** Answer with these tool calls (content, when also given, is the text beside them). */
  toolCalls?: ScriptToolCall[];
  /** Report this usage instead of the estimate from the text's length (budget tests). */
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number };
  /** A repeating step is never consumed. */
  repeat?: boolean;
  /** The answer stopped at the output limit (`length`): its content or calls are cut as given. Default stop. */
  finishReason?: 'stop' | 'length';
  content?: string;
  /** Shorthand: content = JSON.stringify(answer). */
  answer?: { diff: string; reasoning?: string };
  fault?: ScriptFault;
}

export interface ModelScript {
  chat: ScriptStep[];
  /**
   * The server's context, as llama-server's -c sets it: a request whose prompt (with its tools) is estimated
   * longer gets llama.cpp's 400 exceed_context_size_error, with both sizes.
   */
  contextTokens?: number;
  /** With contextTokens: the slots llama-server's /props tells (-np). Default 1. */
  slots?: number;
  /**
   * The server's context as vLLM's --max-model-len sets it: a prompt and output limit (max_tokens) that do not
   * fit together get vLLM's 400 "maximum context length is N tokens" with the sizes.
   */
  maxModelLen?: number;
  /**
   * As Ollama does behind HTTP 200: a prompt longer than this is read from its end only, and its usage says so
   * (prompt_tokens at most this); the answer is the step's as usual.
   */
  readsPromptTokens?: number;
  /** The model name every answer gives (llama.cpp answers with its model file's path), whatever was asked. */
  answeredModel?: string;
  /** Length of /v1/embeddings vectors unless the request asks for `dimensions`. Default 64. */
  embeddingDimensions?: number;
}

export class ModelScriptInvalid extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false }); // the script must be edited
  }
}

const stepSchema = z
  .object({
    match: z.string().min(1).optional(),
    matchLast: z.string().min(1).optional(),
    toolCalls: z
      .array(z.object({ name: z.string().min(1), arguments: z.union([z.record(z.unknown()), z.string()]) }).strict())
      .min(1)
      .optional(),
    usage: z
      .object({
        promptTokens: z.number().int().nonnegative(),
        completionTokens: z.number().int().nonnegative(),
        cachedTokens: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
    repeat: z.boolean().optional(),
    finishReason: z.enum(['stop', 'length']).optional(),
    content: z.string().optional(),
    answer: z.object({ diff: z.string(), reasoning: z.string().optional() }).strict().optional(),
    fault: z
      .object({
        status: z.number().int().min(400).max(599).optional(),
        delayMs: z.number().int().nonnegative().optional(),
        malformed: z.boolean().optional(),
        emptyChoices: z.boolean().optional(),
        retryAfterMs: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const outcomes = [
      s.toolCalls !== undefined,
      s.content !== undefined && s.toolCalls === undefined,
      s.answer !== undefined,
      s.fault?.status !== undefined,
      !!s.fault?.malformed,
      !!s.fault?.emptyChoices,
    ];
    const n = outcomes.filter(Boolean).length;
    // A step must say exactly what the model does; a delay alone is not an answer.
    if (n !== 1) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `step needs exactly one of toolCalls, content, answer, fault.status, fault.malformed, fault.emptyChoices (has ${n})`,
      });
    }
  });

const scriptSchema = z
  .object({
    chat: z.array(stepSchema),
    contextTokens: z.number().int().positive().optional(),
    slots: z.number().int().positive().optional(),
    readsPromptTokens: z.number().int().positive().optional(),
    maxModelLen: z.number().int().positive().optional(),
    answeredModel: z.string().min(1).optional(),
    embeddingDimensions: z.number().int().positive().max(8192).optional(),
  })
  .strict();

/** Checks a script's shape; the error lists every problem with its JSON path (e.g. `chat.2.fault.status`). */
export function validateModelScript(value: unknown, source = 'script'): ModelScript {
  const parsed = scriptSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ModelScriptInvalid(`invalid model script ${source}:\n  ${problems.join('\n  ')}`, {
      details: { problems },
    });
  }
  return parsed.data;
}

export async function loadModelScript(file: string): Promise<ModelScript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ModelScriptInvalid(`cannot read model script ${file}: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ModelScriptInvalid(`model script ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return validateModelScript(json, file);
}
