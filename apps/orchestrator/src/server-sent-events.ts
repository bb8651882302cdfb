// The text/event-stream wire format (WHATWG HTML, "Server-sent events"): writing on the server, parsing in
// the client. Only what the change request stream uses: id, event, data and comments.

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export function formatSseEvent(e: { id: string | number; event: string; data: string }): string {
  const data = e.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `id: ${e.id}\nevent: ${e.event}\n${data}\n`;
}

export const formatSseComment = (text: string) => `: ${text}\n\n`;

/** Turns chunks of a stream (split anywhere) into events; comments and `retry:` lines are skipped. */
export class SseDecoder {
  private buffer = '';
  private heldCr = false;

  push(chunk: string): SseEvent[] {
    let text = (this.heldCr ? '\r' : '') + chunk;
    // A chunk ending in CR may be the first half of CRLF: decide with the next chunk.
    this.heldCr = text.endsWith('\r');
    if (this.heldCr) text = text.slice(0, -1);
    this.buffer += text.replace(/\r\n?/g, '\n');
    const events: SseEvent[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const event = parseBlock(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + 2);
      if (event) events.push(event);
    }
    return events;
  }
}

function parseBlock(block: string): SseEvent | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'id') id = value;
    else if (name === 'event') event = value;
    else if (name === 'data') data.push(value);
  }
  return data.length ? { id, event, data: data.join('\n') } : undefined;
}
