// GET /v1/change-requests over the whole history on PGlite: pages by `before`/`after`, the server's filters, each
// request's origin, submitter and forge link; GET /v1/whoami and GET /v1/forge. Every answer is checked against
// openapi.yaml.
import http from 'node:http';
import { recordAudit, SCOPES } from '@farm/access';
import { InProcessBus } from '@farm/bus';
import { silentLogger } from '@farm/runtime';
import { migrate, type SqlStore } from '@farm/store';
import { testPgliteStore } from '@farm/store/testing';
import { OpenApiConformance, testApiAccess } from '../testing';
import { insertLink } from './forge/forge-store';
import { changeRequestApi, rfc3339 } from './http-api';
import { TaskTopicLauncher } from './launcher';
import { Orchestrator } from './orchestrator';
import { orchestratorMigrations } from './schema';

let store: SqlStore;
const servers: http.Server[] = [];
let base: string;
let withForge: string;
let reader: string;
let admin: string;
let submitter: string;
const conformance = new OpenApiConformance();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, checked against openapi.yaml
type Answer = Record<string, any>;

interface Page {
  changeRequests: { id: string; title: string; phase: string }[];
  sources: Record<string, { origin: string; submittedBy?: string; forge?: Record<string, unknown> }>;
  older?: string;
  newer?: string;
  total: number;
  offset: number;
}

