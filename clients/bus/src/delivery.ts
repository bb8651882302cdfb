import {
  DecodeError,
  causedByStopping,
  errorMessage,
  isOutage,
  isRetryable,
  isWaiting,
  type Logger,
} from '@farm/runtime';
import type { Handler, RawMessage, SubscribeOptions } from './bus';
import { decodeMessage } from './codec';
import type { TopicSpec } from './topics';
import { busMetrics } from './metrics';
import {
  INLINE_ATTEMPTS,
  NOT_BEFORE_HOLD_CAP_MS,
  inlineBackoffMs,
  outageBackoffMs,
  readRedelivery,
  redeliveryDelayMs,
  redeliveryHeaders,
  withoutRedeliveryHeaders,
} from './redelivery';

export const DLQ_HEADERS = {
  error: 'x-farm-error',
  errorKind: 'x-farm-error-kind',
  sourceTopic: 'x-farm-source-topic',
  group: 'x-farm-consumer-group',
  attempts: 'x-farm-attempts',
  position: 'x-farm-source-position',
} as const;

/** How a delivery hands a message on: to the dead-letter topic, or back to its own topic for later. */
export interface DeliveryOutlets {
  deadLetter(raw: RawMessage, headers: Record<string, string>): Promise<void>;
  /** Publishes the message again to its topic, with its key, carrying `headers`. */
  redeliver(raw: RawMessage, headers: Record<string, string>): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Longest a handler cut short by the process stopping waits for its bus to stop before handing back its message. */
const STOPPING_HAND_BACK_WAIT_MS = 1_000;

async function waitFor(condition: () => boolean, forMs: number): Promise<void> {
  for (const deadline = Date.now() + forMs; !condition() && Date.now() < deadline;) await sleep(50);
}

/** A message held in place while a service its handler needs is away; logged and measured once per outage. */
class OutageHold {
  private tries = 0;
  private since = 0;
  constructor(
    private readonly raw: RawMessage,
    private readonly group: string,
    private readonly log: Logger,
  ) {}

  /** Waits before the next try; false when the bus began to stop meanwhile (the message is then handed back). */
  async wait(err: unknown, backoffMs: number, isStopping: () => boolean): Promise<boolean> {
    if (this.tries++ === 0) {
      this.since = Date.now();
      busMetrics.heldByOutage.inc({ topic: this.raw.topic, group: this.group });
      this.log.warn('handler waits for a service that is away: message held, no attempt counted', {
        topic: this.raw.topic,
        group: this.group,
        position: this.raw.position,
        err,
      });
    }
    const until = Date.now() + outageBackoffMs(this.tries, backoffMs);
    while (Date.now() < until && !isStopping()) await sleep(Math.min(100, until - Date.now()));
    return !isStopping();
  }

