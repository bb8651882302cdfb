import type { ServerResponse } from 'node:http';
import { FINAL_PHASES, farm } from '@farm/proto';
import { Topics } from '@farm/bus';
import { errorMessage, type Logger } from '@farm/runtime';
import type { SqlExecutor } from '@farm/store';
import { readOutbox } from './outbox';
import { requestPhase } from './request-store';
import { formatSseComment, formatSseEvent, sleep } from './server-sent-events';
import { transitionToJson } from './transition-json';

export interface EventStreamOptions {
  /** How often the outbox is read for new transitions. */
  pollMs: number;
  /** Comment lines that keep proxies and idle timeouts from closing a quiet stream. */
  heartbeatMs: number;
  /**
   * Ends a stream after this long even though its request is not final (the client resumes with
   * Last-Event-ID); unbounded when absent. For clients that read a response to its end, such as fuzzers.
   */
  maxStreamMs?: number;
}

export const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = { pollMs: 300, heartbeatMs: 15_000 };

export interface StoredTransition {
  /** The outbox row: the read cursor, increasing in commit order for one request. */
  row: number;
  transition: farm.v1.PhaseTransition;
}

const isFinalPhaseName = (name: string | undefined) => name === 'DONE' || name === 'FAILED' || name === 'CANCELLED';

/** A request-level move into DONE, FAILED or CANCELLED: nothing of the request comes after its transaction. */
export const isFinalTransition = (t: farm.v1.PhaseTransition) => !t.taskId && FINAL_PHASES.has(t.toPhase);

/**
 * The request's phase transitions written after outbox row `afterRow`, in order. The outbox keeps every one
 * the orchestrator published (keyed by the request id), so this is the same on Kafka and the in-process bus
 * and survives restarts. Rows of one request are written under its row lock, so row order is commit order.
 */
export async function readTransitions(db: SqlExecutor, changeRequestId: string, afterRow: number) {
  const rows = await readOutbox(db, changeRequestId, Topics.phaseTransitions.name, afterRow);
  return rows.map(({ row, payload }): StoredTransition => ({
    row,
    transition: farm.v1.PhaseTransition.decode(payload),
  }));
}

/**
 * Writes the request's transitions with a sequence above `afterSequence` as Server-Sent Events, first the
 * stored ones, then new ones as they are committed, and ends the response once the final request-level
 * transition and the task events of its transaction are written. Stops early when the client goes away.
 */
export async function streamTransitions(input: {
  db: SqlExecutor;
  changeRequestId: string;
  afterSequence: number;
  res: ServerResponse;
  log: Logger;
  options?: Partial<EventStreamOptions>;
  /** Asked before each read: false (the caller's token was revoked) ends the stream. */
  stillAllowed?: () => Promise<boolean>;
}): Promise<void> {
  const { db, changeRequestId, res, log } = input;
  const options = { ...DEFAULT_EVENT_STREAM_OPTIONS, ...input.options };
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no', // nginx and similar proxies would otherwise hold events back
  });
  res.write(formatSseComment(`transitions of ${changeRequestId} after ${input.afterSequence}`));
  const heartbeat = setInterval(() => res.write(formatSseComment('keep-alive')), options.heartbeatMs);
  const deadline = Date.now() + (options.maxStreamMs ?? Infinity);
  let cursor = 0;
  let lastSequence = input.afterSequence;
  let sent = 0;
  let polls = 0;
  try {
    while (!gone.signal.aborted) {
      // The first read was authorized with the request itself.
      if (polls++ && input.stillAllowed && !(await input.stillAllowed())) {
        log.info('event stream ended: its token no longer allows it', { changeRequestId });
        break;
      }
      let ended = false;
      // Everything visible now is written before ending: a final transaction also cancels its open tasks.
      for (const { row, transition } of await readTransitions(db, changeRequestId, cursor)) {
        cursor = row;
        ended ||= isFinalTransition(transition);
        const sequence = Number(transition.sequence);
        if (sequence <= lastSequence) continue; // before the resume point
        res.write(
          formatSseEvent({
            id: sequence,
            event: 'transition',
            data: JSON.stringify(transitionToJson(transition)),
          }),
        );
        lastSequence = sequence;
        sent++;
      }
      // An ended request whose history was pruned (FARM_OUTBOX_RETENTION_S) has nothing more to send.
      if (cursor === 0 && !ended) ended = isFinalPhaseName(await requestPhase(db, changeRequestId));
      if (ended || Date.now() >= deadline) break;
      await sleep(Math.min(options.pollMs, deadline - Date.now()), gone.signal);
    }
  } catch (err) {
    // Headers are out: the client sees the stream end early and resumes with Last-Event-ID.
    log.error('event stream failed', { changeRequestId, err: errorMessage(err) });
  } finally {
    clearInterval(heartbeat);
    log.debug('event stream closed', { changeRequestId, sent, clientGone: gone.signal.aborted });
    res.end();
  }
}
