import { FarmError } from '@farm/runtime';

export interface SymbolConflict {
  symbol: string;
  holder: string;
}

/** A symbol is held by another task. Not retryable as is: wait for the holder, or plan around the symbol. */
export class LeaseConflict extends FarmError {
  readonly symbol: string;
  readonly holder: string;
  constructor(
    readonly repo: string,
    readonly conflicts: SymbolConflict[],
  ) {
    const [first] = conflicts;
    const more = conflicts.length > 1 ? ` (and ${conflicts.length - 1} more symbols)` : '';
    super(`symbol ${first.symbol} of ${repo} is held by ${first.holder}${more}`, {
      retryable: false,
      details: { repo, conflicts },
    });
    this.symbol = first.symbol;
    this.holder = first.holder;
  }
}

export type LeaseLostReason = 'expired' | 'released' | 'stale_token';

/** The lease expired, was released, or the caller's fencing token is not the lease's: stop editing. */
export class LeaseLost extends FarmError {
  constructor(
    readonly leaseId: string,
    readonly reason: LeaseLostReason,
  ) {
    super(`lease ${leaseId} is lost (${reason.replace('_', ' ')})`, { retryable: false, details: { leaseId, reason } });
  }
}

export class LeaseNotFound extends FarmError {
  constructor(readonly leaseId: string) {
    super(`lease ${leaseId} does not exist`, { retryable: false, details: { leaseId } });
  }
}

/** The request itself is malformed; the message lists each problem. */
export class InvalidLeaseRequest extends FarmError {
  constructor(readonly problems: string[]) {
    super(`invalid lease request: ${problems.join('; ')}`, { retryable: false, details: { problems } });
  }
}

/**
 * The srm service could not be reached or failed; trying again later can help. `outage` when it is away (not
 * reached, or 503: its database is), as opposed to an answer it could not give for this request.
 */
export class SrmUnavailable extends FarmError {
  constructor(message: string, cause?: unknown, outage = false) {
    super(message, { retryable: true, outage, cause });
  }
}

/** The JSON error body of the srm HTTP API, from which the client rebuilds the typed error. */
export interface SrmErrorBody {
  error: { kind: string; message: string; details: Record<string, unknown> };
}

export function errorToBody(err: FarmError): SrmErrorBody {
  return { error: { kind: err.name, message: err.message, details: err.details } };
}

export function errorFromBody(body: SrmErrorBody, status: number): FarmError {
  const { kind, message, details: d } = body.error;
  switch (kind) {
    case 'LeaseConflict':
      return new LeaseConflict(String(d.repo), d.conflicts as SymbolConflict[]);
    case 'LeaseLost':
      return new LeaseLost(String(d.leaseId), d.reason as LeaseLostReason);
    case 'LeaseNotFound':
      return new LeaseNotFound(String(d.leaseId));
    case 'InvalidLeaseRequest':
      return new InvalidLeaseRequest(d.problems as string[]);
    default:
      return status >= 500
        ? new SrmUnavailable(`srm failed (${status}): ${message}`, undefined, status === 503)
        : new FarmError(`srm refused the request (${status}): ${message}`, { retryable: false, details: d });
  }
}
