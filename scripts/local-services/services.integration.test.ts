/** Smoke test of the services jest-global-setup.ts provides (or that KAFKA_BROKERS / DATABASE_URL point at). */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { Client } from 'pg';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; jest-global-setup.ts should have started the service`);
  return value;
}

test('kafka: create topic, produce and consume one message', async () => {
  const kafka = new Kafka({
    clientId: 'local-services-test',
    brokers: env('KAFKA_BROKERS').split(','),
    logLevel: logLevel.WARN,
  });
  const topic = `smoke-${randomUUID()}`;
  const admin = kafka.admin();
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const consumer = kafka.consumer({ groupId: `smoke-${randomUUID()}` });
  try {
    await admin.connect();
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).toBe(true);

    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'k', value: 'hello' }] });

    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received = new Promise<{ key?: string; value?: string }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => resolve({ key: message.key?.toString(), value: message.value?.toString() }),
      });
    });
    expect(await received).toEqual({ key: 'k', value: 'hello' });
  } finally {
    await Promise.allSettled([consumer.disconnect(), producer.disconnect(), admin.disconnect()]);
  }
});

test('postgres: create table, insert, select', async () => {
  const client = new Client({ connectionString: env('DATABASE_URL') });
  await client.connect();
  try {
    const table = `smoke_${randomUUID().replace(/-/g, '')}`;
    await client.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, body text NOT NULL)`);
    await client.query(`INSERT INTO ${table} (body) VALUES ($1)`, ['hello']);
    const { rows } = await client.query(`SELECT id, body FROM ${table}`);
    expect(rows).toEqual([{ id: 1, body: 'hello' }]);
    await client.query(`DROP TABLE ${table}`);
  } finally {
    await client.end();
  }
});
