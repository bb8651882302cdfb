import { encodeMessage, type EventBus, type TopicSpec } from '@farm/bus';
import type { Logger } from '@farm/runtime';
import type { SqlExecutor, SqlStore } from '@farm/store';

/** Writes one event to the outbox inside the caller's transaction. */
export type OutboxWriter = <T>(spec: TopicSpec<T>, key: string, message: T | Record<string, unknown>) => Promise<void>;

/**
 * The transactional outbox (the outbox table): events are written in the transaction of the state change
 * that causes them and published after it committed, so none is lost on a crash and none goes out for a
 * change that was rolled back. Sent rows stay while their request lives (its event stream reads them back)
 * and are pruned by age once it ended (pruneOutbox).
 */
export class Outbox {
  private flushing: Promise<void> = Promise.resolve();
  /** The flush queued behind the one running: every caller meanwhile shares it (it reads the rows when it starts). */
  private queued?: Promise<void>;

  constructor(
    private readonly store: SqlStore,
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {}

  /** Adds an event to the caller's transaction; it is published by a flush once that committed. */
  async enqueue<T>(tx: SqlExecutor, spec: TopicSpec<T>, key: string, message: T | Record<string, unknown>) {
    const payload = encodeMessage(spec, message as T);
    await tx.query('INSERT INTO outbox (topic, msg_key, payload) VALUES ($1, $2, $3)', [spec.name, key, payload]);
  }

  /**
   * Publishes the rows committed before the call, in order; serialised so events of one request keep their
   * order. Calls made while a flush runs share one flush after it: a burst of events costs a few flushes, not
   * one each.
   */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.flushing.then(() => {
      this.queued = undefined; // callers from now on need a flush that reads the rows after theirs committed
      return this.publishUnsent();
    });
    this.queued = run;
    this.flushing = run.catch((err) => this.log.error('outbox flush failed; retried on the next event', { err }));
    return run;
  }

  /** Publishes unsent rows in order, then marks those published in one statement (also when one failed). */
  private async publishUnsent(): Promise<void> {
    const rows = await this.store.query<{ id: string; topic: string; msg_key: string; payload: Uint8Array }>(
      'SELECT id, topic, msg_key, payload FROM outbox WHERE published_at IS NULL ORDER BY id',
    );
    const sent: string[] = [];
    try {
      for (const row of rows.rows) {
        await this.bus.publishRaw(row.topic, Buffer.from(row.payload), {
          key: row.msg_key,
          headers: { 'content-type': 'application/x-protobuf' },
        });
        sent.push(row.id);
      }
    } finally {
      // Unmarked rows go out again on the next flush; consumers apply a message once.
      if (sent.length) {
        await this.store.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [sent]);
      }
    }
  }

  /** Waits for a flush under way (shutdown). */
  async settled(): Promise<void> {
    await this.flushing.catch(() => undefined);
  }
}

/**
 * Deletes rows sent more than `retentionMs` ago, except those of a request that has not ended: its event
 * stream may still read them back. Returns how many went.
 */
export async function pruneOutbox(db: SqlExecutor, retentionMs: number): Promise<number> {
  const pruned = await db.query(
    `DELETE FROM outbox o WHERE o.published_at < now() - ($1::text || ' milliseconds')::interval
     AND NOT EXISTS (SELECT 1 FROM change_requests c WHERE c.id = o.msg_key
       AND c.phase NOT IN ('DONE', 'FAILED', 'CANCELLED')) RETURNING o.id`,
    [String(retentionMs)],
  );
  return pruned.rows.length;
}

/** One request's events of `topic` written after outbox row `afterRow`, in row (commit) order. */
export async function readOutbox(
  db: SqlExecutor,
  key: string,
  topic: string,
  afterRow: number,
): Promise<{ row: number; payload: Buffer }[]> {
  const rows = await db.query<{ id: string; payload: Uint8Array }>(
    'SELECT id, payload FROM outbox WHERE msg_key = $1 AND topic = $2 AND id > $3 ORDER BY id',
    [key, topic, afterRow],
  );
  return rows.rows.map((r) => ({ row: Number(r.id), payload: Buffer.from(r.payload) }));
}
