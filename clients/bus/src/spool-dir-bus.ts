import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@farm/runtime';
import { BaseBus } from './base-bus';
import type { Headers, PublishOptions, RawHandler, SubscribeOptions, Subscription } from './bus';

/** A message a task process left in its spool directory, for the launcher to publish. */
export interface SpooledMessage {
  topic: string;
  key: string | null;
  value: Buffer;
  headers: Headers;
}

interface SpoolFile {
  topic: string;
  key: string | null;
  value: string; // base64
  headers: Headers;
}

/**
 * Bus of a task process started by the one-machine launcher: each published message becomes a file in a
 * spool directory, which the launcher publishes on the farm's bus when the process ends. Files outlive both
 * processes, so a result written while the farm was down is published when it comes back.
 */
export class SpoolDirBus extends BaseBus {
  private count = 0;

  constructor(
    private readonly dir: string,
    log: Logger,
  ) {
    super(log);
    mkdirSync(dir, { recursive: true });
  }

  async publishRaw(topic: string, value: Buffer, options: PublishOptions = {}): Promise<void> {
    const body: SpoolFile = {
      topic,
      key: options.key ?? null,
      value: value.toString('base64'),
      headers: options.headers ?? {},
    };
    const name = `${String(++this.count).padStart(6, '0')}.json`;
    // Written aside and renamed, so a reader never sees half a message.
    writeFileSync(join(this.dir, `.${name}.tmp`), JSON.stringify(body));
    renameSync(join(this.dir, `.${name}.tmp`), join(this.dir, name));
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

/** The complete messages in a spool directory, in the order they were published. */
export function readSpoolDir(dir: string): SpooledMessage[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.sort().map((n) => {
    const f = JSON.parse(readFileSync(join(dir, n), 'utf8')) as SpoolFile;
    return { topic: f.topic, key: f.key, value: Buffer.from(f.value, 'base64'), headers: f.headers };
  });
}
