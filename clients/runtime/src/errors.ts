/**
 * Base of every typed error in the farm. `retryable` tells the bus (and callers) whether trying the same
 * thing again can help; a non-retryable handler error sends the message to the dead-letter topic at once.
 */
export class FarmError extends Error {
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  constructor(
    message: string,
    options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** A setting is missing or malformed; the process cannot start. */
export class ConfigError extends FarmError {}

/** A message could not be decoded into its contract. Never retryable. */
export class DecodeError extends FarmError {}

export function isRetryable(err: unknown): boolean {
  if (err instanceof FarmError) return err.retryable;
  return true; // unknown failures (I/O, timeouts) get the bus's bounded retries
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
