import { FarmError } from '@farm/runtime';
import type { TokenUsage } from './token-usage';

/** The model answered, but not with `{diff, reasoning}` JSON. Retryable: sampling again often fixes it. */
export class ModelAnswerInvalid extends FarmError {
  /** The offending content, trimmed and cut to a loggable size. */
  readonly raw: string;
  /** What the answer cost, when it came from a call (it was paid for, whatever it held). */
  usage?: TokenUsage;
  /** The name the server answered with, when it differs from the configured one. */
  servedBy?: string;
  constructor(message: string, raw: string, options: { cause?: unknown } = {}) {
    const trimmed = raw.trim().slice(0, 2000);
    super(message, { retryable: true, details: { raw: trimmed }, cause: options.cause });
    this.raw = trimmed;
  }
}

/** The model API could not give an answer (HTTP error, timeout, broken response). */
export class ModelUnavailable extends FarmError {
  /** HTTP status when the API answered with one; undefined for timeouts and connection failures. */
  readonly status?: number;
  constructor(
    message: string,
    options: { status?: number; retryable: boolean; cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, {
      retryable: options.retryable,
      cause: options.cause,
      details: { status: options.status, ...options.details },
    });
    this.status = options.status;
  }
}

/**
 * The model API answered, but with a body the client cannot use: not JSON, no choices, or tool call arguments
 * that are not JSON. Retryable, like a 5xx: the clients ask again (`retryMalformedAnswers`) before giving up.
 */
export class ModelResponseMalformed extends ModelUnavailable {
  /** Answers received, all malformed (1 until the retries ran out). */
  readonly attempts: number;
  constructor(
    message: string,
    options: { cause?: unknown; attempts?: number; details?: Record<string, unknown> } = {},
  ) {
    super(message, { retryable: true, cause: options.cause, details: { malformed: true, ...options.details } });
    this.attempts = options.attempts ?? 1;
  }
}

/**
 * The request does not fit the server's context (llama.cpp's "exceeds the available context size", vLLM's and
 * OpenAI's "maximum context length", a prompt the server counted far shorter than sent). Not a refusal of tool
 * calls, and not retryable as it is: the caller shrinks the conversation or says what to change.
 */
export class ContextOverflow extends ModelUnavailable {
  readonly contextTokens?: number;
  readonly promptTokens?: number;
  constructor(
    message: string,
    options: { status?: number; contextTokens?: number; promptTokens?: number; cause?: unknown } = {},
  ) {
    super(message, {
      status: options.status,
      retryable: false,
      cause: options.cause,
      details: { contextOverflow: true, contextTokens: options.contextTokens, promptTokens: options.promptTokens },
    });
    this.contextTokens = options.contextTokens;
    this.promptTokens = options.promptTokens;
  }
}

/**
 * The answer stopped at the output limit (finish_reason `length`) before it was whole: never parsed as if it
 * were. Retryable like any unreadable answer; its message says it was cut and at what limit.
 */
export class ModelAnswerCut extends ModelAnswerInvalid {
  readonly outputTokens: number;
  readonly limit?: number;
  constructor(raw: string, opts: { outputTokens: number; limit?: number }) {
    super(
      `the answer was cut at the output limit (${opts.outputTokens} tokens${opts.limit ? ` of max ${opts.limit}` : ''}, finish_reason length) before it was complete`,
      raw,
    );
    this.outputTokens = opts.outputTokens;
    this.limit = opts.limit;
  }
}
