import { FarmError, errorMessage } from '@farm/runtime';
import type { Chunk } from './chunker';
import type { IndexResult } from './index-repo';
import { DEFAULT_SEARCH_LIMIT, type IndexRequest, type RagApi } from './rag-api';
import type { ScoredChunk } from './snippet-index';

/** The rag-service refused or failed a call. `retryable` follows the HTTP status (5xx, 429, network: yes). */
export class RagServiceError extends FarmError {
  constructor(
    message: string,
    readonly status: number | undefined,
    options: { retryable: boolean; cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, { ...options, details: { status, ...options.details } });
  }
}

export interface RagClientOptions {
  /** e.g. http://rag-service:8470 */
  baseUrl: string;
  /** Per search/snippets call. Default 30 s. */
  timeoutMs?: number;
  /** Per index call, which clones and indexes a whole repository. Default 15 min. */
  indexTimeoutMs?: number;
  /** FARM_COMPONENT_TOKEN, which a rag-service given one asks of every caller. */
  componentToken?: string;
}

/** HTTP client of the rag-service, with the same methods as `LocalRag`. */
export class RagClient implements RagApi {
  private readonly baseUrl: string;

  constructor(private readonly opts: RagClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  indexRepo(req: IndexRequest): Promise<IndexResult> {
    return this.post<IndexResult>('/v1/index', req, this.opts.indexTimeoutMs ?? 15 * 60_000);
  }

  async snippetsByBlobIds(repo: string, commit: string, blobIds: string[]): Promise<Chunk[]> {
    return (await this.post<{ chunks: Chunk[] }>('/v1/snippets', { repo, commit, blobIds })).chunks;
  }

  async search(repo: string, commit: string, query: string, limit = DEFAULT_SEARCH_LIMIT): Promise<ScoredChunk[]> {
    return (await this.post<{ results: ScoredChunk[] }>('/v1/search', { repo, commit, query, limit })).results;
  }

  private async post<T>(route: string, body: unknown, timeoutMs = this.opts.timeoutMs ?? 30_000): Promise<T> {
    const url = `${this.baseUrl}${route}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.componentToken ? { authorization: `Bearer ${this.opts.componentToken}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new RagServiceError(`rag-service ${route} unreachable: ${errorMessage(err)}`, undefined, {
        retryable: true,
        cause: err,
        details: { url },
      });
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch (err) {
      throw new RagServiceError(`rag-service ${route} answered ${res.status} with non-JSON`, res.status, {
        retryable: res.status >= 500,
        cause: err,
      });
    }
    if (!res.ok) {
      const error = (parsed as { error?: { message?: string; retryable?: boolean } } | undefined)?.error;
      const retryable = error?.retryable ?? (res.status === 429 || res.status >= 500);
      throw new RagServiceError(`rag-service ${route}: ${error?.message ?? res.statusText}`, res.status, { retryable });
    }
    return parsed as T;
  }
}
