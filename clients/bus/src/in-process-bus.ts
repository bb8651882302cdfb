import { silentLogger, type Logger } from '@farm/runtime';
import { BaseBus } from './base-bus';
import type { PublishOptions, RawHandler, RawMessage, SubscribeOptions, Subscription } from './bus';
import type { BusJournal, JournaledMessage } from './bus-journal';
import { busMetrics, measureLagAtScrape } from './metrics';

interface Group {
  topic: string;
  name: string;
  offset: number;
  /** Indexes handed to a member whose handler has not finished yet. */
  inFlight: Set<number>;
  members: Set<Member>;
  /** The journal's position: the last sequence written and the one to write next. */
  journaled: { written: number; wanted: number };
}
interface UnwrittenMessage {
  message: Omit<JournaledMessage, 'seq'>;
  resolve: () => void;
  reject: (err: unknown) => void;
}
/** At most this many messages a journal write (one statement, well under PostgreSQL's 65,535 parameters). */
const MAX_APPEND_BATCH = 500;
interface Member {
  handler: RawHandler;
  busy: boolean;
  stopped: boolean;
}

export interface InProcessBusOptions {
  /**
   * How long positions wait before they are written (default 0: at once). A few tens of milliseconds let a
   * busy farm write every group's position in one statement for many handled messages instead of a few;
   * a crash meanwhile only redelivers those messages, which consumers handle (they are idempotent).
   */
  positionLingerMs?: number;
}

/**
 * The one-machine bus: an in-memory log per topic and an offset per consumer group, with the same
 * semantics as Kafka: a group's offset moves past a message only after its handler finished, a new group
 * reads from the beginning, and members of one group share the messages.
 *
 * With a journal (see `InProcessBus.open`) every message is written before publish resolves and every
 * group's position after its handler finished, so a farm restarted on the same journal redelivers what was
 * not handled yet and loses nothing.
 */
export class InProcessBus extends BaseBus {
  private readonly logs = new Map<string, RawMessage[]>();
  private readonly groups = new Map<string, Group>(); // key: topic \0 group
  /** Committed positions loaded from the journal, applied when the group subscribes again. */
  private readonly committed = new Map<string, number>();
  private readonly idle = new Set<() => void>();
  /** Published messages waiting for the journal write under way to finish (see writeAppends). */
  private readonly unwritten: UnwrittenMessage[] = [];
  private appendsWrite?: Promise<void>;
  /** The journal write of positions under way (one at a time, for every group at once). */
  private positionsWrite?: Promise<void>;

  constructor(
    log: Logger = silentLogger,
    private readonly journal?: BusJournal,
    private readonly options: InProcessBusOptions = {},
  ) {
    super(log);
    this.stopMeasuringLag = measureLagAtScrape(this);
  }

  private readonly stopMeasuringLag: () => void;

  /** Sets farm_bus_consumer_lag of each group with members: messages after the first one it has not finished. */
  measureLag(): void {
    for (const g of this.groups.values()) {
      if (!g.members.size) continue;
      const firstOpen = Math.min(g.offset, ...g.inFlight);
      busMetrics.consumerLag.set({ topic: g.topic, group: g.name }, this.topicLog(g.topic).length - firstOpen);
    }
  }

  /** A bus whose messages and group positions are kept in `journal` and restored from it. */
  static async open(
    journal: BusJournal,
    log: Logger = silentLogger,
    options: InProcessBusOptions = {},
  ): Promise<InProcessBus> {
    const bus = new InProcessBus(log, journal, options);
    const { messages, positions } = await journal.load();
    for (const m of messages) bus.topicLog(m.topic).push(toRaw(m));
    for (const p of positions) {
      // The group resumes at the first message after the last one it finished.
      const entries = bus.topicLog(p.topic);
      const next = entries.findIndex((e) => seqOf(e) > p.lastSeq);
      bus.committed.set(`${p.topic}\0${p.group}`, next < 0 ? entries.length : next);
    }
    log.info('bus journal loaded', { messages: messages.length, groups: positions.length });
    return bus;
  }

  async publishRaw(topic: string, value: Buffer, options: PublishOptions = {}): Promise<void> {
    if (this.stopping) throw new Error('bus is closed');
    const message = { topic, key: options.key ?? null, value, headers: { ...options.headers } };
    await new Promise<void>((resolve, reject) => {
      this.unwritten.push({ message, resolve, reject });
      this.appendsWrite ??= this.writeAppends();
    });
    for (const [id, group] of this.groups) if (id.startsWith(topic + '\0')) this.pump(topic, group);
  }

  /**
   * Writes the published messages, one write at a time: whatever was published while a write was under way
   * goes into the next one together (one journal statement), so a burst costs a few writes instead of one
   * per message. Each message enters its topic's log after its write, in publish order, so the journal's
   * order is the log's order; a failed write rejects the publishes of its batch only.
   */
  private async writeAppends(): Promise<void> {
    await Promise.resolve(); // a microtask later, so the publishes of one synchronous burst share the first write
    try {
      while (this.unwritten.length) {
        const batch = this.unwritten.splice(0, MAX_APPEND_BATCH);
        let seqs: number[] | undefined;
        try {
          seqs = this.journal ? await this.journal.appendMany(batch.map((b) => b.message)) : undefined;
        } catch (err) {
          this.log.warn('bus journal append failed', { messages: batch.length, err });
          for (const b of batch) b.reject(err);
          continue;
        }
        batch.forEach((b, i) => {
          const entries = this.topicLog(b.message.topic);
          entries.push({ ...b.message, position: `0:${seqs ? seqs[i] : entries.length}` });
          b.resolve();
        });
      }
    } finally {
      // In the same synchronous step as the empty check: a publish from now on starts the next writer.
      this.appendsWrite = undefined;
    }
  }

