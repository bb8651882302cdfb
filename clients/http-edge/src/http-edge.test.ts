import { FarmError } from '@farm/runtime';
import { HttpError, createHttpEdge, json, serveHttpEdge, type Authorize, type EdgeServer } from './index';

class TeaPot extends FarmError {
  constructor() {
    super('I am a teapot', { retryable: false });
  }
}

let server: EdgeServer;
const answered: string[] = [];
let policy: Authorize = () => 'allow';

beforeAll(async () => {
  const edge = createHttpEdge({
    routes: [
      { method: 'GET', path: '/v1/things/:id', handler: async (r) => json(200, { id: r.params.id, q: r.query('q') }) },
      { method: 'POST', path: '/v1/things', handler: async (r) => json(201, { got: await r.json({ limit: 64 }) }) },
      {
        method: 'POST',
        path: '/v1/things/:id/poke',
        handler: async (r) => json(202, { got: await r.json({ optional: true }) }),
      },
      { method: 'GET', path: '/v1/whoami', handler: async (r) => json(200, { principal: r.principal ?? null }) },
      { method: 'GET', path: '/v1/teapot', handler: async () => Promise.reject(new TeaPot()) },
      { method: 'GET', path: '/v1/broken', handler: async () => Promise.reject(new Error('db password in here')) },
      { method: 'GET', path: '/healthz', handler: async () => ({ status: 200, body: 'ok' }), authorize: () => 'allow' },
    ],
    authorize: (r) => policy(r),
    toHttpError: (err) =>
      err instanceof TeaPot ? new HttpError(418, err.message, { extra: { kind: err.name } }) : undefined,
    onAnswered: (a) => answered.push(`${a.method} ${a.route ?? '-'} ${a.status}`),
  });
  server = await serveHttpEdge(edge, { host: '127.0.0.1' });
});
afterAll(() => server.close());

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { method, body, headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}
const asJson = { 'content-type': 'application/json' };

describe('the HTTP edge', () => {
  test('routes by method and path, with decoded parameters and single query parameters', async () => {
    expect((await call('GET', '/v1/things/a%20b?q=1')).json).toEqual({ id: 'a b', q: '1' });
    const twice = await call('GET', '/v1/things/a?q=1&q=2');
    expect([twice.status, twice.json]).toEqual([
      400,
      { error: { message: 'q is given 2 times; give it once', field: 'q' } },
    ]);
  });

  test('an unknown path is a 404, a known one with another method a 405 listing the methods in Allow', async () => {
    const missing = await call('GET', '/v1/nothing');
    expect([missing.status, missing.json]).toEqual([404, { error: { message: 'no such resource: /v1/nothing' } }]);
    const wrong = await call('DELETE', '/v1/things/a');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET']);
    expect(wrong.json.error.message).toBe('DELETE is not allowed on /v1/things/a; use GET');
    expect((await call('GET', '/v1/things/%ff')).status).toBe(404); // no id can be malformed percent-encoding
  });

  test('bodies: JSON declared and within the limit, else 415, 413 or a 400 saying why', async () => {
    expect((await call('POST', '/v1/things', '{"a":1}', asJson)).json).toEqual({ got: { a: 1 } });
    expect((await call('POST', '/v1/things', '{"a":1}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await call('POST', '/v1/things', JSON.stringify({ a: 'x'.repeat(100) }), asJson)).status).toBe(413);
    expect((await call('POST', '/v1/things', '{"a":', asJson)).json.error.message).toMatch(
      /^the body is not valid JSON/,
    );
    expect((await call('POST', '/v1/things', ' ', asJson)).json.error.message).toMatch(/body is empty/);
    // An optional body may be absent, with or without a content-type.
    expect((await call('POST', '/v1/things/a/poke')).json).toEqual({});
    expect((await call('POST', '/v1/things/a/poke', '[1]', asJson)).json).toEqual({ got: [1] });
  });

  test('the auth hook decides allow, 401 or 403 before the handler runs; a route may have its own', async () => {
    policy = (r) =>
      r.req.headers.authorization
        ? { deny: 403, message: 'not yours' }
        : { deny: 401, message: 'who are you?', headers: { 'www-authenticate': 'Bearer' } };
    try {
      const anonymous = await call('GET', '/v1/things/a');
      expect([anonymous.status, anonymous.json, anonymous.headers.get('www-authenticate')]).toEqual([
        401,
        { error: { message: 'who are you?' } },
        'Bearer',
      ]);
      expect((await call('GET', '/v1/things/a', undefined, { authorization: 'Bearer x' })).status).toBe(403);
      expect((await call('GET', '/healthz')).json).toBe('ok');
    } finally {
      policy = () => 'allow';
    }
  });

  test('an allowed request carries the principal the hook authenticated to its handler', async () => {
    expect((await call('GET', '/v1/whoami')).json).toEqual({ principal: null });
    policy = () => ({ principal: { subject: 'token:ci', via: 'token', scopes: ['read'] } });
    try {
      expect((await call('GET', '/v1/whoami')).json).toEqual({
        principal: { subject: 'token:ci', via: 'token', scopes: ['read'] },
      });
    } finally {
      policy = () => 'allow';
    }
  });

  test("a service's typed errors get their status and members; anything else is a 500 that tells no secrets", async () => {
    expect(await call('GET', '/v1/teapot')).toMatchObject({
      status: 418,
      json: { error: { message: 'I am a teapot', kind: 'TeaPot' } },
    });
    const broken = await call('GET', '/v1/broken');
    expect([broken.status, broken.json]).toEqual([500, { error: { message: 'internal error; see the service log' } }]);
  });

  test('every answer is reported with its route template, for metrics', async () => {
    answered.length = 0;
    await call('GET', '/v1/things/b');
    await call('GET', '/v1/nothing');
    await call('GET', '/v1/teapot');
    expect(answered).toEqual(['GET /v1/things/:id 200', 'GET - 404', 'GET /v1/teapot 418']);
  });
});
