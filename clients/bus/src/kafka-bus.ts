import type { Consumer, IHeaders, Kafka, Producer } from 'kafkajs';
import { errorMessage, silentLogger, type Logger } from '@farm/runtime';
import { BaseBus } from './base-bus';
import type {
  BusHealth,
  DeadConsumer,
  Headers,
  PublishOptions,
  RawHandler,
  SubscribeOptions,
  Subscription,
} from './bus';
import { ALL_TOPIC_NAMES } from './topics';
import { busMetrics } from './metrics';

/** How often a member sends a heartbeat while one handler runs (KafkaJS sends at most one per heartbeatInterval). */
const HANDLER_HEARTBEAT_MS = 1_000;

export interface KafkaBusConfig {
  brokers: string[];
  clientId: string;
  /** Partitions for topics the bus creates at start-up. */
  partitions?: number;
  /** Prepended to every topic name: lets several farms (or test runs) share one cluster. */
  topicPrefix?: string;
  /** How often to measure consumer lag for farm_bus_consumer_lag; off when unset. */
  lagIntervalMs?: number;
  /** Kafka's consumer session timeout (KafkaJS default 30 s): a member silent this long is dropped. */
  sessionTimeoutMs?: number;
  /** First wait before the bus restarts a crashed consumer; doubles while restarts fail (default 500 ms). */
  consumerRestartBackoffMs?: number;
  /**
   * Longest an idle consumer's fetch waits at the broker for new messages (default 1 s; KafkaJS's own is 5 s).
   * A message that arrives is answered at once either way; a consumer being stopped waits for its fetch in flight,
   * so this bounds how long stopping a subscription (and the farm) takes.
   */
  fetchMaxWaitMs?: number;
  /**
   * How handled messages' offsets are committed: after each fetched batch, and within a batch every this many
   * messages or this many ms (default 100 and 1 s). A consumer that dies between a message's handling and its
   * commit has it delivered again: the bus's handlers are idempotent (processed_messages), so nothing applies twice.
   */
  commitEveryMessages?: number;
  commitEveryMs?: number;
  log?: Logger;
}

interface ConsumerTarget {
  kafkaGroup: string;
  kafkaTopic: string;
  topic: string;
  group: string;
}

/**
 * Kafka transport: idempotent producer, topics created at start-up, one consumer per subscription; an offset is
 * marked done only after deliverMessage resolved (handled or dead-lettered), and done offsets are committed in
 * batches (see commitEveryMessages), not one round trip per message.
 */
export class KafkaBus extends BaseBus {
  private readonly producer: Producer;
  /** Each running consumer and what it consumes (for the lag gauge and restarts). */
  private readonly consumers = new Map<Consumer, ConsumerTarget>();
  /** Crashed consumers not yet back, by Kafka group. */
  private readonly dead = new Map<string, DeadConsumer>();
  private readonly prefix: string;
  private lagTimer?: NodeJS.Timeout;

  private constructor(
    private readonly config: KafkaBusConfig,
    log: Logger,
    private readonly kafka: Kafka,
  ) {
    super(log);
    this.prefix = config.topicPrefix ?? '';
    this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  }

  static async connect(config: KafkaBusConfig): Promise<KafkaBus> {
    const log = config.log ?? silentLogger;
    const { createKafkaClient } = await import('./kafka-client'); // KafkaJS, loaded by who connects
    const bus = new KafkaBus(config, log, createKafkaClient(config, log));
    await bus.ensureTopics();
    await bus.producer.connect();
    if (config.lagIntervalMs) {
      bus.lagTimer = setInterval(() => {
        bus.measureLag().catch((err) => bus.log.warn('consumer lag not measured', { err }));
      }, config.lagIntervalMs);
      bus.lagTimer.unref();
    }
    return bus;
  }

  /**
   * Creates the missing topics. KafkaJS's wait for their leaders gives up on "This server does not host this
   * topic-partition" while a busy broker is still creating them; that is retriable, and creating is idempotent.
   */
  private ensureTopics(): Promise<void> {
    return this.withRetries('creating topics', () => this.createMissingTopics());
  }

