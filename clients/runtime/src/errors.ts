export interface FarmErrorOptions {
  /** Whether trying the same thing again can help: every throw says so. */
  retryable: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Base of every typed error in the farm. `retryable` tells the bus (and callers) whether trying the same
 * thing again can help; a non-retryable handler error sends the message to the dead-letter topic at once.
 * It has no default: each throw states it.
 */
export class FarmError extends Error {
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  constructor(message: string, options: FarmErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryable = options.retryable;
    this.details = options.details ?? {};
  }
}

/** A setting is missing or malformed; the process cannot start. Never retryable. */
export class ConfigError extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false });
  }
}

/** A message could not be decoded into its contract. Never retryable. */
export class DecodeError extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false });
  }
}

export function isRetryable(err: unknown): boolean {
  if (err instanceof FarmError) return err.retryable;
  return true; // unknown failures (I/O, timeouts) get the bus's bounded retries
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
