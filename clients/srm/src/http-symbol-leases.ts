import { errorMessage, retryWhileRefused } from '@farm/runtime';
import { errorFromBody, SrmUnavailable, type SrmErrorBody } from './errors';
import {
  leaseFromJson,
  type Lease,
  type LeaseFilter,
  type LeaseJson,
  type ReserveRequest,
  type SymbolLeases,
} from './lease';

/**
 * Client of the srm service's HTTP JSON API. Error responses become the same typed errors the Postgres
 * implementation throws (LeaseConflict, LeaseLost, ...); an unreachable or failing service is SrmUnavailable,
 * which is retryable.
 */
export class HttpSymbolLeases implements SymbolLeases {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly options: { timeoutMs?: number; retryRefusedForMs?: number } = {},
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

  private async leaseCall(leaseId: string, op: 'renew' | 'claim', body: object): Promise<Lease> {
    const { lease } = await this.call<{ lease: LeaseJson }>(
      'POST',
      `/v1/leases/${encodeURIComponent(leaseId)}/${op}`,
      body,
    );
    return leaseFromJson(lease);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    const url = this.baseUrl + path;
    let res: Response;
    try {
      // A refused connection (the srm restarting) is retried: nothing reached it.
      res = await retryWhileRefused(
        () =>
          fetch(url, {
            method,
            headers: body ? { 'content-type': 'application/json' } : undefined,
            body: body ? JSON.stringify(body) : undefined,
            signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
          }),
        this.options.retryRefusedForMs,
      );
    } catch (err) {
      throw new SrmUnavailable(`srm ${method} ${url} failed: ${errorMessage(err)}`, err);
    }
    const text = await res.text();
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