  /**
   * `fn` again after a retriable error (KafkaJS's `retriable`), with a growing pause: a KRaft broker that just
   * created a topic answers "This server does not host this topic-partition" to a subscribe for a while (Kafka
   * 4.x more often than 3.x). Anything else, or the fifth failure, is thrown.
   */
  private async withRetries<T>(what: string, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if ((err as { retriable?: boolean }).retriable !== true || attempt >= 5 || this.stopping) throw err;
        this.log.warn(`${what} failed; trying again`, { attempt, err });
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }

  private async createMissingTopics(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const missing = ALL_TOPIC_NAMES.map((t) => this.prefix + t).filter((t) => !existing.has(t));
      if (missing.length) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({ topic, numPartitions: this.config.partitions ?? 3 })),
        });
        this.log.info('created topics', { topics: missing });
      }
    } finally {
      await admin.disconnect();
    }
  }

  async publishRaw(topic: string, value: Buffer, options: PublishOptions = {}): Promise<void> {
    await this.producer.send({
      topic: this.prefix + topic,
      messages: [{ key: options.key ?? null, value, headers: options.headers }],
    });
  }

  async subscribeRaw(
    topic: string,
    group: string,
    handler: RawHandler,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    // One Kafka group per (group, topic): members of one Kafka group that subscribe to different topics get
    // each other's partitions assigned and never read them. The prefix keeps farms sharing a cluster apart.
    const target: ConsumerTarget = {
      kafkaGroup: kafkaGroupId(this.prefix, group, topic),
      kafkaTopic: this.prefix + topic,
      topic,
      group,
    };
    const subscription = { consumer: undefined as Consumer | undefined, stopped: false };
    const start = async (): Promise<void> => {
      const consumer = this.kafka.consumer({
        groupId: target.kafkaGroup,
        allowAutoTopicCreation: false,
        sessionTimeout: this.config.sessionTimeoutMs,
        maxWaitTimeInMs: this.config.fetchMaxWaitMs ?? 1_000,
      });
      subscription.consumer = consumer;
      this.consumers.set(consumer, target);
      consumer.on(consumer.events.GROUP_JOIN, () => this.dead.delete(target.kafkaGroup));
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        this.onCrash(target, payload.error, payload.restart, () => {
          this.consumers.delete(consumer);
          return subscription.stopped || this.stopping ? undefined : start;
        });
      });
      try {
        await runConsumer(consumer);
      } catch (err) {
        this.consumers.delete(consumer);
        await consumer.disconnect().catch(() => undefined);
        throw err;
      }
    };
    const runConsumer = async (consumer: Consumer): Promise<void> => {
      await consumer.connect();
      await consumer.subscribe({ topic: target.kafkaTopic, fromBeginning: options.fromBeginning ?? true });
      // Resolve only once partitions are assigned, so a publish right after subscribe is not missed.
      const joined = waitForGroupJoin(consumer);
      await consumer.run({
        // KafkaJS commits the offsets of messages whose eachMessage resolved: after each batch, and by count or
        // time within one. A message whose handler threw (the bus stopping) is not marked done.
        autoCommit: true,
        autoCommitThreshold: this.config.commitEveryMessages ?? 100,
        autoCommitInterval: this.config.commitEveryMs ?? 1_000,
        eachMessage: async ({ partition, message, heartbeat }) => {
          // A handler can take long (a message held through a database outage): the member keeps telling the group
          // it is alive, or the group would hand its partitions to another member meanwhile.
          const alive = setInterval(() => heartbeat().catch(() => undefined), HANDLER_HEARTBEAT_MS);
          try {
            await handler({
              topic,
              key: message.key ? message.key.toString('utf8') : null,
              value: message.value,
              headers: stringHeaders(message.headers),
              position: `${partition}:${message.offset}`,
            });
          } finally {
            clearInterval(alive);
          }
        },
      });
      await joined;
    };
    await this.withRetries(`subscribing to ${target.kafkaTopic}`, start);
    return {
      stop: async () => {
        subscription.stopped = true;
        this.dead.delete(target.kafkaGroup);
        const consumer = subscription.consumer!;
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  /** Consumers that crashed and are not back yet: /healthz answers 503 while there is one. */
  override health(): BusHealth {
    const deadConsumers = [...this.dead.values()];
    return {
      healthy: deadConsumers.length === 0,
      reasons: deadConsumers.map((d) => `consumer of ${d.topic} (group ${d.group}) crashed: ${d.reason}`),
      deadConsumers,
    };
  }

  /**
   * A consumer crashed. KafkaJS restarts it itself after a retriable error; after any other (e.g. "The
   * coordinator is not aware of this member" from a commit) it stays stopped, so the bus starts a new one,
   * with backoff while that fails. Either way it counts as dead until it has joined its group again.
   */
  private onCrash(
    target: ConsumerTarget,
    error: Error,
    restartedByKafkaJs: boolean,
    forget: () => (() => Promise<void>) | undefined,
  ): void {
    this.dead.set(target.kafkaGroup, {
      topic: target.topic,
      group: target.group,
      reason: errorMessage(error),
      since: new Date().toISOString(),
    });
    this.log.error('kafka consumer crashed', {
      topic: target.topic,
      group: target.group,
      restartedBy: restartedByKafkaJs ? 'kafkajs' : 'bus',
      err: error,
    });
    if (restartedByKafkaJs) return;
    const start = forget();
    if (!start) return;
    const restart = async (attempt: number): Promise<void> => {
      const first = this.config.consumerRestartBackoffMs ?? 500;
      await new Promise((r) => setTimeout(r, Math.min(30_000, first * 2 ** attempt)));
      if (!forget()) return; // stopped meanwhile
      try {
        await start();
        busMetrics.consumerRestarts.inc({ topic: target.topic, group: target.group });
        this.log.info('kafka consumer restarted', { topic: target.topic, group: target.group, attempt });
      } catch (err) {
        this.log.error('kafka consumer restart failed; trying again', {
          topic: target.topic,
          group: target.group,
          err,
        });
        return restart(attempt + 1);
      }
    };
    void restart(0);
  }

  /** Sets farm_bus_consumer_lag for this process's subscriptions: end offsets minus committed offsets. */
  async measureLag(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      for (const g of new Set(this.consumers.values())) {
        const ends = await admin.fetchTopicOffsets(g.kafkaTopic);
        const [committed] = await admin.fetchOffsets({ groupId: g.kafkaGroup, topics: [g.kafkaTopic] });
        let lag = 0;
        for (const end of ends) {
          const done = committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
          const from = Number(done) < 0 ? Number(end.low) : Number(done);
          lag += Math.max(0, Number(end.high) - from);
        }
        busMetrics.consumerLag.set({ topic: g.topic, group: g.group }, lag);
      }
    } finally {
      await admin.disconnect();
    }
  }

  async close(): Promise<void> {
    this.stopping = true;
    clearInterval(this.lagTimer);
    await Promise.all([...this.consumers.keys()].map((c) => c.disconnect()));
    this.consumers.clear();
    await this.producer.disconnect();
  }
}

/** The Kafka consumer group of a farm group on a topic: the topic prefix is part of it, like the topic's name. */
export function kafkaGroupId(prefix: string, group: string, topic: string): string {
  return `${prefix}${group}.${topic}`;
}

function stringHeaders(headers: IHeaders | undefined): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue;
    const first = Array.isArray(v) ? v[0] : v;
    out[k] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return out;
}

function waitForGroupJoin(consumer: Consumer, timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      remove();
      reject(new Error(`consumer did not join its group within ${timeoutMs} ms`));
    }, timeoutMs);
    const remove = consumer.on(consumer.events.GROUP_JOIN, () => {
      clearTimeout(timer);
      remove();
      resolve();
    });
  });
}
