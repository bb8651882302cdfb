import { DecodeError, errorMessage, isRetryable, type Logger } from '@farm/runtime';
import type { Handler, RawMessage, SubscribeOptions } from './bus';
import { decodeMessage } from './codec';
import type { TopicSpec } from './topics';
import { busMetrics } from './metrics';

export const DLQ_HEADERS = {
  error: 'x-farm-error',
  errorKind: 'x-farm-error-kind',
  sourceTopic: 'x-farm-source-topic',
  group: 'x-farm-consumer-group',
  attempts: 'x-farm-attempts',
  position: 'x-farm-source-position',
} as const;

export type DeadLetter = (raw: RawMessage, headers: Record<string, string>) => Promise<void>;

/**
 * One message through decode, handler and bounded retries; shared by every bus so their semantics match.
 * Resolves once the message is handled or dead-lettered: only then may the caller commit its position.
 */
export async function deliverMessage<T>(
  spec: TopicSpec<T>,
  group: string,
  raw: RawMessage,
  handler: Handler<T>,
  options: SubscribeOptions,
  deadLetter: DeadLetter,
  log: Logger,
  isStopping: () => boolean = () => false,
): Promise<void> {
  const maxAttempts = options.maxAttempts ?? 3;
  const backoff = options.retryBackoffMs ?? 200;
  let message: T;
  try {
    message = decodeMessage(spec, raw.value, raw.headers);
  } catch (err) {
    await sendToDeadLetter(raw, group, err, 0, deadLetter, log);
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await handler(message, { topic: raw.topic, key: raw.key, headers: raw.headers, position: raw.position, attempt });
      return;
    } catch (err) {
      const retry = isRetryable(err) && attempt < maxAttempts && !isStopping();
      log.warn('handler failed', { topic: raw.topic, group, position: raw.position, attempt, retry, err });
      if (!retry) {
        if (isStopping()) throw err; // hand the message back: it is redelivered after restart
        await sendToDeadLetter(raw, group, err, attempt, deadLetter, log);
        return;
      }
      await new Promise((r) => setTimeout(r, backoff * 2 ** (attempt - 1)));
    }
  }
}

async function sendToDeadLetter(
  raw: RawMessage,
  group: string,
  err: unknown,
  attempts: number,
  deadLetter: DeadLetter,
  log: Logger,
): Promise<void> {
  const kind = err instanceof DecodeError ? 'decode' : err instanceof Error ? err.name : 'unknown';
  log.error('message dead-lettered', { topic: raw.topic, group, position: raw.position, kind, err });
  busMetrics.deadLetters.inc({ topic: raw.topic, group, kind });
  await deadLetter(raw, {
    ...raw.headers,
    [DLQ_HEADERS.error]: errorMessage(err).slice(0, 2000),
    [DLQ_HEADERS.errorKind]: kind,
    [DLQ_HEADERS.sourceTopic]: raw.topic,
    [DLQ_HEADERS.group]: group,
    [DLQ_HEADERS.attempts]: String(attempts),
    [DLQ_HEADERS.position]: raw.position,
  });
}
