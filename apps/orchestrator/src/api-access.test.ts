// The orchestrator's HTTP surface on PGlite: which route asks for which scope, /metrics behind a token when
// configured, FARM_ADMIN_TOKEN as a cluster's first admin.
import { InProcessBus } from '@farm/bus';
import { serveMetrics, silentLogger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { testApiAccess } from '../testing';
import { ROUTE_SCOPES, scopeFor } from './api-scopes';
import { loadOrchestratorConfig } from './config';
import { changeRequestApi } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';

describe('the route→scope table', () => {
  test('reading asks for read, submitting submit, cancelling cancel, tokens and the audit admin', () => {
    expect(scopeFor('GET', '/v1/change-requests/:id/events')).toBe('read');
    expect(scopeFor('POST', '/v1/change-requests')).toBe('submit');
    expect(scopeFor('POST', '/v1/change-requests/:id/cancel')).toBe('cancel');
    expect(scopeFor('POST', '/v1/tokens')).toBe('admin');
    expect(scopeFor('GET', '/v1/audit')).toBe('admin');
  });

  test('a route the table does not list asks for admin, so a new route is closed until it is listed', () => {
    expect(scopeFor('GET', '/v1/something-added-later')).toBe('admin');
    expect(scopeFor('DELETE', '/v1/change-requests/:id')).toBe('admin');
    expect(Object.values(ROUTE_SCOPES).filter((s) => s === 'read').length).toBeGreaterThan(0);
  });
});

describe('the access settings', () => {
  test('an empty FARM_ADMIN_TOKEN or FARM_COMPONENT_TOKEN is unset; a short one stops the start naming it', () => {
    const config = loadOrchestratorConfig({ FARM_ADMIN_TOKEN: '', FARM_COMPONENT_TOKEN: '' });
    expect([config.FARM_ADMIN_TOKEN, config.FARM_COMPONENT_TOKEN, config.FARM_METRICS_ACCESS]).toEqual([
      undefined,
      undefined,
      'open',
    ]);
    expect(() => loadOrchestratorConfig({ FARM_ADMIN_TOKEN: 'short' })).toThrow(/FARM_ADMIN_TOKEN/);
    expect(() => loadOrchestratorConfig({ FARM_METRICS_ACCESS: 'closed' })).toThrow(/FARM_METRICS_ACCESS/);
  });
});

describe('the HTTP surface with FARM_METRICS_ACCESS=read and FARM_ADMIN_TOKEN', () => {
  const ADMIN = 'a-cluster-secret-of-at-least-32-characters';
  let store: SqlStore;
  let server: { port: number; close(): Promise<void> };
  let base: string;
  let reader: string;
  let submitter: string;

  beforeAll(async () => {
    store = await testPgliteStore();
    const bus = new InProcessBus();
    const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
    const given = await testApiAccess(store, { FARM_METRICS_ACCESS: 'read', FARM_ADMIN_TOKEN: ADMIN });
    reader = await given.tokenWith(['read']);
    submitter = await given.tokenWith(['submit']);
    server = await serveMetrics(
      0,
      silentLogger,
      changeRequestApi({ store, orchestrator, log: silentLogger, access: given.access }),
    );
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  const get = (path: string, token?: string) =>
    fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  test('/metrics asks for a read token; /healthz stays open to probes', async () => {
    const anonymous = await get('/metrics');
    expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="agent-farm"']);
    expect(((await anonymous.json()) as { error: { message: string } }).error.message).toMatch(/bearer token/);
    expect((await get('/metrics', submitter)).status).toBe(403);
    const scraped = await get('/metrics', reader);
    expect([scraped.status, await scraped.text()]).toEqual([200, expect.stringContaining('# HELP')]);
    expect(await (await get('/healthz')).text()).toBe('ok');
  });

  test('FARM_ADMIN_TOKEN is an admin: it creates the first tokens, recorded as token:farm-admin', async () => {
    const created = await fetch(`${base}/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'first', scopes: ['read'] }),
    });
    expect([created.status, ((await created.json()) as { createdBy: string }).createdBy]).toEqual([
      201,
      'token:farm-admin',
    ]);
    expect((await get('/v1/audit', ADMIN)).status).toBe(200);
    expect((await get('/v1/audit', `${ADMIN}x`)).status).toBe(401);
  });
});
