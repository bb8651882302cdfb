import { FarmError } from '@farm/runtime';
import type { Headers } from './bus';

export interface JournaledMessage {
  seq: number;
  topic: string;
  key: string | null;
  value: Buffer | null;
  headers: Headers;
}

/** Where a durable in-process bus keeps its messages and its consumer groups' positions. */
export interface JournalPosition {
  topic: string;
  group: string;
  lastSeq: number;
}

export interface BusJournal {
  load(): Promise<{ messages: JournaledMessage[]; positions: { topic: string; group: string; lastSeq: number }[] }>;
  /**
   * Stores messages in one write (all or none); resolves with their sequence numbers (increasing across all
   * topics), in the order of `messages`.
   */
  appendMany(messages: Omit<JournaledMessage, 'seq'>[]): Promise<number[]>;
  /** Each group has finished every message of its topic up to and including its lastSeq (one write). */
  commit(positions: JournalPosition[]): Promise<void>;
}

/** The part of a SQL store the journal needs (PGlite or PostgreSQL, see @farm/store). */
interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[] }>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bus_messages (
  seq bigserial PRIMARY KEY,
  topic text NOT NULL,
  msg_key text,
  value_b64 text,
  headers text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS bus_positions (
  topic text NOT NULL,
  grp text NOT NULL,
  last_seq bigint NOT NULL,
  PRIMARY KEY (topic, grp)
);`;

/**
 * The bus journal in the farm's own database. Messages older than `retentionDays` are dropped when the farm
 * starts (like a Kafka topic's retention), and so are the positions of groups that have not moved since.
 */
export async function openSqlBusJournal(db: Sql, options: { retentionDays?: number } = {}): Promise<BusJournal> {
  await db.query(SCHEMA);
  const days = options.retentionDays ?? 7;
  return {
    async load() {
      await db.query(`DELETE FROM bus_messages WHERE created_at < now() - make_interval(days => $1)`, [days]);
      const messages = await db.query<{
        seq: string;
        topic: string;
        msg_key: string | null;
        value_b64: string | null;
        headers: string;
      }>('SELECT seq, topic, msg_key, value_b64, headers FROM bus_messages ORDER BY seq');
      const positions = await db.query<{ topic: string; grp: string; last_seq: string }>(
        'SELECT topic, grp, last_seq FROM bus_positions',
      );
      return {
        messages: messages.rows.map((r) => ({
          seq: Number(r.seq),
          topic: r.topic,
          key: r.msg_key,
          value: r.value_b64 === null ? null : Buffer.from(r.value_b64, 'base64'),
          headers: JSON.parse(r.headers) as Headers,
        })),
        positions: positions.rows.map((r) => ({ topic: r.topic, group: r.grp, lastSeq: Number(r.last_seq) })),
      };
    },
    async appendMany(messages) {
      if (!messages.length) return [];
      const values = messages.map((_, i) => `($${4 * i + 1}, $${4 * i + 2}, $${4 * i + 3}, $${4 * i + 4})`).join(', ');
      const r = await db.query<{ seq: string }>(
        `INSERT INTO bus_messages (topic, msg_key, value_b64, headers) VALUES ${values} RETURNING seq`,
        messages.flatMap((m) => [
          m.topic,
          m.key,
          m.value === null ? null : m.value.toString('base64'),
          JSON.stringify(m.headers),
        ]),
      );
      // One statement draws the rows' seqs from one sequence, row by row in VALUES order; RETURNING's order
      // is not promised, so sort them back into it.
      const seqs = r.rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
      if (seqs.length !== messages.length)
        throw new FarmError('bus journal returned a different number of rows than it was given', {
          retryable: false,
          details: { given: messages.length, returned: seqs.length },
        });
      return seqs;
    },
    async commit(positions) {
      if (!positions.length) return;
      const values = positions.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`).join(', ');
      await db.query(
        `INSERT INTO bus_positions (topic, grp, last_seq) VALUES ${values}
         ON CONFLICT (topic, grp) DO UPDATE SET last_seq = GREATEST(bus_positions.last_seq, EXCLUDED.last_seq)`,
        positions.flatMap((p) => [p.topic, p.group, p.lastSeq]),
      );
    },
  };
}
