import { z } from '@farm/runtime';
import { InvalidLeaseRequest } from './errors';

/**
 * ACTIVE: granted, blocks the symbol until expiresAt (judged by the database clock).
 * CLAIMED: the holder pushed its commit; it keeps blocking the symbol, without expiring, until the
 *   orchestrator releases it after the build has integrated the branch (so no other task edits the symbol
 *   between the push and the merge). Claimed leases of a request that is abandoned are freed with
 *   releaseForChangeRequest.
 * RELEASED, EXPIRED: history; they block nothing.
 */
export type LeaseState = 'ACTIVE' | 'CLAIMED' | 'RELEASED' | 'EXPIRED';

export interface Lease {
  id: string;
  repo: string;
  symbol: string;
  /** The coding task id. */
  holder: string;
  changeRequestId: string;
  /** A bigint as a decimal string; every grant gets a larger one than any before it. */
  fencingToken: string;
  state: LeaseState;
  /** Meaningful while ACTIVE; a CLAIMED lease does not expire. */
  expiresAt: Date;
  commitSha?: string;
}

const text = (max: number) => z.string().trim().min(1).max(max);
const fencingToken = z.string().regex(/^\d{1,19}$/, 'a decimal bigint');
/** Up to a day: a holder that needs longer renews, so a crashed one frees its symbols reasonably soon. */
const ttlSeconds = z.number().positive().max(86_400);

export const reserveRequestSchema = z.object({
  repo: text(2000),
  symbols: z.array(text(1000)).min(1).max(1000),
  holder: text(200),
  changeRequestId: text(200),
  ttlSeconds,
});
export const renewRequestSchema = z.object({ fencingToken, ttlSeconds });
export const claimRequestSchema = z.object({ fencingToken, commitSha: z.string().regex(/^[0-9a-f]{7,64}$/i) });
export const releaseRequestSchema = z.object({ fencingToken: fencingToken.optional() });
export const leaseFilterSchema = z.object({
  repo: text(2000).optional(),
  holder: text(200).optional(),
  changeRequestId: text(200).optional(),
});

export type ReserveRequest = z.infer<typeof reserveRequestSchema>;
export type LeaseFilter = z.infer<typeof leaseFilterSchema>;

/** Leases on (repo, symbol) so that two coding tasks never edit the same symbol at once. */
export interface SymbolLeases {
  /** All or nothing: every symbol is granted, or LeaseConflict names a symbol and its holder and none is. */
  reserve(req: ReserveRequest): Promise<Lease[]>;
  /** Extends an ACTIVE lease to now + ttl; LeaseLost when it expired, was released or the token is stale. */
  renew(leaseId: string, fencingToken: string, ttlSeconds: number): Promise<Lease>;
  /** Marks the holder's commit as pushed; LeaseLost as for renew. Repeating it with the same token is fine. */
  claim(leaseId: string, fencingToken: string, commitSha: string): Promise<Lease>;
  /** Idempotent: releasing a released or expired lease does nothing; LeaseNotFound for an unknown id. */
  release(leaseId: string, fencingToken?: string): Promise<void>;
  /** Releases every live lease of a task; returns how many. */
  releaseHolder(holder: string): Promise<number>;
  /** Releases every live lease of a change request (all its tasks); returns how many. */
  releaseForChangeRequest(changeRequestId: string): Promise<number>;
  /** ACTIVE unexpired and CLAIMED leases, ordered by repo and symbol. */
  liveLeases(filter?: LeaseFilter): Promise<Lease[]>;
}

/** The wire shape: the same fields with expiresAt as an ISO string. */
export type LeaseJson = Omit<Lease, 'expiresAt'> & { expiresAt: string };

export const leaseToJson = (l: Lease): LeaseJson => ({ ...l, expiresAt: l.expiresAt.toISOString() });
export const leaseFromJson = (l: LeaseJson): Lease => ({ ...l, expiresAt: new Date(l.expiresAt) });

/** Validates a request against its schema; InvalidLeaseRequest lists every problem. */
export function parseRequest<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new InvalidLeaseRequest(r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`));
  }
  return r.data;
}