  async subscribeRaw(
    topic: string,
    group: string,
    handler: RawHandler,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    const id = `${topic}\0${group}`;
    let g = this.groups.get(id);
    if (!g) {
      const start = this.committed.get(id) ?? (options.fromBeginning === false ? this.topicLog(topic).length : 0);
      g = {
        topic,
        name: group,
        offset: start,
        inFlight: new Set(),
        members: new Set(),
        journaled: { written: -1, wanted: -1 },
      };
      this.groups.set(id, g);
    }
    const member: Member = { handler, busy: false, stopped: false };
    g.members.add(member);
    this.pump(topic, g);
    const groupRef = g;
    return {
      stop: async () => {
        member.stopped = true;
        groupRef.members.delete(member);
        while (member.busy) await new Promise((r) => setTimeout(r, 10));
      },
    };
  }

  /** Resolves when every group has caught up with every topic and no handler runs (for tests and shutdown). */
  async drain(): Promise<void> {
    while (!this.isIdle()) await new Promise<void>((r) => this.idle.add(r));
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.stopMeasuringLag();
    for (const g of this.groups.values()) for (const m of g.members) m.stopped = true;
    while ([...this.groups.values()].some((g) => [...g.members].some((m) => m.busy))) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await this.appendsWrite;
    await this.positionsWrite;
  }

  /**
   * Records the group's position: everything before its first unfinished message is done. One journal write
   * at a time for the whole bus, without holding up the handlers; the positions every group reached meanwhile
   * are written next, in one statement (each group's latest), so a burst costs a few writes instead of one per
   * message and group. A position not yet written when the process dies only means redelivery after the
   * restart, which consumers handle (they are idempotent).
   */
  private commitPosition(group: Group, entries: RawMessage[]): void {
    if (!this.journal) return;
    const firstOpen = Math.min(group.offset, ...group.inFlight);
    if (firstOpen === 0) return;
    const j = group.journaled;
    j.wanted = Math.max(j.wanted, seqOf(entries[firstOpen - 1]));
    const linger = this.options.positionLingerMs ?? 0;
    this.positionsWrite ??= (
      linger > 0 ? delay(linger).then(() => this.writePositions()) : this.writePositions()
    ).finally(() => {
      this.positionsWrite = undefined;
      if (this.isIdle()) this.wakeIdleWaiters();
    });
  }

  private async writePositions(): Promise<void> {
    for (;;) {
      const due = [...this.groups.values()]
        .filter((g) => g.journaled.wanted > g.journaled.written)
        .map((g) => ({ group: g, lastSeq: g.journaled.wanted }));
      if (!due.length) return;
      try {
        await this.journal!.commit(due.map((d) => ({ topic: d.group.topic, group: d.group.name, lastSeq: d.lastSeq })));
        for (const d of due) d.group.journaled.written = d.lastSeq;
      } catch (err) {
        // Not fatal: the messages are redelivered after a restart and consumers are idempotent.
        this.log.warn('bus journal commit failed', { groups: due.map((d) => `${d.group.topic}/${d.group.name}`), err });
        return;
      }
    }
  }

  private wakeIdleWaiters(): void {
    for (const resolve of [...this.idle]) {
      this.idle.delete(resolve);
      resolve();
    }
  }

  private topicLog(topic: string): RawMessage[] {
    let entries = this.logs.get(topic);
    if (!entries) this.logs.set(topic, (entries = []));
    return entries;
  }

  private isIdle(): boolean {
    if (this.positionsWrite) return false;
    for (const [id, g] of this.groups) {
      const topic = id.slice(0, id.indexOf('\0'));
      if (g.members.size && (g.offset < this.topicLog(topic).length || [...g.members].some((m) => m.busy)))
        return false;
    }
    return true;
  }

  /** Hands the next messages to idle members; one message at a time per member, in order within a member. */
  private pump(topic: string, group: Group): void {
    const entries = this.topicLog(topic);
    for (const member of group.members) {
      if (member.busy || member.stopped || group.offset >= entries.length) continue;
      const index = group.offset++;
      const message = entries[index];
      member.busy = true;
      group.inFlight.add(index);
      void member
        .handler(message)
        .then(
          () => {
            group.inFlight.delete(index);
            this.commitPosition(group, entries);
          },
          (err) => {
            // Only a stopping handler throws (see deliverMessage): give the message back for the next member.
            group.inFlight.delete(index);
            group.offset = Math.min(group.offset, index);
            this.log.warn('message handed back', { topic, err });
          },
        )
        .finally(() => {
          member.busy = false;
          if (!this.stopping) this.pump(topic, group);
          if (this.isIdle()) this.wakeIdleWaiters();
        });
    }
  }
}

const seqOf = (m: RawMessage): number => Number(m.position.slice(m.position.indexOf(':') + 1));

const toRaw = (m: JournaledMessage): RawMessage => ({
  topic: m.topic,
  key: m.key,
  value: m.value,
  headers: m.headers,
  position: `0:${m.seq}`,
});

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
