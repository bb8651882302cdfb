import http from 'node:http';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { silentLogger } from '@farm/runtime';
import { farm } from '@farm/proto';
import { Topics, encodeMessage } from '@farm/bus';
import { streamTransitions } from './change-request-events';
import { parseResumeAfter } from './change-request-input';
import { orchestratorMigrations } from './schema';

let store: SqlStore;
let server: http.Server;
let base: string;

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  server = http.createServer((_req, res) => {
    void streamTransitions({
      db: store,
      changeRequestId: 'never-final',
      afterSequence: 0,
      res,
      log: silentLogger,
      options: { pollMs: 20, heartbeatMs: 60_000, maxStreamMs: 200 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

test('with maxStreamMs, the stream of a request that is not final ends on its own, for the client to resume', async () => {
  const res = await fetch(`${base}/`);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  // Resolves only once the server ends the response (jest's timeout would fail the test otherwise).
  expect(await res.text()).toBe(': transitions of never-final after 0\n\n');
});

describe('a client that drops the connection anywhere, even mid-event, and resumes with Last-Event-ID', () => {
  const ID = 'reconnecting';
  let live: http.Server;
  let liveBase: string;
  beforeAll(async () => {
    live = http.createServer((req, res) => {
      void streamTransitions({
        db: store,
        changeRequestId: ID,
        afterSequence: parseResumeAfter(req.headers['last-event-id'] as string | undefined, null),
        res,
        log: silentLogger,
        options: { pollMs: 5, heartbeatMs: 60_000 },
      });
    });
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    liveBase = `http://127.0.0.1:${(live.address() as { port: number }).port}`;
  });
  afterAll(async () => new Promise((resolve) => live.close(resolve)));

  /** Writes transition `seq` as the orchestrator does: its own transaction, the last one DONE. */
  async function write(seq: number, last: boolean): Promise<void> {
    await store.transaction(async (tx) => {
      const transition = {
        changeRequestId: ID,
        sequence: seq,
        atMs: Date.now(),
        toPhase: last ? farm.v1.Phase.DONE : farm.v1.Phase.CODING,
        reason: `step ${seq} ${'x'.repeat(seq % 7 === 0 ? 3000 : 10)}`, // some events span several chunks
      };
      await tx.query('INSERT INTO outbox (topic, msg_key, payload) VALUES ($1, $2, $3)', [
        Topics.phaseTransitions.name,
        ID,
        encodeMessage(Topics.phaseTransitions, farm.v1.PhaseTransition.create(transition)),
      ]);
    });
  }

  test('200 transitions written while it reconnects 100+ times: each received once, in order', async () => {
    const TOTAL = 200;
    const writing = (async () => {
      for (let seq = 1; seq <= TOTAL; seq++) {
        await write(seq, seq === TOTAL);
        if (seq % 10 === 0) await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const received: number[] = [];
    let reconnects = 0;
    let random = 7;
    const next = () => (random = (random * 1103515245 + 12345) % 2147483648) / 2147483648;
    let ended = false;
    while (!ended) {
      const stop = new AbortController();
      const last = received.at(-1);
      const res = await fetch(liveBase, {
        headers: last ? { 'last-event-id': String(last) } : {},
        signal: stop.signal,
      });
      // An EventSource's parsing: an event counts (and its id becomes the last one) at the blank line after it.
      let buffer = '';
      let id: string | undefined;
      const budget = 50 + Math.floor(next() * 4000); // bytes read before this connection is dropped
      let read = 0;
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          // The connection drops after `budget` bytes: what came after them in this chunk never arrives.
          const kept = Buffer.from(chunk).subarray(0, Math.max(0, budget - read));
          read += chunk.length;
          buffer += kept.toString('latin1');
          let cut: number;
          while ((cut = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 1);
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line === '' && id !== undefined) {
              received.push(Number(id));
              id = undefined;
            }
          }
          if (read > budget) {
            stop.abort(); // anywhere: between events or in the middle of one
            break;
          }
        }
        if (!stop.signal.aborted) ended = true; // the server ended the stream: the request is final
      } catch (err) {
        if (!stop.signal.aborted) throw err;
      }
      if (!ended) reconnects++;
    }
    await writing;
    expect(reconnects).toBeGreaterThan(100);
    expect(received).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  }, 120_000);
});
