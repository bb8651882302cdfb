import { FarmError } from '@farm/runtime';

/**
 * The farm's HTTP API refused or could not serve a request: the HTTP status and, when one field is to blame,
 * its name (`repo.url`), from the server's `{"error": {"message", "field"}}`. Retrying helps only for 5xx
 * and 429.
 */
export class ApiError extends FarmError {
  readonly status: number;
  readonly field?: string;
  constructor(status: number, message: string, field?: string) {
    super(message, { retryable: status >= 500 || status === 429, details: { status, field } });
    this.status = status;
    this.field = field;
  }
}

/** The farm's HTTP API could not be reached at all (refused, reset, DNS): worth retrying. */
export class ApiUnreachable extends FarmError {
  constructor(url: string, cause: unknown) {
    super(`cannot reach the orchestrator at ${url}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      retryable: true,
      cause,
      details: { url },
    });
  }
}

/** The server's `{"error": {"message", "field"}}` as an ApiError, or whatever a proxy in between answered. */
export function apiErrorFrom(status: number, statusText: string, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; field?: unknown } };
    if (typeof body.error?.message === 'string') {
      return new ApiError(
        status,
        body.error.message,
        typeof body.error.field === 'string' ? body.error.field : undefined,
      );
    }
  } catch {
    // not JSON: reported below with the text itself
  }
  return new ApiError(status, `HTTP ${status}: ${text.slice(0, 200) || statusText}`);
}
