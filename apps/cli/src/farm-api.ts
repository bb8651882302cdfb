import { farm, FINAL_PHASES } from '@farm/proto';
import { ConfigError, FarmError } from '@farm/runtime';
import type { RequestSummary, TaskSummary } from '@farm/orchestrator';

/** The farm's HTTP API answered with an error (its JSON body names the field when one applies). */
export class FarmApiError extends FarmError {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(field ? `${message} (field ${field})` : message, { retryable: status >= 500, details: { status, field } });
  }
}

/** The CLI's client of the farm's HTTP API (`farm up` or the orchestrator deployment). */
export class FarmApi {
  constructor(readonly baseUrl: string) {}

  async submit(changeRequest: Record<string, unknown>): Promise<{ changeRequestId: string; created: boolean }> {
    return this.call('POST', '/v1/change-requests', changeRequest);
  }

  async list(limit = 50): Promise<RequestSummary[]> {
    return (await this.call<{ changeRequests: RequestSummary[] }>('GET', `/v1/change-requests?limit=${limit}`))
      .changeRequests;
  }

  async get(id: string): Promise<{ request: RequestSummary; tasks: TaskSummary[] }> {
    return this.call('GET', `/v1/change-requests/${encodeURIComponent(id)}`);
  }

  async cancel(id: string, reason = ''): Promise<void> {
    await this.call('POST', `/v1/change-requests/${encodeURIComponent(id)}/cancel`, { reason });
  }

  /**
   * The request's phase transitions from the first (or after `after`), then live, until a final phase. A
   * dropped connection is resumed with Last-Event-ID, so nothing is missed or repeated.
   */
  async *events(
    id: string,
    opts: { after?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<farm.v1.PhaseTransition> {
    let last = opts.after ?? 0;
    for (let failures = 0; ;) {
      let res: Response;
      try {
        res = await fetch(this.url(`/v1/change-requests/${encodeURIComponent(id)}/events`), {
          headers: { accept: 'text/event-stream', ...(last ? { 'last-event-id': String(last) } : {}) },
          signal: opts.signal,
        });
      } catch (err) {
        if (opts.signal?.aborted || ++failures > 30) throw this.unreachable(err);
        await new Promise((r) => setTimeout(r, Math.min(5000, 200 * failures)));
        continue;
      }
      if (!res.ok) throw await this.errorOf(res);
      try {
        for await (const event of parseServerSentEvents(res.body!)) {
          if (event.event !== 'transition') continue;
          const t = farm.v1.PhaseTransition.fromObject(JSON.parse(event.data) as Record<string, unknown>);
          last = Number(event.id ?? t.sequence);
          failures = 0;
          yield t;
          if (!t.taskId && FINAL_PHASES.has(t.toPhase)) return;
        }
      } catch (err) {
        if (opts.signal?.aborted) throw err;
      }
      // The stream ended before a final phase (the farm restarted, a proxy cut it): resume after `last`.
      if (++failures > 30) throw new FarmError(`the event stream of ${id} keeps breaking`, { retryable: true });
      await new Promise((r) => setTimeout(r, Math.min(5000, 200 * failures)));
    }
  }

  private url(path: string): URL {
    return new URL(path, this.baseUrl);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw this.unreachable(err);
    }
    if (!res.ok) throw await this.errorOf(res);
    return (await res.json()) as T;
  }

  private unreachable(err: unknown): ConfigError {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    return new ConfigError(
      `cannot reach the farm at ${this.baseUrl} (${cause}). Start one with \`farm up\`, or set FARM_URL ` +
        `(or KAFKA_BROKERS to submit through Kafka)`,
    );
  }

  private async errorOf(res: Response): Promise<FarmApiError> {
    const text = await res.text();
    try {
      const body = JSON.parse(text) as { error?: { message?: string; field?: string } | string };
      const e = typeof body.error === 'string' ? { message: body.error } : body.error;
      return new FarmApiError(res.status, e?.message ?? `the farm answered ${res.status}`, e?.field);
    } catch {
      return new FarmApiError(res.status, `the farm answered ${res.status}: ${text.slice(0, 200)}`);
    }
  }
}

export interface ServerSentEvent {
  id?: string;
  event: string;
  data: string;
}

/** Parses a text/event-stream body into events (comments and retry fields are skipped). */
export async function* parseServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: Partial<ServerSentEvent> & { data?: string } = {};
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (event.data !== undefined) yield { id: event.id, event: event.event ?? 'message', data: event.data };
        event = {};
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
      else if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
    }
  }
}
