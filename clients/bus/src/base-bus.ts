import type { Logger } from '@farm/runtime';
import type { BusHealth, EventBus, Handler, PublishOptions, RawHandler, SubscribeOptions, Subscription } from './bus';
import { CONTENT_TYPE_HEADER, PROTOBUF, encodeMessage } from './codec';
import { deliverMessage } from './delivery';
import { DEAD_LETTER_TOPIC, type TopicSpec } from './topics';
import { busMetrics } from './metrics';

/** Typed publish/subscribe on top of a transport's raw publish/subscribe, so every bus shares one behaviour. */
export abstract class BaseBus implements EventBus {
  protected stopping = false;
  constructor(protected readonly log: Logger) {}

  abstract publishRaw(topic: string, value: Buffer, options?: PublishOptions): Promise<void>;
  abstract subscribeRaw(
    topic: string,
    group: string,
    handler: RawHandler,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  abstract close(): Promise<void>;

  health(): BusHealth {
    return { healthy: true, reasons: [], deadConsumers: [] };
  }

  async publish<T>(topic: TopicSpec<T>, message: T, options: PublishOptions = {}): Promise<void> {
    const key = options.key ?? ((message as { changeRequestId?: string }).changeRequestId || undefined);
    await this.publishRaw(topic.name, encodeMessage(topic, message), {
      key,
      headers: { [CONTENT_TYPE_HEADER]: PROTOBUF, ...options.headers },
    });
  }

  subscribe<T>(
    topic: TopicSpec<T>,
    group: string,
    handler: Handler<T>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    // Counted from 0, so a dashboard shows a consumer with no dead letters as 0, not as no data.
    busMetrics.deadLetters.inc({ topic: topic.name, group, kind: 'decode' }, 0);
    return this.subscribeRaw(
      topic.name,
      group,
      (raw) =>
        deliverMessage(
          topic,
          group,
          raw,
          handler,
          options,
          {
            deadLetter: (dead, headers) =>
              this.publishRaw(DEAD_LETTER_TOPIC, dead.value ?? Buffer.alloc(0), {
                key: dead.key ?? undefined,
                headers,
              }),
            redeliver: (m, headers) =>
              this.publishRaw(m.topic, m.value ?? Buffer.alloc(0), { key: m.key ?? undefined, headers }),
          },
          this.log,
          () => this.stopping,
        ),
      options,
    );
  }
}