  /** The hold is over (handled, failed otherwise, or handed back). */
  end(outcome: string): void {
    if (this.tries === 0) return;
    busMetrics.heldByOutage.dec({ topic: this.raw.topic, group: this.group });
    this.log.info('held message released', {
      topic: this.raw.topic,
      group: this.group,
      position: this.raw.position,
      outcome,
      heldMs: Date.now() - this.since,
      tries: this.tries,
    });
    this.tries = 0;
  }
}

/**
 * One message through decode, handler and retries; shared by every bus so their semantics match. A retryable
 * failure gets a few quick tries here (a couple of seconds at most, far below Kafka's session timeout); then
 * the message is re-published for this group with its attempt count and a not-before time, and the original
 * counts as handled, so later messages of the partition flow meanwhile. After `maxAttempts` handler calls in
 * all, or at once for a non-retryable error, it goes to the dead-letter topic. A failure that says a service the
 * handler needs is away (isOutage: the database restarting) is none of that message's doing and every later message
 * would meet it too: the message is held here and tried again with backoff until the service is back, counting no
 * attempt and copying nothing, however long the outage lasts (the partition waits with it). Resolves once the
 * message is handled, re-published or dead-lettered: only then may the caller commit its position.
 */
export async function deliverMessage<T>(
  spec: TopicSpec<T>,
  group: string,
  raw: RawMessage,
  handler: Handler<T>,
  options: SubscribeOptions,
  outlets: DeliveryOutlets,
  log: Logger,
  isStopping: () => boolean = () => false,
): Promise<void> {
  const maxAttempts = options.maxAttempts ?? 3;
  const backoff = options.retryBackoffMs ?? 200;
  const prior = readRedelivery(raw.headers);
  if (prior.group !== undefined && prior.group !== group) return; // another group's redelivery
  const firstPosition = prior.firstPosition ?? raw.position;
  let message: T;
  try {
    message = decodeMessage(spec, raw.value, raw.headers);
  } catch (err) {
    await sendToDeadLetter(raw, group, err, prior.attempts, firstPosition, outlets, log);
    return;
  }
  const due = prior.notBefore - Date.now();
  if (due > 0) {
    await sleep(Math.min(due, NOT_BEFORE_HOLD_CAP_MS));
    if (isStopping()) throw new Error('bus stopping: redelivery handed back');
    if (due > NOT_BEFORE_HOLD_CAP_MS) {
      await outlets.redeliver(raw, raw.headers); // not due yet: back to the end of the partition, unchanged
      return;
    }
  }
  let attempt = prior.attempts;
  const hold = new OutageHold(raw, group, log);
  try {
    for (let tryInDelivery = 1; ; tryInDelivery++) {
      attempt++;
      try {
        await handler(message, {
          topic: raw.topic,
          key: raw.key,
          headers: raw.headers,
          position: raw.position,
          attempt,
        });
        hold.end('handled');
        return;
      } catch (err) {
        if (isStopping()) throw err; // hand the message back: it is redelivered after restart
        if (isOutage(err) && !causedByStopping(err)) {
          attempt--;
          tryInDelivery--;
          if (!(await hold.wait(err, backoff, isStopping))) throw err; // stopping: handed back, redelivered after restart
          continue;
        }
        hold.end('failed');
        if (causedByStopping(err)) {
          // The process began to stop and cut the handler's call short: not the message's failure, so no attempt
          // counts. Handed back when this bus stops too, or after a second (the process may stop its subscriptions
          // first, and they wait for this handler): tried again meanwhile at most once a second.
          await waitFor(isStopping, STOPPING_HAND_BACK_WAIT_MS);
          throw err;
        }
        const retryable = isRetryable(err) && attempt < maxAttempts;
        const later = retryable && tryInDelivery >= INLINE_ATTEMPTS;
        if (retryable && isWaiting(err))
          log.info('handler waits; asked again later', {
            topic: raw.topic,
            group,
            position: raw.position,
            attempt,
            reason: errorMessage(err),
          });
        else
          log.warn('handler failed', {
            topic: raw.topic,
            group,
            position: raw.position,
            attempt,
            retry: retryable,
            err,
          });
        if (!retryable) {
          await sendToDeadLetter(raw, group, err, attempt, firstPosition, outlets, log);
          return;
        }
        if (later) {
          const notBefore = Date.now() + redeliveryDelayMs(attempt, backoff);
          await outlets.redeliver(
            raw,
            redeliveryHeaders(raw.headers, { attempts: attempt, notBefore, group, firstPosition }),
          );
          busMetrics.redeliveries.inc({ topic: raw.topic, group });
          log.info('message re-published for a later redelivery', {
            topic: raw.topic,
            group,
            position: raw.position,
            attempts: attempt,
            notBefore: new Date(notBefore).toISOString(),
          });
          return;
        }
        await sleep(inlineBackoffMs(tryInDelivery, backoff));
      }
    }
  } finally {
    hold.end('handed back'); // only when still held: the bus is stopping
  }
}

async function sendToDeadLetter(
  raw: RawMessage,
  group: string,
  err: unknown,
  attempts: number,
  firstPosition: string,
  outlets: DeliveryOutlets,
  log: Logger,
): Promise<void> {
  const kind = err instanceof DecodeError ? 'decode' : err instanceof Error ? err.name : 'unknown';
  log.error('message dead-lettered', { topic: raw.topic, group, position: raw.position, kind, attempts, err });
  busMetrics.deadLetters.inc({ topic: raw.topic, group, kind });
  await outlets.deadLetter(raw, {
    ...withoutRedeliveryHeaders(raw.headers),
    [DLQ_HEADERS.error]: errorMessage(err).slice(0, 2000),
    [DLQ_HEADERS.errorKind]: kind,
    [DLQ_HEADERS.sourceTopic]: raw.topic,
    [DLQ_HEADERS.group]: group,
    [DLQ_HEADERS.attempts]: String(attempts),
    [DLQ_HEADERS.position]: firstPosition,
  });
}
