import type { HealthStatus } from '@farm/runtime';
import type { TopicSpec } from './topics';

export type Headers = Record<string, string>;

/** A message as it travels: bytes plus headers, the same on Kafka and in-process. */
export interface RawMessage {
  topic: string;
  key: string | null;
  value: Buffer | null;
  headers: Headers;
  /** Position in the topic (partition:offset on Kafka), for logs. */
  position: string;
}

export interface MessageMeta {
  topic: string;
  key: string | null;
  headers: Headers;
  position: string;
  /** 1 on first delivery, more when the handler failed and the bus retried. */
  attempt: number;
}

export type Handler<T> = (message: T, meta: MessageMeta) => Promise<void>;

export type RawHandler = (message: RawMessage) => Promise<void>;

export interface SubscribeOptions {
  /** Start from the earliest message when the group has no committed offset (default true). */
  fromBeginning?: boolean;
  /**
   * Handler calls, over every delivery, before a message that keeps failing goes to the dead-letter topic
   * (default 3). A few quick tries happen in one delivery; the rest are later redeliveries (see delivery.ts).
   */
  maxAttempts?: number;
  /** First retry delay; doubles each retry (default 200 ms). */
  retryBackoffMs?: number;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface PublishOptions {
  key?: string;
  headers?: Headers;
}

/**
 * The farm's event bus. Delivery is at least once: a consumer group's position moves past a message only
 * after its handler succeeded or the message was dead-lettered; consumers must be idempotent.
 */
export interface EventBus {
  publish<T>(topic: TopicSpec<T>, message: T, options?: PublishOptions): Promise<void>;
  /** Publishes bytes as they are, e.g. a message in the proto3 JSON mapping or one forwarded from a child. */
  publishRaw(topic: string, value: Buffer, options?: PublishOptions): Promise<void>;
  subscribe<T>(
    topic: TopicSpec<T>,
    group: string,
    handler: Handler<T>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Undecoded messages of any topic (e.g. the dead-letter topic); same commit-after-handler rule. */
  subscribeRaw(topic: string, group: string, handler: RawHandler, options?: SubscribeOptions): Promise<Subscription>;
  /** Whether every subscription is consuming: a crashed consumer is listed until it is back. */
  health(): BusHealth;
  close(): Promise<void>;
}

/** A consumer that stopped consuming (crashed), since when and why; the bus is restarting it. */
export interface DeadConsumer {
  topic: string;
  group: string;
  reason: string;
  since: string;
}

export interface BusHealth extends HealthStatus {
  deadConsumers: DeadConsumer[];
}
