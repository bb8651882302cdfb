/**
 * Whether the request list stays fast with a long history: 10,000 requests (each with a task) seeded in PostgreSQL
 * under the orchestrator's schema, then the list API (the newest page, a phase filter, a repository filter, a title
 * search, a page deep in the history) and the console's list page in headless Chromium (Debian's `chromium`),
 * each timed against the same on 100 requests, a reference measured in the same run; printed as ratios (1.0: the
 * history's length costs nothing). Uses DATABASE_URL, or starts a local PostgreSQL (scripts/local-services).
 *
 *   node --import tsx bench/request-list-pages.ts [--requests 10000] [--runs 20]
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { InProcessBus } from '@farm/bus';
import { migrate, createPgStore, type SqlStore } from '@farm/store';
import { serveMetrics, silentLogger } from '@farm/runtime';
import { changeRequestApi } from '../apps/orchestrator/src/http-api';
import { openApiAccess } from '../apps/orchestrator/src/api-access';
import { Orchestrator } from '../apps/orchestrator/src/orchestrator';
import { TaskTopicLauncher } from '../apps/orchestrator/src/launcher';
import { orchestratorMigrations } from '../apps/orchestrator/src/schema';
import { startPostgres } from '../scripts/local-services';
import { median } from './process-timing';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '10000' }, runs: { type: 'string', default: '20' } },
});
const REQUESTS = Number(values.requests);
const RUNS = Number(values.runs);
const REFERENCE = 100;
const PHASES = ['DONE', 'DONE', 'DONE', 'FAILED', 'CANCELLED', 'CODING'];

interface Farm {
  base: string;
  token: string;
  store: SqlStore;
  /** An id deep in the history (`before` of a page there). */
  deep: string;
  close(): Promise<void>;
}

/** A schema of its own with `n` requests, one task each, a second apart, and the API served in front of it. */
async function farmWith(databaseUrl: string, n: number): Promise<Farm> {
  const schema = `bench_list_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const admin = createPgStore(databaseUrl);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const store = createPgStore(url.toString());
  await migrate(store, orchestratorMigrations);
  await store.query(
    `INSERT INTO change_requests (id, phase, repo_url, base_ref, title, created_at, updated_at)
     SELECT 'req-' || lpad(i::text, 6, '0'), ($2::text[])[1 + i % array_length($2::text[], 1)],
       'https://git.example.com/team-' || (i % 40) || '/service.git', 'main',
       'Add retry ' || i || ' to the HTTP client of service ' || (i % 40),
       now() - (($1::int - i) * interval '1 minute'), now() - (($1::int - i) * interval '1 minute')
     FROM generate_series(1, $1::int) AS i`,
    [n, PHASES],
  );
  await store.query(
    `INSERT INTO tasks (id, change_request_id, goal, status, task)
     SELECT id || '-a', id, 'Make the change', CASE WHEN phase = 'DONE' THEN 'SUCCESS' ELSE 'PENDING' END, '\\x'
     FROM change_requests`,
  );
  await store.query('ANALYZE');
  const access = await openApiAccess(store, {});
  const { token } = await access.tokens.create({ name: `bench-${schema}`, scopes: ['admin'] }, 'bench');
  const bus = new InProcessBus();
  const orchestrator = new Orchestrator({ bus, store, launcher: new TaskTopicLauncher(bus), log: silentLogger });
  const server = await serveMetrics(
    0,
    silentLogger,
    changeRequestApi({ store, orchestrator, log: silentLogger, access }),
  );
  return {
    base: `http://127.0.0.1:${server.port}`,
    token,
    store,
    deep: `req-${String(Math.max(1, Math.floor(n / 3))).padStart(6, '0')}`,
    async close() {
      await server.close();
      await store.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** The median of `RUNS` calls of `path` (the first, warming, left out), in ms. */
async function timeApi(farm: Farm, pathAndQuery: string): Promise<number> {
  const headers = { authorization: `Bearer ${farm.token}` };
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const res = await fetch(`${farm.base}${pathAndQuery}`, { headers });
    const page = (await res.json()) as { changeRequests?: unknown[] };
    if (!res.ok || !page.changeRequests) throw new Error(`${pathAndQuery}: ${res.status}`);
    if (i) times.push(performance.now() - started);
  }
  return median(times);
}

function chromiumPath(): string {
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
}

/** The median time from opening the console's list page to its first page of rows shown, in ms. */
async function timeConsole(farm: Farm, browser: Browser): Promise<number> {
  const page = await browser.newPage();
  await page.goto(`${farm.base}/console/`);
  await page.evaluate(`sessionStorage.setItem('farm.console.token', ${JSON.stringify(farm.token)})`);
  const times: number[] = [];
  for (let i = 0; i <= Math.min(RUNS, 10); i++) {
    await page.goto('about:blank');
    const started = performance.now();
    await page.goto(`${farm.base}/console/#/requests`);
    await page.locator('table.requests tbody tr').nth(49).waitFor();
    if (i) times.push(performance.now() - started);
  }
  await page.close();
  return median(times);
}

async function main(): Promise<void> {
  const local = process.env.DATABASE_URL ? undefined : await startPostgres();
  const databaseUrl = process.env.DATABASE_URL ?? local!.url;
  const reference = await farmWith(databaseUrl, REFERENCE);
  const big = await farmWith(databaseUrl, REQUESTS);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  try {
    const queries: [string, (f: Farm) => string][] = [
      ['newest page (50)', () => '/v1/change-requests?limit=50'],
      ['phase=FAILED', () => '/v1/change-requests?limit=50&phase=FAILED'],
      ['repo=team-7/', () => '/v1/change-requests?limit=50&repo=team-7%2F'],
      ['title search q=retry 77', () => '/v1/change-requests?limit=50&q=retry%2077'],
      ['a page deep in the history', (f) => `/v1/change-requests?limit=50&before=${f.deep}`],
    ];
    // Both servers and databases warmed first: the first measured would otherwise pay for the JIT and the caches.
    for (const farm of [reference, big]) for (const [, query] of queries) await timeApi(farm, query(farm));
    console.log(`request list: ${REQUESTS} requests against ${REFERENCE} (reference), median of ${RUNS} runs`);
    for (const [name, query] of queries) {
      const ref = await timeApi(reference, query(reference));
      const got = await timeApi(big, query(big));
      console.log(
        `  GET ${name.padEnd(28)} ${got.toFixed(1).padStart(7)} ms vs ${ref.toFixed(1).padStart(6)} ms: ${(got / ref).toFixed(2)}x`,
      );
    }
    const ref = await timeConsole(reference, browser);
    const got = await timeConsole(big, browser);
    console.log(
      `  console list page, 50 rows shown  ${got.toFixed(1).padStart(7)} ms vs ${ref.toFixed(1).padStart(6)} ms: ${(got / ref).toFixed(2)}x`,
    );
    // What the page costs beyond the one API call it waits for (the goal: rows in under 1 s at 10,000 requests).
    const call = await timeApi(big, '/v1/change-requests?limit=50');
    console.log(
      `  the page against its own API call ${got.toFixed(1).padStart(7)} ms vs ${call.toFixed(1).padStart(6)} ms: ${(got / call).toFixed(2)}x` +
        `; rows ${got < 1000 ? 'under' : 'OVER'} 1 s with ${REQUESTS} requests`,
    );
  } finally {
    await browser.close();
    await big.close();
    await reference.close();
    await local?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
