import { FarmError } from '@farm/runtime';

/**
 * A request the HTTP API refused or could not serve, with the HTTP status and, when one field is to blame,
 * its name (`repo.url`). The server renders it as `{"error": {"message", "field"}}`; the client raises it
 * from such an answer. Retrying helps only for 5xx and 429.
 */
export class ApiError extends FarmError {
  readonly status: number;
  readonly field?: string;
  constructor(status: number, message: string, field?: string) {
    super(message, { retryable: status >= 500 || status === 429, details: { status, field } });
    this.status = status;
    this.field = field;
  }

  toBody(): { error: { message: string; field?: string } } {
    return { error: this.field ? { message: this.message, field: this.field } : { message: this.message } };
  }
}

/** The orchestrator's HTTP API could not be reached at all (refused, reset, DNS): worth retrying. */
export class ApiUnreachable extends FarmError {
  constructor(url: string, cause: unknown) {
    super(`cannot reach the orchestrator at ${url}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      retryable: true,
      cause,
      details: { url },
    });
  }
}

export const badRequest = (message: string, field?: string) => new ApiError(400, message, field);
export const notFound = (message: string) => new ApiError(404, message);
