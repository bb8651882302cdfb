// The text/event-stream wire format (WHATWG HTML, "Server-sent events") as the server writes it; clients read
// it with @farm/farm-api (eventsource-parser). Only what the change request stream uses: id, event, data, comments.

export function formatSseEvent(e: { id: string | number; event: string; data: string }): string {
  const data = e.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `id: ${e.id}\nevent: ${e.event}\n${data}\n`;
}

export const formatSseComment = (text: string) => `: ${text}\n\n`;

/** Waits `ms`, or less when `signal` aborts (a stream's client went away); never rejects. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
