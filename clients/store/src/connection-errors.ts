import { FarmError, errorMessage } from '@farm/runtime';

/** The database could not be reached or dropped the connection (e.g. it restarted): trying again can help. */
export class StoreUnavailable extends FarmError {
  constructor(message: string, cause: unknown) {
    super(message, { retryable: true, outage: true, cause });
  }
}

// SQLSTATE class 08 (connection exception) and the server going away or not accepting connections yet.
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const DRIVER_MESSAGES = [
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/** Whether `err` says the connection failed, not the statement: the same statement can succeed later. */
export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || SERVER_GOING_AWAY.has(code) || SOCKET_CODES.has(code)))
      return true;
    // A pool's connect error can be an AggregateError of one per address tried.
    if (e instanceof AggregateError && e.errors.some(isConnectionError)) return true;
    if (DRIVER_MESSAGES.some((re) => re.test(errorMessage(e)))) return true;
  }
  return false;
}

/** A connection failure becomes a retryable StoreUnavailable; any other error is left as it is. */
export function asStoreError(err: unknown): unknown {
  return isConnectionError(err) ? new StoreUnavailable(`database unavailable: ${errorMessage(err)}`, err) : err;
}
