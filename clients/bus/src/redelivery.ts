import type { Headers } from './bus';

/**
 * Headers of a message the bus re-published because its handler kept failing with a retryable error. The
 * copy goes to the same topic (same key, so the same partition); only the group it is for handles it.
 */
export const REDELIVERY_HEADERS = {
  /** Handler calls so far, over every delivery of this message to the group. */
  attempts: 'x-farm-redelivery-attempts',
  /** Epoch milliseconds before which the copy is not handled. */
  notBefore: 'x-farm-redelivery-not-before',
  /** The consumer group the copy is for; every other group skips it. */
  group: 'x-farm-redelivery-group',
  /** Where the original message was, for the dead-letter record. */
  firstPosition: 'x-farm-redelivery-first-position',
} as const;

/** Quick tries inside one delivery before the message is handed to a later redelivery. */
export const INLINE_ATTEMPTS = 3;
/** Cap on one in-handler backoff: the tries of one delivery stay far below Kafka's session timeout. */
export const INLINE_BACKOFF_CAP_MS = 1_000;
/** Cap on the delay before a redelivery is handled. */
export const REDELIVERY_DELAY_CAP_MS = 60_000;
/**
 * Longest a consumer holds a copy that is not due yet. A longer remaining delay re-publishes the copy as it
 * is (one message per this interval), so a partition never waits on one message for longer.
 */
export const NOT_BEFORE_HOLD_CAP_MS = 2_000;

/**
 * Cap on the wait between tries of a message held through an outage (see deliverMessage): a service that comes
 * back is noticed within this.
 */
export const OUTAGE_BACKOFF_CAP_MS = 5_000;

/** The wait before the next try of a message held through an outage (try counts from 1). */
export function outageBackoffMs(tryInOutage: number, baseMs: number): number {
  return Math.min(Math.max(baseMs, 100) * 2 ** Math.min(tryInOutage - 1, 16), OUTAGE_BACKOFF_CAP_MS);
}

export interface Redelivery {
  /** Handler calls before this delivery (0 for a message the bus never redelivered). */
  attempts: number;
  notBefore: number;
  /** The group this copy is for; undefined for an original message. */
  group?: string;
  firstPosition?: string;
}

export function readRedelivery(headers: Headers): Redelivery {
  const attempts = Number(headers[REDELIVERY_HEADERS.attempts]);
  const notBefore = Number(headers[REDELIVERY_HEADERS.notBefore]);
  return {
    attempts: Number.isInteger(attempts) && attempts > 0 ? attempts : 0,
    notBefore: Number.isFinite(notBefore) ? notBefore : 0,
    group: headers[REDELIVERY_HEADERS.group] || undefined,
    firstPosition: headers[REDELIVERY_HEADERS.firstPosition] || undefined,
  };
}

/** The wait before the next quick try inside a delivery (try counts from 1). */
export function inlineBackoffMs(tryInDelivery: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (tryInDelivery - 1), INLINE_BACKOFF_CAP_MS);
}

/** The delay before a redelivery after `attempts` handler calls: doubling from the base, capped. */
export function redeliveryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempts - 1), REDELIVERY_DELAY_CAP_MS);
}

/** The headers of the copy to re-publish: the message's own (without older redelivery headers) and ours. */
export function redeliveryHeaders(
  headers: Headers,
  r: { attempts: number; notBefore: number; group: string; firstPosition: string },
): Headers {
  return {
    ...withoutRedeliveryHeaders(headers),
    [REDELIVERY_HEADERS.attempts]: String(r.attempts),
    [REDELIVERY_HEADERS.notBefore]: String(r.notBefore),
    [REDELIVERY_HEADERS.group]: r.group,
    [REDELIVERY_HEADERS.firstPosition]: r.firstPosition,
  };
}

/** A dead letter (or a replay of one) carries the message's own headers only. */
export function withoutRedeliveryHeaders(headers: Headers): Headers {
  const out = { ...headers };
  for (const h of Object.values(REDELIVERY_HEADERS)) delete out[h];
  return out;
}
