import { createParser } from 'eventsource-parser';

/** One Server-Sent Event: its id (absent when the event has none), type (`message` when unnamed) and data. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Turns chunks of a text/event-stream (split anywhere, CR, LF or CRLF line ends) into events, with
 * eventsource-parser; comments and `retry:` lines are skipped.
 */
export class SseDecoder {
  private readonly ready: SseEvent[] = [];
  private readonly parser = createParser({
    onEvent: (e) => void this.ready.push({ id: e.id, event: e.event ?? 'message', data: e.data }),
  });

  push(chunk: string): SseEvent[] {
    this.parser.feed(chunk);
    return this.ready.splice(0);
  }
}

/** The events of a response body as they arrive. */
export async function* serverSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  const text = new TextDecoder();
  for await (const chunk of body) yield* decoder.push(text.decode(chunk, { stream: true }));
}
