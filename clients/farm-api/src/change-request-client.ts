import createClient, { type Client } from 'openapi-fetch';
import { FINAL_PHASES, farm, parseTaskState } from '@farm/proto';
import { ApiUnreachable, apiErrorFrom } from './api-error';
import { serverSentEvents } from './server-sent-events';
import type { components, paths } from './openapi-types.generated';

type Schemas = components['schemas'];
export type ChangeRequestInput = Schemas['ChangeRequestInput'];
export type SubmitResult = Schemas['SubmitResult'];
export type CancelResult = Schemas['CancelResult'];
export type RequestSummary = Schemas['RequestSummary'];
export type TaskSummary = Schemas['TaskSummary'];
export type ChangeRequestDetail = Schemas['ChangeRequestDetail'];
export type Lesson = Schemas['Lesson'];
export type Scope = Schemas['Scope'];
export type Token = Schemas['Token'];
export type NewToken = Schemas['NewToken'];
export type AuditEvent = Schemas['AuditEvent'];
export type ApproveInput = Schemas['ApproveInput'];
export type DecisionResult = Schemas['DecisionResult'];
export type TaskStep = Schemas['TaskStep'];
export type RequestDiff = Schemas['RequestDiff'];

export interface ChangeRequestClientOptions {
  /** The orchestrator's HTTP address, e.g. http://127.0.0.1:9464 (FARM_URL). */
  baseUrl: string;
  /** A bearer token (FARM_TOKEN) with the scopes of the calls made: read, submit, cancel or admin. */
  token?: string;
  fetch?: typeof fetch;
  /** First wait before re-opening a dropped event stream; doubles up to 5 s. */
  reconnectDelayMs?: number;
  /** Failed attempts in a row (no event in between) before events() gives up. */
  maxReconnects?: number;
}

/**
 * The typed client of the orchestrator's HTTP API: paths, bodies and answers are the types openapi-typescript
 * generates from apps/orchestrator/openapi.yaml, the calls openapi-fetch's. The server's refusals become
 * ApiError (status, field); an unreachable server ApiUnreachable.
 */
