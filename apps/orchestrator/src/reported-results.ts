/**
 * The results the agents published for the Jobs that run, as the launcher's own subscription sees them: a
 * failed Job's pod may have been killed just after its agent published, so the launcher waits a little for
 * that result before reporting on the agent's behalf. Keyed by task id and dispatch.
 */
export class ReportedResults {
  private readonly expected = new Map<string, { reported: boolean; waiters: Set<() => void> }>();

  /** Results for this task and dispatch are wanted from now on. */
  expect(taskId: string, dispatch: number): void {
    const key = keyOf(taskId, dispatch);
    if (!this.expected.has(key)) this.expected.set(key, { reported: false, waiters: new Set() });
  }

  /** A result arrived; ignored unless it was expected. */
  seen(taskId: string, dispatch: number): void {
    const entry = this.expected.get(keyOf(taskId, dispatch));
    if (!entry) return;
    entry.reported = true;
    for (const wake of entry.waiters) wake();
  }

  /** Whether the result arrived, waiting up to `graceMs` for it; wanted no longer afterwards. */
  async waitFor(taskId: string, dispatch: number, graceMs: number): Promise<boolean> {
    const key = keyOf(taskId, dispatch);
    const entry = this.expected.get(key);
    if (entry && !entry.reported && graceMs > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, graceMs);
        function wake() {
          clearTimeout(timer);
          entry!.waiters.delete(wake);
          resolve();
        }
        entry.waiters.add(wake);
      });
    this.expected.delete(key);
    return entry?.reported ?? false;
  }

  forget(taskId: string, dispatch: number): void {
    this.expected.delete(keyOf(taskId, dispatch));
  }

  /** Ends every wait now, each with what it has seen so far (on close). */
  wakeAll(): void {
    for (const entry of this.expected.values()) for (const wake of entry.waiters) wake();
  }
}

const keyOf = (taskId: string, dispatch: number) => `${taskId}#${dispatch}`;
