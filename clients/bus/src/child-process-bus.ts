import { BaseBus } from './base-bus';
import type { PublishOptions, RawHandler, SubscribeOptions, Subscription } from './bus';
import type { Logger } from '@farm/runtime';

/** What a child process sends its parent over the IPC channel to publish on the parent's bus. */
export interface ForwardedPublish {
  kind: 'farm-bus-publish';
  topic: string;
  key: string | null;
  value: string; // base64
  headers: Record<string, string>;
}

export function isForwardedPublish(m: unknown): m is ForwardedPublish {
  return typeof m === 'object' && m !== null && (m as ForwardedPublish).kind === 'farm-bus-publish';
}

/**
 * Bus of a task process started by the one-machine launcher: publishing forwards the message to the parent,
 * which owns the in-process bus. A task process only emits, so subscribing is refused.
 */
export class ParentProcessBus extends BaseBus {
  constructor(log: Logger) {
    super(log);
    if (!process.send) throw new Error('ParentProcessBus needs an IPC channel to the parent process');
  }

  publishRaw(topic: string, value: Buffer, options: PublishOptions = {}): Promise<void> {
    const message: ForwardedPublish = {
      kind: 'farm-bus-publish',
      topic,
      key: options.key ?? null,
      value: value.toString('base64'),
      headers: options.headers ?? {},
    };
    return new Promise((resolve, reject) =>
      process.send!(message, undefined, {}, (err) => (err ? reject(err) : resolve())),
    );
  }

  subscribeRaw(
    _topic: string,
    _group: string,
    _handler: RawHandler,
    _options?: SubscribeOptions,
  ): Promise<Subscription> {
    return Promise.reject(new Error('a task process cannot subscribe; it only emits results'));
  }

  async close(): Promise<void> {
    this.stopping = true;
  }
}