export class ChangeRequestClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly api: Client<paths>;
  private readonly reconnectDelayMs: number;
  private readonly maxReconnects: number;
  private readonly authorization: Record<string, string>;

  constructor(options: ChangeRequestClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Looked up on each call, so that a fetch replaced after construction (tests, proxies) is the one used.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.authorization = options.token ? { authorization: `Bearer ${options.token}` } : {};
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: (request) => this.fetch(request),
      headers: this.authorization,
    });
    this.reconnectDelayMs = options.reconnectDelayMs ?? 250;
    this.maxReconnects = options.maxReconnects ?? 10;
  }

  /** Submits the proto3 JSON of a farm.v1.ChangeRequest; repeating it with the same id is harmless. */
  submit(changeRequest: ChangeRequestInput): Promise<SubmitResult> {
    return this.call('/v1/change-requests', () => this.api.POST('/v1/change-requests', { body: changeRequest }));
  }

  async list(limit = 50): Promise<RequestSummary[]> {
    const path = '/v1/change-requests';
    return (await this.call(path, () => this.api.GET(path, { params: { query: { limit } } }))).changeRequests;
  }

  get(id: string): Promise<ChangeRequestDetail> {
    const where = `/v1/change-requests/${encodeURIComponent(id)}`;
    return this.call(where, () => this.api.GET('/v1/change-requests/{id}', { params: { path: { id } } }));
  }

  cancel(id: string, reason = ''): Promise<CancelResult> {
    const where = `/v1/change-requests/${encodeURIComponent(id)}/cancel`;
    const body = reason ? { reason } : {};
    return this.call(where, () => this.api.POST('/v1/change-requests/{id}/cancel', { params: { path: { id } }, body }));
  }

  /** Approves the plan of a request waiting for approval, as it is or edited (the `approve` scope). */
  approve(id: string, input: ApproveInput = {}): Promise<DecisionResult> {
    const where = `/v1/change-requests/${encodeURIComponent(id)}/approve`;
    return this.call(where, () =>
      this.api.POST('/v1/change-requests/{id}/approve', { params: { path: { id } }, body: input }),
    );
  }

  /** Rejects the plan of a request waiting for approval; it ends CANCELLED with the reason. */
  reject(id: string, reason: string): Promise<DecisionResult> {
    const where = `/v1/change-requests/${encodeURIComponent(id)}/reject`;
    return this.call(where, () =>
      this.api.POST('/v1/change-requests/{id}/reject', { params: { path: { id } }, body: { reason } }),
    );
  }

  /** What the agents learned, newest first: of one repository (its clone URL), or of all. */
  async lessons(options: { repo?: string; limit?: number } = {}): Promise<Lesson[]> {
    const query = { ...(options.repo ? { repo: options.repo } : {}), limit: options.limit ?? 50 };
    return (await this.call('/v1/lessons', () => this.api.GET('/v1/lessons', { params: { query } }))).lessons;
  }

  /** A new token (admin), living `expiresInSeconds` or as the operator decides; its secret is in this answer only. */
  createToken(name: string, scopes: Scope[], expiresInSeconds?: number): Promise<NewToken> {
    const body = { name, scopes, ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }) };
    return this.call('/v1/tokens', () => this.api.POST('/v1/tokens', { body }));
  }

  /** The tokens without their secrets (admin). */
  async listTokens(options: { includeRevoked?: boolean } = {}): Promise<Token[]> {
    const query = { includeRevoked: options.includeRevoked ?? false };
    return (await this.call('/v1/tokens', () => this.api.GET('/v1/tokens', { params: { query } }))).tokens;
  }

  /** Revokes the live token with this id or name (admin). */
  revokeToken(idOrName: string): Promise<Token> {
    const where = `/v1/tokens/${encodeURIComponent(idOrName)}/revoke`;
    return this.call(where, () => this.api.POST('/v1/tokens/{id}/revoke', { params: { path: { id: idOrName } } }));
  }

  /** Who submitted, cancelled, created or revoked what (admin), newest first. */
  async audit(
    query: { subject?: string; action?: string; changeRequestId?: string; before?: number; limit?: number } = {},
  ): Promise<AuditEvent[]> {
    return (await this.call('/v1/audit', () => this.api.GET('/v1/audit', { params: { query } }))).events;
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
    yield* this.stream(url, options, (event) => {
      if (event.event !== 'transition') return undefined;
      const t = transitionFromJson(JSON.parse(event.data) as Record<string, unknown>);
      return { id: Number(t.sequence), item: t, final: !t.taskId && FINAL_PHASES.has(t.toPhase) };
    });
  }

  /**
   * A task's steps as its agents take them (GET .../tasks/{taskId}/events), across its dispatches and agent
   * restarts, live until the task ended (the server's `end` event); resumed after a dropped connection like events().
   */
  async *taskSteps(
    id: string,
    taskId: string,
    options: { after?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<TaskStep> {
    const url = `${this.baseUrl}/v1/change-requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}/events`;
    yield* this.stream(url, options, (event) => {
      if (event.event === 'end') return { id: Number(event.id ?? 0), final: true };
      if (event.event !== 'step') return undefined;
      return { id: Number(event.id), item: JSON.parse(event.data) as TaskStep, final: false };
    });
  }

  /** The request's change as its latest build merged it into the integration branch. */
  requestDiff(id: string): Promise<RequestDiff> {
    const where = `/v1/change-requests/${encodeURIComponent(id)}/diff`;
    return this.call(where, () => this.api.GET('/v1/change-requests/{id}/diff', { params: { path: { id } } }));
  }

  /**
   * An event stream of the API after event id `after`: each event `read` makes an item of is yielded once, in
   * order; a dropped connection is re-opened with Last-Event-ID; it ends after the event `read` calls final.
   */
  private async *stream<T>(
    url: string,
    options: { after?: number; signal?: AbortSignal },
    read: (event: { id?: string; event: string; data: string }) => { id: number; item?: T; final: boolean } | undefined,
  ): AsyncGenerator<T> {
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
            headers: {
              accept: 'text/event-stream',
              ...this.authorization,
              ...(last ? { 'last-event-id': String(last) } : {}),
            },
            signal: stop.signal,
          });
        } catch (err) {
          if (stop.signal.aborted) return;
          if (++failures > this.maxReconnects) throw new ApiUnreachable(url, err);
          await this.backoff(failures, stop.signal);
          continue;
        }
        if (!res.ok) {
          const error = apiErrorFrom(res.status, res.statusText, await res.text());
          if (!error.retryable || ++failures > this.maxReconnects) throw error;
          await this.backoff(failures, stop.signal);
          continue;
        }
        try {
          for await (const event of serverSentEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
            const got = read(event);
            if (!got) continue;
            finalSeen ||= got.final;
            if (got.item === undefined || got.id <= last) continue;
            last = got.id;
            failures = 0;
            yield got.item;
          }
          if (finalSeen) return; // the server ends the stream after its last event
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

  /** One JSON call (to `where`, for messages): its data, or the server's refusal as ApiError, or ApiUnreachable. */
  private async call<T>(
    where: string,
    send: () => Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    let answer: { data?: T; error?: unknown; response: Response };
    try {
      answer = await send();
    } catch (err) {
      throw new ApiUnreachable(`${this.baseUrl}${where}`, err);
    }
    const { data, response } = answer;
    if (!response.ok || data === undefined) {
      // openapi-fetch has read the body: its error, parsed when JSON, as text again.
      throw apiErrorFrom(response.status, response.statusText, errorText(answer.error));
    }
    return data;
  }

  private backoff(failures: number, signal: AbortSignal): Promise<void> {
    const ms = Math.min(5000, this.reconnectDelayMs * 2 ** Math.max(0, failures - 1));
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}

const errorText = (error: unknown): string =>
  typeof error === 'string' ? error : error === undefined ? '' : JSON.stringify(error);

/**
 * A PhaseTransition from an event's data: its proto3 JSON, except taskState, which the stream gives by its
 * short name ("SUCCESS"; "" when unset).
 */
export function transitionFromJson(json: Record<string, unknown>): farm.v1.PhaseTransition {
  const taskState = parseTaskState(typeof json.taskState === 'string' ? json.taskState : '');
  return farm.v1.PhaseTransition.fromObject({ ...json, taskState });
}
