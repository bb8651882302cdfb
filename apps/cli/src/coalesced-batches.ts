/** One caller's item, waiting for the batch that takes it. */
interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(err: unknown): void;
}

/** The callers of one key waiting for its next batch (while the slot exists, a batch runs or is due). */
interface Slot<Item, Result> {
  waiting: Waiting<Item, Result>[];
}

/**
 * Work on one thing (a repository) asked for by many callers, done in batches: callers that ask in the same
 * turn of the event loop share one batch, and those that ask while a batch of their key runs share the next
 * one, started when it ends. So at most one batch runs per key, and a burst of N callers costs a couple of
 * batches instead of N; different keys do not wait for each other. `work` gets the batch's items in the
 * order asked and answers one outcome per item, so one item's failure need not fail the others.
 */
export class CoalescedBatches<Item, Result> {
  private readonly slots = new Map<string, Slot<Item, Result>>();

  constructor(private readonly work: (key: string, items: Item[]) => Promise<PromiseSettledResult<Result>[]>) {}

  /** Resolves with `item`'s outcome in the batch that takes it (rejects with its failure). */
  run(key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      let slot = this.slots.get(key);
      if (!slot) {
        slot = { waiting: [] };
        this.slots.set(key, slot);
        // Next turn, not now: the callers of this turn go in the same batch.
        const first = slot;
        setImmediate(() => this.launch(key, first));
      }
      slot.waiting.push({ item, resolve, reject });
    });
  }

  /** Keys with a batch running or waiting (for tests and metrics). */
  get inFlight(): number {
    return this.slots.size;
  }

  private launch(key: string, slot: Slot<Item, Result>): void {
    const batch = slot.waiting.splice(0);
    // Through a promise even if `work` throws at once: its callers get the failure, the next batch still runs.
    void Promise.resolve()
      .then(() =>
        this.work(
          key,
          batch.map((w) => w.item),
        ),
      )
      .then(
        (outcomes) =>
          batch.forEach((w, i) => {
            const outcome = outcomes[i];
            if (outcome?.status === 'fulfilled') w.resolve(outcome.value);
            else w.reject(outcome ? outcome.reason : new Error(`batch of ${key} answered no outcome for an item`));
          }),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        if (slot.waiting.length) this.launch(key, slot);
        else this.slots.delete(key);
      });
  }
}
