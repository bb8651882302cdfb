/**
 * The SQL statements the embedded farm (in-process bus, PGlite) runs per request: N one-task requests through
 * `farm up` started in this process (from source, agents from their bundles), each PGlite statement counted by
 * its text (numbers of VALUES rows folded), with the rows each returned. Counts only; no timings. Build first: `pnpm build`.
 *
 *   node --import tsx bench/farm-statements.ts [N=10]
 */
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Topics } from '@farm/bus';
import { FINAL_PHASES, farm as proto } from '@farm/proto';
import { createLogger, serveMetrics } from '@farm/runtime';
import { startFarmUp } from '../apps/cli/src/farm-up';
import { oneTaskFixture } from './one-task-fixture';

const N = Number(process.argv[2] ?? 10);
const counts = new Map<string, number>();
let counting = false;
const shape = (sql: string) =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/(\(\$\d+(, \$\d+)*\))(, \(\$\d+(, \$\d+)*\))+/g, '$1, ...')
    .trim()
    .slice(0, 140);
const rowsReturned = new Map<string, number>();
/** Counts a statement, and the rows it returns once it has (what PGlite parses into objects for it). */
const count = <T>(sql: string, via: string, result?: T): T | undefined => {
  if (!counting) return result;
  const key = `${via} ${shape(sql)}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  void Promise.resolve(result).then(
    (r) => {
      const sets = (Array.isArray(r) ? r : [r]) as ({ rows?: unknown[] } | undefined)[];
      const n = sets.reduce((sum, set) => sum + (set?.rows?.length ?? 0), 0);
      rowsReturned.set(key, (rowsReturned.get(key) ?? 0) + n);
    },
    () => undefined,
  );
  return result;
};

/** Counts every statement of every PGlite (both module builds: the store loads it with import()). */
async function countPgliteStatements(): Promise<void> {
  const storeRequire = createRequire(path.join(__dirname, '../clients/store/package.json'));
  type Tx = { query: (...a: unknown[]) => unknown; exec: (...a: unknown[]) => unknown };
  type Pg = {
    prototype: {
      query: (...a: unknown[]) => unknown;
      exec: (...a: unknown[]) => unknown;
      transaction: (fn: (tx: Tx) => unknown) => unknown;
    };
  };
  const builds = new Set<Pg>([
    (storeRequire('@electric-sql/pglite') as { PGlite: Pg }).PGlite,
    ((await import(storeRequire.resolve('@electric-sql/pglite').replace(/\.cjs$/, '.js'))) as { PGlite: Pg }).PGlite,
  ]);
  for (const PGlite of builds) {
    const { query, exec, transaction } = PGlite.prototype;
    PGlite.prototype.query = function (this: unknown, ...a: unknown[]) {
      return count(String(a[0]), 'query', query.apply(this, a));
    };
    PGlite.prototype.exec = function (this: unknown, ...a: unknown[]) {
      return count(String(a[0]), 'exec ', exec.apply(this, a));
    };
    PGlite.prototype.transaction = function (this: unknown, fn: (tx: Tx) => unknown) {
      count('(transaction)', 'tx   ');
      return transaction.call(this, (tx: Tx) =>
        fn({
          ...tx,
          query: (...a: unknown[]) => count(String(a[0]), 'tx-q ', tx.query(...a)),
          exec: (...a: unknown[]) => count(String(a[0]), 'tx-e ', tx.exec(...a)),
        }),
      );
    };
  }
}

async function main(): Promise<void> {
  await countPgliteStatements();
  const { tmp, repo, model, env } = await oneTaskFixture('farm-statements', 0);
  env.LOG_LEVEL = 'warn';
  const log = createLogger('farm');
  const up = await startFarmUp(env, log);
  const server = await serveMetrics(0, log, up.routes, up.health, '127.0.0.1');
  const url = `http://127.0.0.1:${server.port}`;
  const token = readFileSync(path.join(tmp, 'state', 'admin-token'), 'utf8').trim();
  const ended = new Map<string, () => void>();
  const endedEarly = new Set<string>(); // before its POST had answered
  await up.bus.subscribe(Topics.phaseTransitions, 'count-statements', async (t) => {
    if (!t.taskId && FINAL_PHASES.has(t.toPhase)) {
      if (t.toPhase !== proto.v1.Phase.DONE) process.stderr.write(`${t.changeRequestId} ${t.toPhase}\n`);
      const done = ended.get(t.changeRequestId);
      if (done) done();
      else endedEarly.add(t.changeRequestId);
    }
  });
  const run = async (n: number) => {
    const ids = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`${url}/v1/change-requests`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ repo: { url: repo, baseRef: 'main' }, title: `r ${i}`, description: 'count' }),
        });
        if (res.status !== 202) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { changeRequestId: string }).changeRequestId;
      }),
    );
    await Promise.all(ids.map((id) => new Promise<void>((r) => (endedEarly.has(id) ? r() : ended.set(id, r)))));
  };
  try {
    await run(1); // warm-up: the mirror, caches
    counting = true;
    await run(N);
    await new Promise((r) => setTimeout(r, 2000)); // what follows DONE (sync-back, positions)
    counting = false;
    const rows = [...counts].sort((a, b) => b[1] - a[1]);
    const total = rows.reduce((s, [, c]) => s + c, 0);
    const totalRows = [...rowsReturned.values()].reduce((sum, n) => sum + n, 0);
    process.stdout.write(
      `${N} requests: ${total} statements, ${(total / N).toFixed(1)} per request, returning ${(totalRows / N).toFixed(1)} rows per request\n` +
        '   per request  rows/req  statement\n',
    );
    for (const [sql, c] of rows) {
      const r = (rowsReturned.get(sql) ?? 0) / N;
      process.stdout.write(`${(c / N).toFixed(2).padStart(12)}  ${r.toFixed(1).padStart(8)}  ${sql}\n`);
    }
  } finally {
    await up.stop();
    await server.close();
    await model.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
