/**
 * What one hop through the farm's Kafka bus costs: a message published with KafkaBus (protobuf encoding,
 * idempotent producer, one consumer per subscription, decode, delivery with retries, offsets committed in batches after
 * handling) until its handler runs, against plain kafkajs (default producer, consumer with auto-commit)
 * on the same broker in the same run; plus kafkajs set up as the bus sets it up, to show what the settings
 * cost and what the bus's own code costs. Messages go one at a time (the next after the previous arrived).
 * Uses KAFKA_BROKERS, or starts a local broker (scripts/local-services, needs Java 17+).
 *
 *   node --import tsx bench/bus-hop.ts [--runs 200]
 */
import { parseArgs } from 'node:util';
import { Kafka, Partitioners, logLevel, type Consumer, type Producer } from 'kafkajs';
import { KafkaBus, Topics, encodeMessage } from '@farm/bus';
import type { farm } from '@farm/proto';
import { startKafka, type LocalKafka } from '../scripts/local-services';
import { median, percentile } from './process-timing';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(values.runs);
const WARM_UP = 10;

interface Hops {
  label: string;
  /** Publish called until the handler ran, ms. */
  hop: number[];
  /** Publish called until the broker acknowledged it, ms. */
  ack: number[];
}

/** Sends `runs` messages one after another through `send`; `arrived(id)` must be called by the receiver. */
async function measure(
  label: string,
  send: (id: string) => Promise<void>,
  onArrival: (arrived: (id: string) => void) => void,
): Promise<Hops> {
  const waiting = new Map<string, () => void>();
  onArrival((id) => waiting.get(id)?.());
  const out: Hops = { label, hop: [], ack: [] };
  for (let i = 0; i < runs + WARM_UP; i++) {
    const id = `${label}-${i}`;
    const arrived = new Promise<void>((resolve) => waiting.set(id, resolve));
    const started = process.hrtime.bigint();
    await send(id);
    const acked = process.hrtime.bigint();
    await arrived;
    const done = process.hrtime.bigint();
    waiting.delete(id);
    if (i < WARM_UP) continue;
    out.hop.push(Number(done - started) / 1e6);
    out.ack.push(Number(acked - started) / 1e6);
  }
  return out;
}

/** The message the bus carries (a control command), encoded once, so both sides move the same bytes. */
function controlCommand(id: string): farm.v1.ControlCommand {
  return Topics.control.type.fromObject({ changeRequestId: id, action: 1 });
}

async function throughKafkaBus(brokers: string[], prefix: string): Promise<Hops> {
  const bus = await KafkaBus.connect({ brokers, clientId: 'bench-bus-hop', partitions: 1, topicPrefix: prefix });
  try {
    let arrived: (id: string) => void = () => undefined;
    await bus.subscribe(Topics.control, 'bench', async (m) => arrived(m.changeRequestId));
    return await measure(
      'KafkaBus',
      (id) => bus.publish(Topics.control, controlCommand(id)),
      (a) => (arrived = a),
    );
  } finally {
    await bus.close();
  }
}

async function throughKafkaJs(
  kafka: Kafka,
  topic: string,
  label: string,
  setup: { idempotent: boolean; commitEach: boolean },
): Promise<Hops> {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  const producer: Producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    ...(setup.idempotent ? { idempotent: true, maxInFlightRequests: 1 } : {}),
  });
  const consumer: Consumer = kafka.consumer({ groupId: `${topic}.bench` });
  await Promise.all([producer.connect(), consumer.connect()]);
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let arrived: (id: string) => void = () => undefined;
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({
      autoCommit: !setup.commitEach,
      eachMessage: async ({ topic: t, partition, message }) => {
        arrived(Topics.control.type.decode(message.value!).changeRequestId);
        if (setup.commitEach) {
          await consumer.commitOffsets([{ topic: t, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
        }
      },
    });
    await joined;
    return await measure(
      label,
      async (id) => {
        await producer.send({
          topic,
          messages: [{ key: id, value: encodeMessage(Topics.control, controlCommand(id)) }],
        });
      },
      (a) => (arrived = a),
    );
  } finally {
    await Promise.all([consumer.disconnect(), producer.disconnect()]);
  }
}

async function main(): Promise<void> {
  let local: LocalKafka | undefined;
  const brokers = process.env.KAFKA_BROKERS ?? (local = await startKafka()).brokers;
  try {
    const list = brokers.split(',').map((b) => b.trim());
    const prefix = `bench-hop-${Date.now()}.`;
    const kafka = new Kafka({ clientId: 'bench-plain', brokers: list, logLevel: logLevel.WARN });
    // Each on its own topic. A first pass of the reference warms the client's code (the JIT) for all three,
    // which would otherwise count against whichever runs first; the reference is measured again afterwards.
    await throughKafkaJs(kafka, `${prefix}warm-up`, 'warm-up', { idempotent: false, commitEach: false });
    const plain = await throughKafkaJs(kafka, `${prefix}plain`, 'plain kafkajs (reference)', {
      idempotent: false,
      commitEach: false,
    });
    const viaBus = await throughKafkaBus(list, prefix);
    const likeBus = await throughKafkaJs(kafka, `${prefix}like-bus`, 'kafkajs, idempotent + commit each', {
      idempotent: true,
      commitEach: true,
    });
    const ref = median(plain.hop);
    const line = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(11) : c.padEnd(36))).join('');
    const rows = [plain, viaBus, likeBus].map((h) =>
      line([
        h.label,
        median(h.hop).toFixed(1),
        percentile(h.hop, 95).toFixed(1),
        median(h.ack).toFixed(1),
        (median(h.hop) / ref).toFixed(2),
        (percentile(h.hop, 95) / percentile(plain.hop, 95)).toFixed(2),
      ]),
    );
    process.stdout.write(
      [
        `one message's hop on Kafka (${runs} one after another, broker ${brokers}, Node ${process.version})`,
        line(['', 'p50 ms', 'p95 ms', 'ack p50', 'x ref p50', 'x ref p95']),
        ...rows,
        '(hop: publish called until the handler ran; ack: until the broker acknowledged the publish)',
      ].join('\n') + '\n',
    );
  } finally {
    await local?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
