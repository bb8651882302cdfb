// Scenarios every EventBus must pass; run against the in-process bus and against a real Kafka broker.
import { randomUUID } from 'node:crypto';
import { FarmError } from '@farm/runtime';
import type { farm } from '@farm/proto';
import type { EventBus, RawMessage } from '../src/bus';
import { CONTENT_TYPE_HEADER, JSON_CONTENT } from '../src/codec';
import { DLQ_HEADERS } from '../src/delivery';
import { INLINE_ATTEMPTS } from '../src/redelivery';
import { DEAD_LETTER_TOPIC, Topics } from '../src/topics';

export function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const v = check();
      if (v !== undefined) return resolve(v);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

const request = (id: string, title = 'add retry'): farm.v1.IChangeRequest => ({
  changeRequestId: id,
  title,
  repo: { url: 'http://127.0.0.1/x.git', baseRef: 'main' },
});

export function defineBusScenarios(name: string, makeBus: () => EventBus | Promise<EventBus>): void {
  describe(`${name}: event bus semantics`, () => {
    let bus: EventBus;
    beforeAll(async () => {
      bus = await makeBus();
    });
    afterAll(async () => {
      await bus.close();
    });

    const collectDeadLetters = async (group: string) => {
      const dead: RawMessage[] = [];
      const sub = await bus.subscribeRaw(DEAD_LETTER_TOPIC, group, async (m) => void dead.push(m));
      return { dead, sub };
    };

    test('a published change request reaches a subscriber with its fields and key', async () => {
      const id = randomUUID();
      const got: { title: string; key: string | null }[] = [];
      const sub = await bus.subscribe(Topics.changeRequests, `g-${id}`, async (m, meta) => {
        if (m.changeRequestId === id) got.push({ title: m.title, key: meta.key });
      });
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id)));
      await waitFor('delivery', () => (got.length ? got : undefined));
      expect(got).toEqual([{ title: 'add retry', key: id }]);
      await sub.stop();
    });

    test('the proto3 JSON mapping is accepted when the content-type header says so', async () => {
      const id = randomUUID();
      const got: string[] = [];
      const sub = await bus.subscribe(Topics.changeRequests, `g-${id}`, async (m) => {
        if (m.changeRequestId === id) got.push(`${m.title}@${m.repo?.baseRef}`);
      });
      const json = JSON.stringify({
        changeRequestId: id,
        title: 'from any client',
        repo: { url: 'u', baseRef: 'dev' },
      });
      await bus.publishRaw(Topics.changeRequests.name, Buffer.from(json), {
        key: id,
        headers: { [CONTENT_TYPE_HEADER]: JSON_CONTENT },
      });
      await waitFor('json delivery', () => (got.length ? got : undefined));
      expect(got).toEqual(['from any client@dev']);
      await sub.stop();
    });

    test('a garbage message goes to the dead-letter topic with its reason and the next one is still processed', async () => {
      const id = randomUUID();
      const { dead, sub: dlq } = await collectDeadLetters(`dlq-${id}`);
      const got: string[] = [];
      const sub = await bus.subscribe(Topics.changeRequests, `g-${id}`, async (m) => {
        if (m.changeRequestId === id) got.push(m.title);
      });
      await bus.publishRaw(Topics.changeRequests.name, Buffer.from('this is not protobuf \u00ff\u00fe'), { key: id });
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'after garbage')));
      await waitFor('valid message after garbage', () => (got.length ? got : undefined));
      const letter = await waitFor('dead letter', () => dead.find((d) => d.key === id));
      expect(got).toEqual(['after garbage']);
      expect(letter.headers[DLQ_HEADERS.sourceTopic]).toBe(Topics.changeRequests.name);
      expect(letter.headers[DLQ_HEADERS.errorKind]).toBe('decode');
      expect(letter.headers[DLQ_HEADERS.error]).toMatch(/protobuf|change_request_id/);
      await sub.stop();
      await dlq.stop();
    });

    test('a handler that keeps failing is retried, then dead-lettered, and consumption goes on', async () => {
      const id = randomUUID();
      const { dead, sub: dlq } = await collectDeadLetters(`dlq-${id}`);
      const attempts: number[] = [];
      const handled: string[] = [];
      const sub = await bus.subscribe(
        Topics.changeRequests,
        `g-${id}`,
        async (m, meta) => {
          if (m.changeRequestId !== id) return;
          if (m.title === 'poison') {
            attempts.push(meta.attempt);
            throw new Error('database is down');
          }
          handled.push(m.title);
        },
        { maxAttempts: 3, retryBackoffMs: 10 },
      );
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'poison')));
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'healthy')));
      await waitFor('healthy message', () => (handled.length ? handled : undefined));
      const letter = await waitFor('dead letter', () => dead.find((d) => d.key === id));
      expect(attempts).toEqual([1, 2, 3]);
      expect(letter.headers[DLQ_HEADERS.error]).toBe('database is down');
      expect(letter.headers[DLQ_HEADERS.attempts]).toBe('3');
      await sub.stop();
      await dlq.stop();
    });

    test('a retryable failure succeeds on a later redelivery while later messages of its partition flow', async () => {
      const id = randomUUID();
      // Same key, so one partition on Kafka, in this order: the failing message first.
      for (const title of ['flaky', 'next-1', 'next-2']) {
        await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, title)));
      }
      const handled: { title: string; attempt: number }[] = [];
      const flakyAttempts: number[] = [];
      const sub = await bus.subscribe(
        Topics.changeRequests,
        `g-${id}`,
        async (m, meta) => {
          if (m.changeRequestId !== id) return;
          if (m.title === 'flaky') {
            flakyAttempts.push(meta.attempt);
            // Fails every quick try of the first delivery; the redelivery succeeds.
            if (meta.attempt <= INLINE_ATTEMPTS) throw new FarmError('not ready yet', { retryable: true });
          }
          handled.push({ title: m.title, attempt: meta.attempt });
        },
        { maxAttempts: 6, retryBackoffMs: 10 },
      );
      await waitFor('flaky handled', () => handled.find((h) => h.title === 'flaky'));
      expect(handled.map((h) => h.title)).toEqual(['next-1', 'next-2', 'flaky']);
      expect(flakyAttempts).toEqual([1, 2, 3, 4]);
      expect(handled.at(-1)).toEqual({ title: 'flaky', attempt: INLINE_ATTEMPTS + 1 });
      // Another group reads the topic: the copy was for the failing group only.
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'marker')));
      const other: string[] = [];
      const watcher = await bus.subscribe(Topics.changeRequests, `other-${id}`, async (m) => {
        if (m.changeRequestId === id) other.push(m.title);
      });
      await waitFor('marker', () => (other.includes('marker') ? true : undefined));
      expect(other).toEqual(['flaky', 'next-1', 'next-2', 'marker']);
      await sub.stop();
      await watcher.stop();
    });

    test('a message whose handler meets an outage is held in place: no attempt counted, nothing copied', async () => {
      const id = randomUUID();
      const { dead, sub: dlq } = await collectDeadLetters(`dlq-${id}`);
      for (const title of ['held', 'next']) {
        await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, title)));
      }
      const tries: { title: string; attempt: number }[] = [];
      const handled: string[] = [];
      let serviceBack = false;
      const sub = await bus.subscribe(
        Topics.changeRequests,
        `g-${id}`,
        async (m, meta) => {
          if (m.changeRequestId !== id) return;
          tries.push({ title: m.title, attempt: meta.attempt });
          if (!serviceBack) {
            throw new FarmError('database unavailable: connect ECONNREFUSED', { retryable: true, outage: true });
          }
          handled.push(m.title);
        },
        // An outage longer than every attempt the subscription allows: still not dead-lettered.
        { maxAttempts: 2, retryBackoffMs: 10 },
      );
      await waitFor('tries beyond maxAttempts', () => (tries.length > 4 ? true : undefined));
      serviceBack = true;
      await waitFor('both handled', () => (handled.length === 2 ? true : undefined));
      expect(handled).toEqual(['held', 'next']); // the partition waited with it
      expect(new Set(tries.map((t) => `${t.title}:${t.attempt}`))).toEqual(new Set(['held:1', 'next:1']));
      // Another group reads the topic: the two messages as published, no copy of the held one.
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'marker')));
      const other: string[] = [];
      const watcher = await bus.subscribe(Topics.changeRequests, `other-${id}`, async (m, meta) => {
        if (m.changeRequestId === id) other.push(`${m.title}:${meta.headers['x-farm-redelivery-group'] ?? ''}`);
      });
      await waitFor('marker', () => (other.some((o) => o.startsWith('marker')) ? true : undefined));
      expect(other).toEqual(['held:', 'next:', 'marker:']);
      expect(dead.filter((d) => d.key === id)).toEqual([]);
      await sub.stop();
      await watcher.stop();
      await dlq.stop();
    });

    test('a retryable failure that never succeeds ends in the dead-letter topic with its attempt count', async () => {
      const id = randomUUID();
      const { dead, sub: dlq } = await collectDeadLetters(`dlq-${id}`);
      const attempts: number[] = [];
      const handled: string[] = [];
      const sub = await bus.subscribe(
        Topics.changeRequests,
        `g-${id}`,
        async (m, meta) => {
          if (m.changeRequestId !== id) return;
          if (m.title === 'poison') {
            attempts.push(meta.attempt);
            throw new FarmError('dependency still missing', { retryable: true });
          }
          handled.push(m.title);
        },
        { maxAttempts: 5, retryBackoffMs: 10 },
      );
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'poison')));
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id, 'healthy')));
      const letter = await waitFor('dead letter', () => dead.find((d) => d.key === id));
      expect(handled).toEqual(['healthy']);
      expect(attempts).toEqual([1, 2, 3, 4, 5]);
      expect(letter.headers[DLQ_HEADERS.attempts]).toBe('5');
      expect(letter.headers[DLQ_HEADERS.error]).toBe('dependency still missing');
      expect(letter.headers[DLQ_HEADERS.group]).toBe(`g-${id}`);
      // The original's position, and none of the redelivery bookkeeping: a replay is an ordinary message.
      expect(letter.headers[DLQ_HEADERS.position]).toMatch(/^\d+:\d+$/);
      expect(Object.keys(letter.headers).filter((h) => h.startsWith('x-farm-redelivery-'))).toEqual([]);
      expect(dead.filter((d) => d.key === id)).toHaveLength(1);
      await sub.stop();
      await dlq.stop();
    });

    test('a non-retryable handler error is dead-lettered without retries', async () => {
      const id = randomUUID();
      const { dead, sub: dlq } = await collectDeadLetters(`dlq-${id}`);
      let calls = 0;
      const sub = await bus.subscribe(Topics.changeRequests, `g-${id}`, async (m) => {
        if (m.changeRequestId !== id) return;
        calls++;
        throw new FarmError('repository url is not allowed', { retryable: false });
      });
      await bus.publish(Topics.changeRequests, Topics.changeRequests.type.fromObject(request(id)));
      const letter = await waitFor('dead letter', () => dead.find((d) => d.key === id));
      expect(calls).toBe(1);
      expect(letter.headers[DLQ_HEADERS.errorKind]).toBe('FarmError');
      await sub.stop();
      await dlq.stop();
    });

    test('a group resumes after its last handled message; a second group reads everything', async () => {
      const id = randomUUID();
      const first: string[] = [];
      const sub1 = await bus.subscribe(Topics.plans, `g-${id}`, async (m) => {
        if (m.changeRequestId === id) first.push(m.notes[0]);
      });
      await bus.publish(Topics.plans, Topics.plans.type.fromObject({ changeRequestId: id, notes: ['one'] }));
      await waitFor('first', () => (first.length === 1 ? first : undefined));
      await sub1.stop();
      await bus.publish(Topics.plans, Topics.plans.type.fromObject({ changeRequestId: id, notes: ['two'] }));
      const resumed: string[] = [];
      const sub2 = await bus.subscribe(Topics.plans, `g-${id}`, async (m) => {
        if (m.changeRequestId === id) resumed.push(m.notes[0]);
      });
      const all: string[] = [];
      const sub3 = await bus.subscribe(Topics.plans, `other-${id}`, async (m) => {
        if (m.changeRequestId === id) all.push(m.notes[0]);
      });
      await waitFor('resumed', () => (resumed.length && all.length === 2 ? true : undefined));
      expect(resumed).toEqual(['two']);
      expect(all).toEqual(['one', 'two']);
      await sub2.stop();
      await sub3.stop();
    });
  });
}
