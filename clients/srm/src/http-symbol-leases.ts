import { errorMessage, retryWithBackoff } from '@farm/runtime';
import { errorFromBody, SrmUnavailable, type SrmErrorBody } from './errors';
import {
  leaseFromJson,
  type Lease,
  type LeaseFilter,
  type LeaseJson,
  type ReserveRequest,
  type SymbolLeases,
} from './lease';
import type { TaskCommitQuery, TaskCommitRecord, TaskCommits } from './task-commits';

/**
 * Client of the srm service's HTTP JSON API (its leases and its record of the tasks' commits). Error responses become the same typed errors the Postgres
 * implementation throws (LeaseConflict, LeaseLost, ...); an unreachable or failing service is tried again for
 * a while (see `call`), then SrmUnavailable, which is retryable.
 */
export class HttpSymbolLeases implements SymbolLeases, TaskCommits {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly options: {
      timeoutMs?: number;
      retryForMs?: number;
      /** FARM_COMPONENT_TOKEN, which an srm given one asks of every caller. */
      componentToken?: string;
    } = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async reserve(req: ReserveRequest): Promise<Lease[]> {
    const { leases } = await this.call<{ leases: LeaseJson[] }>('POST', '/v1/leases/reserve', req);
    return leases.map(leaseFromJson);
  }

  async renew(leaseId: string, fencingToken: string, ttlSeconds: number): Promise<Lease> {
    return this.leaseCall(leaseId, 'renew', { fencingToken, ttlSeconds });
  }

  async claim(leaseId: string, fencingToken: string, commitSha: string): Promise<Lease> {
    return this.leaseCall(leaseId, 'claim', { fencingToken, commitSha });
  }

  async release(leaseId: string, fencingToken?: string): Promise<void> {
    await this.call('POST', `/v1/leases/${encodeURIComponent(leaseId)}/release`, { fencingToken });
  }

  async releaseHolder(holder: string): Promise<number> {
    const path = `/v1/holders/${encodeURIComponent(holder)}/release`;
    return (await this.call<{ released: number }>('POST', path, {})).released;
  }

  async releaseForChangeRequest(changeRequestId: string): Promise<number> {
    const path = `/v1/change-requests/${encodeURIComponent(changeRequestId)}/release`;
    return (await this.call<{ released: number }>('POST', path, {})).released;
  }

  async liveLeases(filter: LeaseFilter = {}): Promise<Lease[]> {
    const query = new URLSearchParams(
      Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ).toString();
    const { leases } = await this.call<{ leases: LeaseJson[] }>('GET', `/v1/leases${query ? `?${query}` : ''}`);
    return leases.map(leaseFromJson);
  }

  async recordCommit(record: TaskCommitRecord): Promise<void> {
    await this.call('POST', '/v1/task-commits', record);
  }

  async findCommit(query: TaskCommitQuery): Promise<TaskCommitRecord | undefined> {
    const path = `/v1/task-commits?${new URLSearchParams(query).toString()}`;
    return (await this.call<{ commit: TaskCommitRecord | null }>('GET', path)).commit ?? undefined;
  }

  private async leaseCall(leaseId: string, op: 'renew' | 'claim', body: object): Promise<Lease> {
    const { lease } = await this.call<{ lease: LeaseJson }>(
      'POST',
      `/v1/leases/${encodeURIComponent(leaseId)}/${op}`,
      body,
    );
    return leaseFromJson(lease);
  }

  /**
   * One API call. Every operation is idempotent on the server (a repeated claim or renew with the same token
   * answers the same lease; a repeated reserve by the same holder gives its leases back), so a call that
   * failed on the way or with a 5xx (the srm, or its database, restarting) is tried again with backoff for
   * up to `retryForMs` (default 90 s); then it is SrmUnavailable, retryable.
   */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    const url = this.baseUrl + path;
    return retryWithBackoff(() => this.callOnce<T>(method, url, body), {
      forMs: this.options.retryForMs ?? 90_000,
      shouldRetry: (err) => err instanceof SrmUnavailable,
    });
  }

  private async callOnce<T>(method: 'GET' | 'POST', url: string, body?: object): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(this.options.componentToken ? { authorization: `Bearer ${this.options.componentToken}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new SrmUnavailable(`srm ${method} ${url} failed: ${describeFailure(err)}`, err, true);
    }
    const text = await res.text().catch((err: unknown) => {
      throw new SrmUnavailable(`srm ${method} ${url}: the answer broke off: ${describeFailure(err)}`, err);
    });
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch (err) {
      throw new SrmUnavailable(`srm ${method} ${url} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`, err);
    }
    if (res.ok) return json as T;
    const errorBody = json as Partial<SrmErrorBody>;
    // A body without our error shape (a proxy's page, say) is judged by its status alone.
    throw errorFromBody(
      errorBody.error?.kind
        ? (errorBody as SrmErrorBody)
        : { error: { kind: 'Unknown', message: text.slice(0, 200), details: {} } },
      res.status,
    );
  }
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, a reset) is in its cause. */
function describeFailure(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  return cause ? `${errorMessage(err)}: ${errorMessage(cause)}` : errorMessage(err);
}
