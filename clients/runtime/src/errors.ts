export interface FarmErrorOptions {
  /** Whether trying the same thing again can help: every throw says so. */
  retryable: boolean;
  /**
   * A service the work needs is away (the database restarting, ...): the work itself did not fail, and every other
   * piece of work that needs the service fails the same way until it is back. The bus holds such a message in place
   * instead of counting an attempt (see isOutage).
   */
  outage?: boolean;
  /**
   * Not a failure: the work waits for something another piece of work holds (symbols leased by another request) and
   * asks to be called again later. The bus retries it as any retryable error, but logs it as a wait, not a failure.
   */
  waiting?: boolean;
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
  readonly outage: boolean;
  readonly waiting: boolean;
  readonly details: Record<string, unknown>;
  constructor(message: string, options: FarmErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryable = options.retryable;
    this.outage = options.outage ?? false;
    this.waiting = options.waiting ?? false;
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

/**
 * Whether `err` is retryable and it, or an error it was caused by, says a service the work needs is away
 * (FarmErrorOptions.outage): trying later helps, and counting it against the work would not be fair.
 */
export function isOutage(err: unknown): boolean {
  if (!isRetryable(err)) return false;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof FarmError && e.outage) return true;
  }
  return false;
}

/** Whether `err` is retryable and says the work only waits (FarmErrorOptions.waiting): not to be logged as a failure. */
export function isWaiting(err: unknown): boolean {
  return err instanceof FarmError && err.retryable && err.waiting;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