async function call(path: string, token = reader, at = base): Promise<{ status: number; json: Answer }> {
  const res = await fetch(`${at}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  conformance.check({ method: 'GET', url: path, status: res.status, headers: res.headers, body });
  return { status: res.status, json: JSON.parse(body) };
}
const list = async (query: string) => (await call(`/v1/change-requests?${query}`)).json as unknown as Page;
const ids = (page: Page) => page.changeRequests.map((c) => c.id);

/** r00 (oldest) … r11 (newest), one minute apart: r00-r05 consumed, r06 only submitted, r07-r11 on the bus or forge. */
const ID = (i: number) => `r${String(i).padStart(2, '0')}`;
const AT = (i: number) => new Date(Date.UTC(2025, 0, 1, 12, i)).toISOString();

async function serve(routes: ReturnType<typeof changeRequestApi>): Promise<string> {
  const server = http.createServer((req, res) => {
    void routes(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  store = await testPgliteStore();
  await migrate(store, orchestratorMigrations);
  const bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const given = await testApiAccess(store);
  admin = given.adminToken;
  reader = await given.tokenWith(['read'], 'reader');
  submitter = await given.tokenWith(['submit'], 'submitter');
  for (let i = 0; i < 12; i++) {
    const title = i === 3 ? 'Add 100% coverage_to calc' : i === 4 ? 'ADD multiply' : `Request ${i}`;
    const repo = i % 2 ? 'http://git.example/odd.git' : 'http://git.example/even.git';
    const phase = i < 2 ? 'FAILED' : 'DONE';
    if (i !== 6) {
      await store.query(
        `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, created_at) VALUES ($1, $2, $3, 'main', $4, $5)`,
        [ID(i), phase, repo, title, AT(i)],
      );
    }
    if (i <= 6) {
      await store.query(
        `INSERT INTO api_submissions (id, digest, title, repo_url, base_ref, created_at) VALUES ($1, 'd', $2, $3, 'main', $4)`,
        [ID(i), title, i === 5 ? '/home/me/calc' : repo, AT(i)],
      );
      await recordAudit(store, {
        subject: i % 3 ? 'token:ci-bot' : 'token:alice',
        action: 'submit',
        changeRequestId: ID(i),
      });
    }
  }
  await store.query(
    `INSERT INTO tasks (id, change_request_id, goal, status, task, cost_usd) VALUES ('r02-a', 'r02', 'g', 'SUCCESS', '', 0.5),
     ('r02-b', 'r02', 'g', 'PENDING', '', 0.25)`,
  );
  await insertLink(store, {
    changeRequestId: ID(9),
    repo: 'owner/odd',
    origin: 'issue',
    issueNumber: 7,
    pullNumber: 12,
    pullUrl: 'javascript:alert(1)',
    reply: {},
  });
  await insertLink(store, { changeRequestId: ID(2), repo: 'owner/even', origin: 'request', pullNumber: 3, reply: {} });
  base = await serve(changeRequestApi({ store, orchestrator, log: silentLogger, access: given.access }));
  withForge = await serve(
    changeRequestApi({
      store,
      orchestrator,
      log: silentLogger,
      access: given.access,
      forgeSite: { kind: 'gitea', webUrl: 'http://forge.example' },
    }),
  );
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await store.close();
});

describe('GET /v1/change-requests pages through the whole history', () => {
  test('newest first, `older` leads to the next page and `newer` back, up to both ends', async () => {
    const first = await list('limit=5');
    expect(ids(first)).toEqual(['r11', 'r10', 'r09', 'r08', 'r07']);
    expect([first.older, first.newer]).toEqual(['r07', undefined]);
    expect([first.total, first.offset]).toEqual([12, 0]);
    const second = await list(`limit=5&before=${first.older}`);
    expect(ids(second)).toEqual(['r06', 'r05', 'r04', 'r03', 'r02']);
    expect([second.older, second.newer]).toEqual(['r02', 'r06']);
    expect([second.total, second.offset]).toEqual([12, 5]);
    const last = await list(`limit=5&before=${second.older}`);
    expect(ids(last)).toEqual(['r01', 'r00']);
    expect([last.older, last.newer]).toEqual([undefined, 'r01']);
    expect([last.total, last.offset]).toEqual([12, 10]);
    const back = await list(`limit=5&after=${last.newer}`);
    expect(ids(back)).toEqual(ids(second));
    expect([back.older, back.newer]).toEqual(['r02', 'r06']);
    expect(back.offset).toBe(5); // read upwards from r01: the same place as `second`
    const top = await list(`limit=5&after=${back.newer}`);
    expect(ids(top)).toEqual(ids(first));
    expect([top.older, top.newer]).toEqual(['r07', undefined]);
    expect(top.offset).toBe(0);
    // Both: the requests between the two.
    expect(ids(await list('before=r05&after=r02'))).toEqual(['r04', 'r03']);
    // An unknown request lists nothing.
    expect(await list('before=nope')).toEqual({ changeRequests: [], sources: {}, total: 12, offset: 0 });
  });

  test('filters on the server: phase, repository, submitter, origin, time and words of the title', async () => {
    expect(ids(await list('phase=FAILED'))).toEqual(['r01', 'r00']);
    expect(ids(await list('phase=SUBMITTED'))).toEqual(['r06']);
    expect(ids(await list('repo=ODD.git&limit=3'))).toEqual(['r11', 'r09', 'r07']);
    // The path it was submitted with counts too.
    expect(ids(await list('repo=%2Fhome%2Fme'))).toEqual(['r05']);
    expect(ids(await list('submittedBy=alice'))).toEqual(['r06', 'r03', 'r00']);
    expect(ids(await list('submittedBy=token%3Aalice&before=r03'))).toEqual(['r00']);
    expect(ids(await list('origin=forge'))).toEqual(['r09']);
    expect(ids(await list('origin=bus'))).toEqual(['r11', 'r10', 'r08', 'r07']);
    expect(ids(await list('origin=api&limit=2'))).toEqual(['r06', 'r05']);
    const since = encodeURIComponent(AT(9));
    const until = encodeURIComponent('2025-01-01T13:03:00+01:00');
    expect(ids(await list(`since=${since}`))).toEqual(['r11', 'r10', 'r09']);
    expect(ids(await list(`until=${until}`))).toEqual(['r02', 'r01', 'r00']);
    // Case-insensitive, and % or _ are themselves.
    expect(ids(await list('q=add'))).toEqual(['r04', 'r03']);
    expect(ids(await list('q=100%25'))).toEqual(['r03']);
    expect(ids(await list('q=e_t'))).toEqual(['r03']); // not "Request": _ is no wildcard
    expect(ids(await list('q=r10'))).toEqual(['r10']);
    // Filters and paging together: the pages of the filtered list.
    const page = await list('repo=odd&limit=2&before=r09');
    expect([ids(page), page.older, page.newer]).toEqual([['r07', 'r05'], 'r05', 'r07']);
    expect([page.total, page.offset]).toEqual([6, 2]); // of r11, r09, r07, r05, r03, r01: after r11 and r09
    // No stored text holds NUL: nothing, rather than a failed query.
    expect(await list('q=%00')).toEqual({ changeRequests: [], sources: {}, total: 0, offset: 0 });
  });

  test("each request's origin, submitter and forge link; a request's tasks summed on its page", async () => {
    const page = await list('limit=12');
    expect(page.sources.r09).toEqual({
      origin: 'forge',
      forge: { repo: 'owner/odd', origin: 'issue', issue: 7, pullRequest: { number: 12, url: 'javascript:alert(1)' } },
    });
    expect(page.sources.r02).toEqual({
      origin: 'api',
      submittedBy: 'token:ci-bot',
      forge: { repo: 'owner/even', origin: 'request', pullRequest: { number: 3, url: '' } },
    });
    expect(page.sources.r10).toEqual({ origin: 'bus' });
    expect(page.changeRequests.find((c) => c.id === 'r02')).toMatchObject({
      tasksDone: 1,
      tasksTotal: 2,
      costUsd: 0.75,
    });
    expect(page.changeRequests.find((c) => c.id === 'r06')).toMatchObject({ phase: 'SUBMITTED', tasksTotal: 0 });
  });

  test('a bad filter is a 400 naming it', async () => {
    for (const [query, field] of [
      ['phase=DONEISH', 'phase'],
      ['origin=email', 'origin'],
      ['since=yesterday', 'since'],
      ['until=2025-02-30T00:00:00Z', 'until'],
      ['limit=0', 'limit'],
      ['phase=', 'phase'],
      ['origin=', 'origin'],
      ['since=', 'since'],
    ]) {
      const res = await call(`/v1/change-requests?${query}`);
      expect([res.status, res.json.error.field]).toEqual([400, field]);
    }
  });
});

describe('RFC 3339 times', () => {
  test('offsets, fractions, lower case and the leap second are read; other text is not', () => {
    expect(rfc3339('2025-01-01T12:00:00Z')).toBe(Date.UTC(2025, 0, 1, 12));
    expect(rfc3339('2025-01-01t13:30:00.250+01:30')).toBe(Date.UTC(2025, 0, 1, 12, 0, 0, 250));
    expect(rfc3339('0001-01-01T00:00:00-23:59')).toBe(rfc3339('0001-01-01T23:59:00Z'));
    expect(rfc3339('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
    for (const bad of [
      '2025-01-01',
      '2025-01-01T12:00:00',
      '2025-13-01T00:00:00Z',
      '2025-02-29T00:00:00Z',
      ' 2025-01-01T00:00:00Z',
    ])
      expect(rfc3339(bad)).toBeUndefined();
  });
});

describe('GET /v1/whoami and GET /v1/forge', () => {
  test('any valid token learns its name and every scope it holds; none is a 401', async () => {
    expect((await call('/v1/whoami')).json).toEqual({
      subject: 'token:reader',
      via: 'token',
      tokenName: 'reader',
      scopes: ['read'],
    });
    // A token without the read scope may still ask.
    expect((await call('/v1/whoami', submitter)).json.scopes).toEqual(['submit']);
    // admin holds every scope there is.
    expect((await call('/v1/whoami', admin)).json.scopes).toEqual([...SCOPES]);
    expect((await call('/v1/whoami', 'farm_not-a-token')).status).toBe(401);
  });

  test('the forge is its kind and web address, or nothing', async () => {
    expect((await call('/v1/forge')).json).toEqual({});
    expect((await call('/v1/forge', reader, withForge)).json).toEqual({
      kind: 'gitea',
      webUrl: 'http://forge.example',
    });
    expect((await call('/v1/forge', submitter)).status).toBe(403);
  });
});
