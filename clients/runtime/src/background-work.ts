import type { Logger } from './logger';

/**
 * Work started from event handlers (a child's exit, a timer) that nobody awaits: a failure is logged, and
 * `settled()` lets a closing component wait until all of it has ended.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly log: Logger,
    /** What a failure is logged as, e.g. "publishing a build result failed". */
    private readonly failure: string,
  ) {}

  add(work: Promise<void>): void {
    const tracked = work.catch((err) => this.log.error(this.failure, { err }));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  get size(): number {
    return this.pending.size;
  }

  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
