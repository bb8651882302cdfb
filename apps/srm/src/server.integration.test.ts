import { createPgStore, type SqlStore } from '@farm/store';
import {
  HttpSymbolLeases,
  LeaseConflict,
  PostgresSymbolLeases,
  SrmUnavailable,
  type SrmErrorBody,
} from '@farm/srm-client';
import { describeSymbolLeasesContract, describeTaskCommitsContract } from '@farm/srm-client/testing';
import { startSrmServer, type SrmServer } from './server';

async function startOnPostgres(
  port = 0,
  componentToken?: string,
): Promise<{ server: SrmServer; close(): Promise<void> }> {
  const store: SqlStore = createPgStore(process.env.DATABASE_URL!, { max: 16 });
  const leases = await PostgresSymbolLeases.open(store);
  const server = await startSrmServer({ leases, port, host: '127.0.0.1', componentToken });
  return {
    server,
    close: async () => {
      await server.close();
      leases.close();
      await store.close();
    },
  };
}

const COMPONENT_TOKEN = `farm_${'c'.repeat(43)}`;

// The HTTP client against the real service must behave exactly like the library, typed errors included; as
// deployed, the service asks for the component token and the client sends it.
describeSymbolLeasesContract('symbol leases over the srm HTTP API (integration, real PostgreSQL)', async () => {
  const { server, close } = await startOnPostgres(0, COMPONENT_TOKEN);
  return { leases: new HttpSymbolLeases(server.url, { componentToken: COMPONENT_TOKEN }), close };
});

describeTaskCommitsContract(
  'the record of task commits over the srm HTTP API (integration, real PostgreSQL)',
  async () => {
    const { server, close } = await startOnPostgres(0, COMPONENT_TOKEN);
    return { commits: new HttpSymbolLeases(server.url, { componentToken: COMPONENT_TOKEN }), close };
  },
);

describe('the srm with FARM_COMPONENT_TOKEN', () => {
  let srm: Awaited<ReturnType<typeof startOnPostgres>>;
  beforeAll(async () => {
    srm = await startOnPostgres(0, COMPONENT_TOKEN);
  });
  afterAll(() => srm.close());

  test('refuses a call without the component token or with another one (401); probes need none', async () => {
    const anonymous = await new HttpSymbolLeases(srm.server.url, { retryForMs: 0 }).liveLeases().catch((e) => e);
    expect(anonymous).toMatchObject({
      retryable: false,
      message: expect.stringMatching(/refused the request \(401\)/),
    });
    const other = new HttpSymbolLeases(srm.server.url, { retryForMs: 0, componentToken: `${COMPONENT_TOKEN}x` });
    await expect(other.releaseHolder('cr-x/a')).rejects.toThrow(/\(401\)/);
    // Only the farm writes the record of its commits: someone who may push to agt/<task> cannot make theirs adopted.
    const forged = { taskId: 'cr-x-a', changeRequestId: 'cr-x', commitSha: 'ab'.repeat(20), dispatch: 1 };
    await expect(other.recordCommit(forged)).rejects.toThrow(/\(401\)/);
    const farm = new HttpSymbolLeases(srm.server.url, { componentToken: COMPONENT_TOKEN });
    expect(await farm.findCommit(forged)).toBeUndefined();
    const raw = await fetch(`${srm.server.url}/v1/leases`);
    expect([raw.status, raw.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="agent-farm"']);
    expect(((await raw.json()) as SrmErrorBody).error.kind).toBe('AccessDenied');
    expect(await new HttpSymbolLeases(srm.server.url, { componentToken: COMPONENT_TOKEN }).liveLeases()).toEqual(
      expect.any(Array),
    );
    expect((await fetch(`${srm.server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${srm.server.url}/metrics`)).status).toBe(200);
  });
});

describe('the srm HTTP service', () => {
  let srm: Awaited<ReturnType<typeof startOnPostgres>>;
  beforeAll(async () => {
    srm = await startOnPostgres();
  });
  afterAll(() => srm.close());
  const errorOf = async (res: Response) => ((await res.json()) as SrmErrorBody).error;
  const post = (path: string, body: string) =>
    fetch(srm.server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  test('a conflict is a 409 naming the holder', async () => {
    const req = { repo: 'r-409', symbols: ['add'], holder: 'cr-1/a', changeRequestId: 'cr-1', ttlSeconds: 60 };
    await new HttpSymbolLeases(srm.server.url).reserve(req);
    const res = await post('/v1/leases/reserve', JSON.stringify({ ...req, holder: 'cr-1/b' }));
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({
      kind: 'LeaseConflict',
      details: { repo: 'r-409', conflicts: [{ symbol: 'add', holder: 'cr-1/a' }] },
    });
    await new HttpSymbolLeases(srm.server.url).releaseHolder('cr-1/a');
  });

  test('bad input is a 400 that says what is wrong; unknown leases and routes are 404s', async () => {
    const notJson = await post('/v1/leases/reserve', '{oops');
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).message).toMatch(/not JSON/);
    const missing = await post('/v1/leases/reserve', JSON.stringify({ repo: 'r' }));
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/symbols.*holder.*changeRequestId.*ttlSeconds/);
    expect((await post('/v1/leases/nope/release', '{}')).status).toBe(404);
    expect((await fetch(`${srm.server.url}/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${srm.server.url}/v1/leases/reserve`)).status).toBe(405);
  });

  test('serves health and Prometheus metrics', async () => {
    expect(await (await fetch(`${srm.server.url}/healthz`)).text()).toBe('ok');
    const metrics = await fetch(`${srm.server.url}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    for (const name of ['farm_srm_lease_grants_total', 'farm_srm_lease_conflicts_total', 'farm_srm_leases_active']) {
      expect(text).toContain(name);
    }
  });

  test('an unreachable service is a retryable SrmUnavailable, not a lease error', async () => {
    const dead = await startOnPostgres();
    await dead.close();
    const err = await new HttpSymbolLeases(dead.server.url, { retryForMs: 0 }).liveLeases().catch((e: Error) => e);
    expect(err).toBeInstanceOf(SrmUnavailable);
    expect(err).not.toBeInstanceOf(LeaseConflict);
    expect(err).toMatchObject({ retryable: true });
  });

  test('a service that is restarting is waited for: a refused connection is tried again', async () => {
    const first = await startOnPostgres();
    const port = Number(new URL(first.server.url).port);
    await first.close();
    const client = new HttpSymbolLeases(first.server.url, { retryForMs: 30_000 });
    const call = client.liveLeases({ repo: 'nothing-here' });
    await new Promise((r) => setTimeout(r, 500)); // refused meanwhile
    const again = await startOnPostgres(port);
    try {
      expect(await call).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
