/**
 * How fast the farm's Kafka bus drains a backlog: N messages of 1 KiB already on a topic, consumed by a KafkaBus
 * subscription (decode, delivery with retries, offsets committed in batches after handling) against plain KafkaJS
 * (a consumer with auto-commit, the reference) on the same broker in the same run, each three times alternately.
 * Prints messages per second and the bus's ratio to the reference; exits 1 when a drain misses a message.
 * Uses KAFKA_BROKERS, or starts a local broker (scripts/local-services, needs Java 17+).
 *
 *   node --import tsx bench/bus-drain.ts [--messages 2000] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { KafkaBus } from '@farm/bus';
import { startKafka, type LocalKafka } from '../scripts/local-services';
import { median } from './process-timing';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' } },
});
const count = Number(values.messages);
const rounds = Number(values.rounds);
const TOPIC = 'farm.control.v1'; // a topic the bus creates; its payload is not decoded by subscribeRaw
const payload = Buffer.alloc(1024, 'x');

/** Puts `count` messages on `topic` (one partition) with a plain producer, before anyone consumes. */
async function fill(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  const existing = new Set(await admin.listTopics());
  if (!existing.has(topic)) await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  for (let i = 0; i < count; i += 500)
    await producer.send({
      topic,
      messages: Array.from({ length: Math.min(500, count - i) }, (_, j) => ({ key: `k${i + j}`, value: payload })),
    });
  await producer.disconnect();
}

/** Seconds from subscribing until `count` messages were handled. */
async function drain(label: string, subscribe: (handled: () => void) => Promise<() => Promise<void>>) {
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const started = process.hrtime.bigint();
  const stop = await subscribe(() => {
    if (++seen === count) done();
  });
  const timeout = setTimeout(() => done(), 300_000);
  await all;
  clearTimeout(timeout);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await stop();
  if (seen < count) throw new Error(`${label}: ${seen} of ${count} messages in 300 s`);
  return count / seconds;
}

async function viaKafkaBus(brokers: string[], prefix: string, round: number): Promise<number> {
  const bus = await KafkaBus.connect({ brokers, clientId: 'bench-drain', partitions: 1, topicPrefix: prefix });
  try {
    return await drain('KafkaBus', async (handled) => {
      const sub = await bus.subscribeRaw(TOPIC, `drain-${round}`, async () => handled());
      return () => sub.stop();
    });
  } finally {
    await bus.close();
  }
}

async function main(): Promise<void> {
  let local: LocalKafka | undefined;
  const brokers = process.env.KAFKA_BROKERS ?? (local = await startKafka()).brokers;
  try {
    const list = brokers.split(',').map((b) => b.trim());
    const prefix = `bench-drain-${Date.now()}.`;
    const kafka = new Kafka({ clientId: 'bench-drain-plain', brokers: list, logLevel: logLevel.WARN });
    // The bus creates its topics (one partition here) on connect; the backlog goes on the one it reads.
    await (
      await KafkaBus.connect({ brokers: list, clientId: 'bench-drain-setup', partitions: 1, topicPrefix: prefix })
    ).close();
    await fill(kafka, prefix + TOPIC);
    // A first drain warms the client's code (the JIT) for both; it is not counted.
    await viaKafkaJsGroup(kafka, prefix + TOPIC, -1);
    const plain: number[] = [];
    const bus: number[] = [];
    for (let r = 0; r < rounds; r++) {
      plain.push(await viaKafkaJsGroup(kafka, prefix + TOPIC, r));
      bus.push(await viaKafkaBus(list, prefix, r));
    }
    const fmt = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' / ');
    process.stdout.write(
      [
        `draining ${count} messages of 1 KiB (one partition, broker ${brokers}, Node ${process.version}), msg/s per round`,
        `plain kafkajs, auto-commit (reference)  ${fmt(plain)}`,
        `KafkaBus                                ${fmt(bus)}`,
        `KafkaBus median / reference median      ${(median(bus) / median(plain)).toFixed(2)}x the throughput (${(median(plain) / median(bus)).toFixed(2)}x slower)`,
      ].join('\n') + '\n',
    );
  } finally {
    await local?.stop();
  }
}

/** The reference drain of the same backlog, as a consumer group of its own (each round reads it all). */
function viaKafkaJsGroup(kafka: Kafka, topic: string, round: number): Promise<number> {
  return drain('kafkajs', async (handled) => {
    const consumer = kafka.consumer({ groupId: `${topic}.plain-${round}`, maxWaitTimeInMs: 1_000 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ autoCommit: true, eachMessage: async () => handled() });
    return () => consumer.disconnect();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
