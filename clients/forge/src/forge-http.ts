import { causedByStopping, sleepUnlessStopping, stoppingSignal } from '@farm/runtime';
import { ForgeApiError } from './forge';
import { rateLimitOf } from './forge-rate-limit';

export interface ForgeHttpOptions {
  /** The API root, e.g. https://api.github.com, http://127.0.0.1:3000/api/v1, https://gitlab.com/api/v4. */
  apiUrl: string;
  /** Headers that authenticate (the adapter decides the scheme); never logged nor put in an error. */
  authHeaders: Record<string, string>;
  /** Extra headers on every call (Accept, API version). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** How many times a 429/5xx/network failure is tried again (default 3), waiting Retry-After up to 10 s. */
  retries?: number;
  /**
   * The longest a call waits out rate limits (default 60 s, all waits together); a limit that resets later
   * fails the call with a retryable ForgeApiError whose `retryAt` says when to try again.
   */
  maxRateLimitWaitMs?: number;
  timeoutMs?: number;
}

export interface ForgeResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * The adapters' one HTTP client: JSON in and out, typed errors that carry the forge's message (never the
 * token), bounded retries of what can pass (429, 5xx, a refused connection) honouring Retry-After, and rate
 * limits (forge-rate-limit.ts) waited out up to a bound, beyond which the error says when they reset.
 */
export class ForgeHttp {
  private readonly fetchFn: typeof fetch;
  constructor(private readonly opts: ForgeHttpOptions) {
    this.fetchFn = opts.fetch ?? fetch;
  }

  async request<T = unknown>(
    method: string,
    path: string,
    init: { query?: Record<string, string | number | undefined>; body?: unknown; accept?: string } = {},
  ): Promise<ForgeResponse<T>> {
    const url = new URL(this.opts.apiUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const retries = this.opts.retries ?? 3;
    let rateLimitBudgetMs = this.opts.maxRateLimitWaitMs ?? 60_000;
    let rateLimitWaits = 0;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchFn(url, {
          method,
          headers: {
            accept: init.accept ?? 'application/json',
            'user-agent': 'agent-farm',
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...this.opts.headers,
            ...this.opts.authHeaders,
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.any([AbortSignal.timeout(this.opts.timeoutMs ?? 30_000), stoppingSignal()]),
        });
      } catch (err) {
        if (causedByStopping(err)) throw stoppingSignal().reason as Error;
        if (attempt < retries) {
          await sleep(backoffMs(attempt));
          continue;
        }
        throw new ForgeApiError(`${method} ${path}: ${(err as Error).message}`, 0, { cause: err });
      }
      const text = await res.text();
      if (res.ok) {
        const isJson = (res.headers.get('content-type') ?? '').includes('json');
        return { status: res.status, headers: res.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
      }
      const limit = rateLimitOf(res.status, res.headers, forgeMessage(text));
      if (limit) {
        // Waiting out a limit is not a failed try: it uses up the time budget, not `retries`.
        if (limit.waitMs <= rateLimitBudgetMs && rateLimitWaits < MAX_RATE_LIMIT_WAITS) {
          rateLimitBudgetMs -= limit.waitMs;
          rateLimitWaits++;
          attempt--;
          await sleep(limit.waitMs);
          continue;
        }
        throw new ForgeApiError(
          `${method} ${path} answered ${res.status}: rate limited until ${limit.until.toISOString()}: ${forgeMessage(text)}`,
          res.status,
          { retryable: true, retryAt: limit.until },
        );
      }
      if ((res.status === 429 || res.status >= 500) && attempt < retries) {
        await sleep(retryAfterMs(res.headers) ?? backoffMs(attempt));
        continue;
      }
      throw new ForgeApiError(`${method} ${path} answered ${res.status}: ${forgeMessage(text)}`, res.status);
    }
  }

  async json<T = unknown>(
    method: string,
    path: string,
    init?: { query?: Record<string, string | number | undefined>; body?: unknown },
  ): Promise<T> {
    return (await this.request<T>(method, path, init)).body;
  }

  /** Every page of a list (Link rel="next" or, without it, until a short page), up to `maxPages`. */
  async all<T>(path: string, query: Record<string, string | number | undefined> = {}, maxPages = 20): Promise<T[]> {
    const out: T[] = [];
    const perPage = 50;
    for (let page = 1; page <= maxPages; page++) {
      const res = await this.request<T[]>('GET', path, {
        query: { ...query, per_page: perPage, limit: perPage, page },
      });
      const items = Array.isArray(res.body) ? res.body : [];
      out.push(...items);
      const link = res.headers.get('link');
      if (link ? !/rel="next"/.test(link) : items.length < perPage) break;
    }
    return out;
  }
}

/** The forge's own message from an error body (JSON `message`/`error`), cut short. */
export function forgeMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { message?: unknown; error?: unknown; errors?: unknown };
    const parts = [j.message, j.error, j.errors]
      .filter((p) => p !== undefined)
      .map((p) => (typeof p === 'string' ? p : JSON.stringify(p)));
    if (parts.length) return parts.join(': ').slice(0, 500);
  } catch {
    // not JSON
  }
  return text.slice(0, 500) || '(empty body)';
}

function retryAfterMs(headers: Headers): number | undefined {
  const v = headers.get('retry-after');
  if (!v) return undefined;
  const s = Number(v);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(v) - Date.now();
  return Number.isFinite(ms) ? Math.min(10_000, Math.max(0, ms)) : undefined;
}

/** A forge that keeps answering "retry now" is not waited on forever. */
const MAX_RATE_LIMIT_WAITS = 3;
const backoffMs = (attempt: number) => Math.min(4000, 250 * 2 ** attempt);
/** A wait between tries (a rate limit may mean a minute) ends when the process begins to stop. */
const sleep = sleepUnlessStopping;
