/**
 * The cap from the ConfigMap's value: absent means the configured cap; a value that is not a whole number >= 0
 * keeps the last cap (and says why, for the log).
 */
export function capFrom(raw: string | undefined, configured: number, last: number): { cap: number; invalid?: string } {
  if (raw === undefined) return { cap: configured };
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 0) return { cap: n };
  return { cap: last, invalid: raw };
}

export interface AdmissionSteps<T> {
  /** The cap now (read before each launch, so that `farm scale` takes effect at once). */
  cap(): Promise<number>;
  /** Items admitted and not yet finished. */
  running(): number;
  /** Starts one; false when it could not for now (the item keeps its place and waits for the next pump). */
  launch(item: T): Promise<boolean>;
  /** Called with the queue's length whenever it changes (a gauge). */
  queued?(length: number): void;
}

/**
 * Items waiting, in order, for one of `cap` slots. `pump()` launches while fewer than the cap run; pumps are
 * serialised, so two launches never both take the last slot.
 */
export class AdmissionQueue<T> {
  private readonly waiting: T[] = [];
  private pumping: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly steps: AdmissionSteps<T>,
    private readonly onError: (err: unknown) => void,
  ) {}

  get length(): number {
    return this.waiting.length;
  }

  add(item: T): void {
    this.waiting.push(item);
    this.steps.queued?.(this.waiting.length);
  }

  /** Drops the waiting items that match (e.g. a cancelled request's). */
  drop(matches: (item: T) => boolean): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) if (matches(this.waiting[i])) this.waiting.splice(i, 1);
    this.steps.queued?.(this.waiting.length);
  }

  /** Launches waiting items while a slot is free; resolves when this pump (and those before it) are done. */
  pump(): Promise<void> {
    this.pumping = this.pumping.then(() => this.launchWaiting()).catch(this.onError);
    return this.pumping;
  }

  /** Launches no more; resolves once the pump under way is done. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pumping;
  }

  private async launchWaiting(): Promise<void> {
    while (this.waiting.length && !this.closed) {
      if (this.steps.running() >= (await this.steps.cap())) break;
      const item = this.waiting.shift()!;
      this.steps.queued?.(this.waiting.length);
      if (!(await this.steps.launch(item))) {
        this.waiting.unshift(item);
        break;
      }
    }
    this.steps.queued?.(this.waiting.length);
  }
}
