import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@farm/runtime';
import { BaseBus } from './base-bus';
import type { EventBus, Headers, PublishOptions, RawHandler, SubscribeOptions, Subscription } from './bus';

/** A message a task process left in its spool directory, for the launcher to publish. */
export interface SpooledMessage {
  topic: string;
  key: string | null;
  value: Buffer;
  headers: Headers;
  /** The file it is in. */
  file: string;
  /** Already published on the farm's bus (the file is kept as a record of it). */
  published: boolean;
}

/**
 * The subdirectory of a spool where a task process puts what is published while it runs (its live steps), apart
 * from its result, so the launcher can publish those without taking the result before the process has ended.
 */
export const LIVE_SPOOL = 'live';

const SPOOL_FILE = /^(\d+)\.json$/;
const PUBLISHED_SUFFIX = '.published';
const PUBLISHED_FILE = /^(\d+)\.json\.published$/;

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
  private count: number;

  constructor(
    private readonly dir: string,
    log: Logger,
  ) {
    super(log);
    mkdirSync(dir, { recursive: true });
    // After what is there already: the launcher may spool a result on behalf of a process that spooled some.
    this.count = Math.max(
      0,
      ...readdirSync(dir).map((n) => Number((SPOOL_FILE.exec(n) ?? PUBLISHED_FILE.exec(n))?.[1] ?? 0)),
    );
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

/**
 * The complete messages in a spool directory, in the order they were published; those already published on
 * the farm's bus only with `withPublished`.
 */
export function readSpoolDir(dir: string, options: { withPublished?: boolean } = {}): SpooledMessage[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => SPOOL_FILE.test(n) || (options.withPublished && PUBLISHED_FILE.test(n)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.sort().map((n) => {
    const f = JSON.parse(readFileSync(join(dir, n), 'utf8')) as SpoolFile;
    return {
      topic: f.topic,
      key: f.key,
      value: Buffer.from(f.value, 'base64'),
      headers: f.headers,
      file: join(dir, n),
      published: n.endsWith(PUBLISHED_SUFFIX),
    };
  });
}

/**
 * Publishes every message of a spool directory not published yet on `bus`, marking each as it goes, so a
 * retry (or the next farm process) publishes only the rest. While the bus refuses, it tries again with
 * backoff (doubling from `firstRetryMs` to a minute) until it succeeds or `signal` aborts; an abort leaves
 * the rest spooled for the next start.
 */
export async function publishSpooled(
  dir: string,
  bus: Pick<EventBus, 'publishRaw'>,
  options: { log: Logger; signal: AbortSignal; firstRetryMs?: number; fields?: Record<string, unknown> },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      for (const m of readSpoolDir(dir)) {
        await bus.publishRaw(m.topic, m.value, { key: m.key ?? undefined, headers: m.headers });
        renameSync(m.file, m.file + PUBLISHED_SUFFIX);
      }
      return;
    } catch (err) {
      if (options.signal.aborted) throw err;
      const retryInMs = Math.min(60_000, (options.firstRetryMs ?? 1_000) * 2 ** (attempt - 1));
      options.log.warn('publishing a spooled message failed; trying again', {
        ...options.fields,
        attempt,
        retryInMs,
        err,
      });
      await sleep(retryInMs, undefined, { signal: options.signal });
    }
  }
}
