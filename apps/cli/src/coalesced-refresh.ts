/**
 * Refreshes of one thing (a repository's mirror) shared by the callers that want one: a caller is served by
 * a refresh that started after it asked, never by one already running (which may have missed what the caller
 * wants: a commit made just before it asked). So at most one refresh runs per key and one waits behind it,
 * shared by every caller that came while the first ran; different keys do not wait for each other.
 */
export class CoalescedRefresh {
  private readonly flights = new Map<string, { running: Promise<void>; next?: Promise<void> }>();

  /** Resolves once a refresh of `key` that started after this call has ended (rejects with its failure). */
  run(key: string, refresh: () => Promise<void>): Promise<void> {
    const flight = this.flights.get(key);
    if (!flight) return this.launch(key, refresh);
    flight.next ??= flight.running.then(
      () => this.launch(key, refresh),
      () => this.launch(key, refresh), // the next one's callers asked after it started: they get their own
    );
    return flight.next;
  }

  /** Keys with a refresh running (for tests and metrics). */
  get inFlight(): number {
    return this.flights.size;
  }

  private launch(key: string, refresh: () => Promise<void>): Promise<void> {
    const running = refresh().finally(() => {
      const current = this.flights.get(key);
      if (current?.running === running && !current.next) this.flights.delete(key);
    });
    this.flights.set(key, { running });
    return running;
  }
}
