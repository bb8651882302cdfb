import type { farm } from '@farm/proto';
import type { StoredLesson } from '@farm/lessons';
import { ApiError, ApiUnreachable } from './api-error';
import { isFinalTransition } from './change-request-events';
import { SseDecoder } from './server-sent-events';
import { transitionFromJson } from './transition-json';
import type { RequestSummary, TaskSummary } from './state-queries';

export interface ChangeRequestClientOptions {
  /** The orchestrator's HTTP address, e.g. http://127.0.0.1:9464 (FARM_URL). */
  baseUrl: string;
  fetch?: typeof fetch;
  /** First wait before re-opening a dropped event stream; doubles up to 5 s. */
  reconnectDelayMs?: number;
  /** Failed attempts in a row (no event in between) before events() gives up. */
  maxReconnects?: number;
}

export interface SubmitResult {
  changeRequestId: string;
  /** false: the same request (same id and content) had been accepted before. */
  created: boolean;
}

export interface ChangeRequestDetail {
  request: RequestSummary;
  tasks: TaskSummary[];
}

export interface CancelResult {
  changeRequestId: string;
  cancelRequested: boolean;
}

/**
 * A typed client of the orchestrator's HTTP API (apps/orchestrator/openapi.yaml). The server's refusals
 * become ApiError (status, field); an unreachable server ApiUnreachable.
 */
export class ChangeRequestClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly reconnectDelayMs: number;
  private readonly maxReconnects: number;

  constructor(options: ChangeRequestClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.reconnectDelayMs = options.reconnectDelayMs ?? 250;
    this.maxReconnects = options.maxReconnects ?? 10;
  }

  /** Submits the proto3 JSON of a farm.v1.ChangeRequest; repeating it with the same id is harmless. */
  submit(changeRequest: Record<string, unknown>): Promise<SubmitResult> {
    return this.call('POST', '/v1/change-requests', changeRequest);
  }

  async list(limit = 50): Promise<RequestSummary[]> {
    const body = await this.call<{ changeRequests: RequestSummary[] }>('GET', `/v1/change-requests?limit=${limit}`);
    return body.changeRequests;
  }

  get(id: string): Promise<ChangeRequestDetail> {
    return this.call('GET', `/v1/change-requests/${encodeURIComponent(id)}`);
  }

  cancel(id: string, reason = ''): Promise<CancelResult> {
    return this.call('POST', `/v1/change-requests/${encodeURIComponent(id)}/cancel`, reason ? { reason } : {});
  }

  /**
   * The request's phase transitions (task events included) in sequence order after `after` (0: from the
   * first), live until the server closes the stream after the final phase. A dropped connection is re-opened
   * with Last-Event-ID, so nothing is missed or repeated. Ends quietly when `signal` aborts.
   */
  async *events(
    id: string,
    options: { after?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<farm.v1.PhaseTransition> {
    const url = `${this.baseUrl}/v1/change-requests/${encodeURIComponent(id)}/events`;
    let last = options.after ?? 0;
    let finalSeen = false;
    let failures = 0;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        let res: Response;
        try {
          res = await this.fetch(url, {
            headers: { accept: 'text/event-stream', ...(last ? { 'last-event-id': String(last) } : {}) },
            signal: stop.signal,
          });
        } catch (err) {
          if (stop.signal.aborted) return;
          if (++failures > this.maxReconnects) throw new ApiUnreachable(url, err);
          await this.backoff(failures, stop.signal);
          continue;
        }
        if (!res.ok) {
          const error = await errorFrom(res);
          if (!error.retryable || ++failures > this.maxReconnects) throw error;
          await this.backoff(failures, stop.signal);
          continue;
        }
        try {
          const decoder = new SseDecoder();
          const text = new TextDecoder();
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            for (const event of decoder.push(text.decode(chunk, { stream: true }))) {
              if (event.event !== 'transition') continue;
              const t = transitionFromJson(JSON.parse(event.data) as Record<string, unknown>);
              if (Number(t.sequence) <= last) continue;
              last = Number(t.sequence);
              failures = 0;
              finalSeen ||= isFinalTransition(t);
              yield t;
            }
          }
          if (finalSeen) return; // the server ends the stream after the final phase's transaction
        } catch (err) {
          if (stop.signal.aborted) return;
          if (++failures > this.maxReconnects) throw new ApiUnreachable(url, err);
        }
        await this.backoff(failures, stop.signal); // dropped (or the server went away): resume after `last`
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      stop.abort(); // also when the caller stops iterating early
    }
  }

  /** What the agents learned, newest first: of one repository (its clone URL), or of all. */
  async lessons(options: { repo?: string; limit?: number } = {}): Promise<StoredLesson[]> {
    const query = new URLSearchParams();
    if (options.repo) query.set('repo', options.repo);
    query.set('limit', String(options.limit ?? 50));
    return (await this.call<{ lessons: StoredLesson[] }>('GET', `/v1/lessons?${query}`)).lessons;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    let res: Response;
    try {
      res = await this.fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiUnreachable(url, err);
    }
    if (!res.ok) throw await errorFrom(res);
    return (await res.json()) as T;
  }

  private backoff(failures: number, signal: AbortSignal): Promise<void> {
    const ms = Math.min(5000, this.reconnectDelayMs * 2 ** Math.max(0, failures - 1));
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}

/** The server's `{"error": {"message", "field"}}`, or whatever a proxy in between answered. */
async function errorFrom(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; field?: unknown } };
    if (typeof body.error?.message === 'string') {
      return new ApiError(
        res.status,
        body.error.message,
        typeof body.error.field === 'string' ? body.error.field : undefined,
      );
    }
  } catch {
    // not JSON: reported below with the text itself
  }
  return new ApiError(res.status, `HTTP ${res.status}: ${text.slice(0, 200) || res.statusText}`);
}
