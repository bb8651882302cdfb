import { silentLogger, type Logger } from '@farm/runtime';
import { BaseBus } from './base-bus';
import type { PublishOptions, RawHandler, RawMessage, SubscribeOptions, Subscription } from './bus';

interface Group {
  offset: number;
  members: Set<Member>;
}
interface Member {
  handler: RawHandler;
  busy: boolean;
  stopped: boolean;
}

/**
 * The one-machine bus: an in-memory log per topic and an offset per consumer group, with the same
 * semantics as Kafka: a group's offset moves past a message only after its handler finished, a new group
 * reads from the beginning, and members of one group share the messages.
 */
export class InProcessBus extends BaseBus {
  private readonly logs = new Map<string, RawMessage[]>();
  private readonly groups = new Map<string, Group>(); // key: topic \0 group
  private readonly idle = new Set<() => void>();

  constructor(log: Logger = silentLogger) {
    super(log);
  }

  async publishRaw(topic: string, value: Buffer, options: PublishOptions = {}): Promise<void> {
    if (this.stopping) throw new Error('bus is closed');
    const entries = this.topicLog(topic);
    entries.push({
      topic,
      key: options.key ?? null,
      value,
      headers: { ...options.headers },
      position: `0:${entries.length}`,
    });
    for (const [id, group] of this.groups) if (id.startsWith(topic + '\0')) this.pump(topic, group);
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
      g = { offset: options.fromBeginning === false ? this.topicLog(topic).length : 0, members: new Set() };
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
    for (const g of this.groups.values()) for (const m of g.members) m.stopped = true;
    while ([...this.groups.values()].some((g) => [...g.members].some((m) => m.busy))) {
      await new Promise((r) => setTimeout(r, 10));
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
      const message = entries[group.offset++];
      member.busy = true;
      void member
        .handler(message)
        .catch((err) => {
          // Only a stopping handler throws (see deliverMessage): give the message back for the next member.
          group.offset = Math.min(group.offset, entries.indexOf(message));
          this.log.warn('message handed back', { topic, err });
        })
        .finally(() => {
          member.busy = false;
          if (!this.stopping) this.pump(topic, group);
          if (this.isIdle()) this.wakeIdleWaiters();
        });
    }
  }
}
