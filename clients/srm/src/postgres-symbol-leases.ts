import { FarmError, errorMessage, silentLogger, type Logger } from '@farm/runtime';
import { migrate, type SqlExecutor, type SqlStore } from '@farm/store';
import { InvalidLeaseRequest, LeaseConflict, LeaseLost, LeaseNotFound, type SymbolConflict } from './errors';
import {
  claimRequestSchema,
  leaseFilterSchema,
  parseRequest as parse,
  releaseRequestSchema,
  renewRequestSchema,
  reserveRequestSchema,
  type Lease,
  type LeaseFilter,
  type LeaseState,
  type ReserveRequest,
  type SymbolLeases,
} from './lease';
import { srmMetrics, trackLiveLeases, type LiveLeaseCounts } from './metrics';
import { srmMigrations } from './schema';
import {
  taskCommitQuerySchema,
  taskCommitRecordSchema,
  type TaskCommitQuery,
  type TaskCommitRecord,
  type TaskCommits,
} from './task-commits';

interface LeaseRow extends Record<string, unknown> {
  id: string;
  repo: string;
  symbol: string;
  holder: string;
  change_request_id: string;
  fencing_token: string;
  state: LeaseState;
  expires_at: Date | string;
  commit_sha: string | null;
  expired: boolean;
}

// The token as text (pg and PGlite map bigint differently); `expired` is judged by the database clock.
const COLUMNS = `id, repo, symbol, holder, change_request_id, fencing_token::text AS fencing_token, state,
  expires_at, commit_sha, (state = 'ACTIVE' AND expires_at <= now()) AS expired`;
// The IN list matches the partial indexes' predicate, so the planner reads only live rows, not history.
const LIVE = `(state IN ('ACTIVE', 'CLAIMED') AND (state = 'CLAIMED' OR expires_at > now()))`;
/** Releasing an ACTIVE lease past its expiry records it as EXPIRED: it was no longer held. */
const RELEASE_STATE = `CASE WHEN state = 'ACTIVE' AND expires_at <= now() THEN 'EXPIRED' ELSE 'RELEASED' END`;
/** unique_violation, deadlock_detected, serialization_failure: a lost race, decided by trying again. */
const RACE_CODES = new Set(['23505', '40P01', '40001']);
const RACE_ATTEMPTS = 5;

/** A conflicting lease was released while this reserve looked at it; the transaction is tried again. */
class ReserveRaced extends Error {}
const lostRace = (err: unknown) => err instanceof ReserveRaced || RACE_CODES.has((err as { code?: string }).code ?? '');

/**
 * Symbol leases kept in PostgreSQL (or PGlite on one machine). The database enforces the invariants: the
 * partial unique index allows one blocking lease per (repo, symbol), tokens come from a sequence, and
 * expiry is compared with the database's now(), so the clocks of the callers do not matter.
 */
export class PostgresSymbolLeases implements SymbolLeases, TaskCommits {
  private untrack: () => void = () => undefined;

  constructor(
    private readonly store: SqlStore,
    private readonly log: Logger = silentLogger,
  ) {}

  /** Applies the migrations and reports live leases on farm_srm_leases_active. */
  static async open(store: SqlStore, log: Logger = silentLogger): Promise<PostgresSymbolLeases> {
    await migrate(store, srmMigrations);
    const leases = new PostgresSymbolLeases(store, log);
    leases.untrack = trackLiveLeases(() => leases.countLive());
    return leases;
  }

  /** Stops reporting metrics; the store belongs to the caller. */
  close(): void {
    this.untrack();
  }

  async reserve(input: ReserveRequest): Promise<Lease[]> {
    const req = parse(reserveRequestSchema, input);
    // Sorted, so concurrent multi-symbol reservations insert in the same order and cannot deadlock.
    const symbols = [...new Set(req.symbols)].sort();
    for (let attempt = 1; ; attempt++) {
      try {
        const leases = await this.store.transaction((tx) => this.reserveIn(tx, req, symbols));
        const granted = leases.filter((l) => l.granted).length;
        srmMetrics().grants.inc(granted);
        this.log.info('symbols reserved', {
          repo: req.repo,
          symbols,
          taskId: req.holder,
          changeRequestId: req.changeRequestId,
          granted,
        });
        return leases.map((l) => l.lease);
      } catch (err) {
        if (err instanceof LeaseConflict) {
          srmMetrics().conflicts.inc();
          this.log.info('reservation refused', {
            repo: req.repo,
            taskId: req.holder,
            changeRequestId: req.changeRequestId,
            conflicts: err.conflicts,
          });
        }
        if (!lostRace(err)) throw err;
        if (attempt >= RACE_ATTEMPTS) {
          throw new FarmError(`reserve kept racing on ${req.repo}`, { retryable: true, cause: err });
        }
        this.log.debug('reservation raced, trying again', { repo: req.repo, attempt, err: errorMessage(err) });
      }
    }
  }

  private async reserveIn(
    tx: SqlExecutor,
    req: ReserveRequest,
    symbols: string[],
  ): Promise<{ lease: Lease; granted: boolean }[]> {
    // Stale ACTIVE rows still occupy the unique index: retire them first, in this transaction.
    await tx.query(
      `UPDATE srm_leases SET state = 'EXPIRED', updated_at = now()
       WHERE repo = $1 AND symbol = ANY($2::text[]) AND state = 'ACTIVE' AND expires_at <= now()`,
      [req.repo, symbols],
    );
    // A concurrent insert of the same symbol makes this wait for that transaction; once it commits, the row
    // is skipped here (not a unique violation) and the holder is visible to the next statement.
    const inserted = await tx.query<LeaseRow>(
      `INSERT INTO srm_leases (repo, symbol, holder, change_request_id, state, expires_at)
       SELECT $1, s, $3, $4, 'ACTIVE', now() + $5::float8 * interval '1 second'
       FROM unnest($2::text[]) WITH ORDINALITY AS t(s, n) ORDER BY n
       ON CONFLICT (repo, symbol) WHERE state IN ('ACTIVE', 'CLAIMED') DO NOTHING
       RETURNING ${COLUMNS}`,
      [req.repo, symbols, req.holder, req.changeRequestId, req.ttlSeconds],
    );
    const got = new Set(inserted.rows.map((r) => r.symbol));
    const taken = symbols.filter((s) => !got.has(s));
    if (!taken.length) return inserted.rows.map((r) => ({ lease: toLease(r), granted: true }));

    const held = await tx.query<LeaseRow>(
      `SELECT ${COLUMNS} FROM srm_leases
       WHERE repo = $1 AND symbol = ANY($2::text[]) AND state IN ('ACTIVE', 'CLAIMED') FOR UPDATE`,
      [req.repo, taken],
    );
    const conflicts: SymbolConflict[] = held.rows
      .filter((r) => r.holder !== req.holder)
      .map((r) => ({ symbol: r.symbol, holder: r.holder }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol));
    // Throwing rolls back this transaction, so the symbols granted above are not kept: all or nothing.
    if (conflicts.length) throw new LeaseConflict(req.repo, conflicts);
    // The holder released a symbol between the insert and the select: start over.
    if (held.rows.length < taken.length) throw new ReserveRaced('a conflicting lease was released meanwhile');

    // The same task asking again (a redelivered message): give it its leases back, extended, same tokens.
    const mine = await tx.query<LeaseRow>(
      `UPDATE srm_leases SET expires_at = greatest(expires_at, now() + $2::float8 * interval '1 second'),
         updated_at = now()
       WHERE id = ANY($1::text[]) AND state = 'ACTIVE' RETURNING ${COLUMNS}`,
      [held.rows.map((r) => r.id), req.ttlSeconds],
    );
    const renewed = new Map(mine.rows.map((r) => [r.id, r]));
    return [
      ...inserted.rows.map((r) => ({ lease: toLease(r), granted: true })),
      ...held.rows.map((r) => ({ lease: toLease(renewed.get(r.id) ?? r), granted: false })),
    ].sort((a, b) => a.lease.symbol.localeCompare(b.lease.symbol));
  }

  async renew(leaseId: string, fencingToken: string, ttlSeconds: number): Promise<Lease> {
    parse(renewRequestSchema, { fencingToken, ttlSeconds });
    const { rows } = await this.store.query<LeaseRow>(
      `UPDATE srm_leases SET expires_at = now() + $3::float8 * interval '1 second', updated_at = now()
       WHERE id = $1 AND fencing_token = $2::bigint AND state = 'ACTIVE' AND expires_at > now()
       RETURNING ${COLUMNS}`,
      [leaseId, fencingToken, ttlSeconds],
    );
    if (rows[0]) return toLease(rows[0]);
    // A claimed lease does not expire, so renewing it (a holder's timer still running) changes nothing.
    return this.explainRefusal(leaseId, fencingToken);
  }

  async claim(leaseId: string, fencingToken: string, commitSha: string): Promise<Lease> {
    parse(claimRequestSchema, { fencingToken, commitSha });
    try {
      // CLAIMED again with the same token is allowed: a re-run task may push a new commit.
      const { rows } = await this.store.query<LeaseRow>(
        `UPDATE srm_leases SET state = 'CLAIMED', commit_sha = $3, updated_at = now()
         WHERE id = $1 AND fencing_token = $2::bigint
           AND (state = 'CLAIMED' OR (state = 'ACTIVE' AND expires_at > now()))
         RETURNING ${COLUMNS}`,
        [leaseId, fencingToken, commitSha],
      );
      const lease = rows[0] ? toLease(rows[0]) : await this.explainRefusal(leaseId, fencingToken);
      srmMetrics().claims.inc({ result: 'claimed' });
      this.log.info('lease claimed', { leaseId, symbol: lease.symbol, taskId: lease.holder, commitSha });
      return lease;
    } catch (err) {
      const result = err instanceof LeaseLost ? 'lost' : err instanceof LeaseNotFound ? 'not_found' : 'error';
      srmMetrics().claims.inc({ result });
      throw err;
    }
  }

  async release(leaseId: string, fencingToken?: string): Promise<void> {
    parse(releaseRequestSchema, { fencingToken });
    const { rows } = await this.store.query<LeaseRow>(
      `UPDATE srm_leases SET state = ${RELEASE_STATE}, updated_at = now()
       WHERE id = $1 AND state IN ('ACTIVE', 'CLAIMED') AND ($2::bigint IS NULL OR fencing_token = $2::bigint)
       RETURNING ${COLUMNS}`,
      [leaseId, fencingToken ?? null],
    );
    if (rows[0]) {
      this.log.info('lease released', { leaseId, symbol: rows[0].symbol, taskId: rows[0].holder });
      return;
    }
    const current = await this.find(leaseId);
    if (!current) throw new LeaseNotFound(leaseId);
    // Still live, so the token did not match: someone else's grant is not the caller's to release.
    if (current.state === 'ACTIVE' || current.state === 'CLAIMED') throw new LeaseLost(leaseId, 'stale_token');
  }

  async releaseHolder(holder: string): Promise<number> {
    return this.releaseWhere('holder', holder);
  }

  async releaseForChangeRequest(changeRequestId: string): Promise<number> {
    return this.releaseWhere('change_request_id', changeRequestId);
  }

  async liveLeases(filter: LeaseFilter = {}): Promise<Lease[]> {
    const f = parse(leaseFilterSchema, filter);
    const { rows } = await this.store.query<LeaseRow>(
      `SELECT ${COLUMNS} FROM srm_leases
       WHERE ${LIVE} AND ($1::text IS NULL OR repo = $1) AND ($2::text IS NULL OR holder = $2)
         AND ($3::text IS NULL OR change_request_id = $3)
       ORDER BY repo, symbol`,
      [f.repo ?? null, f.holder ?? null, f.changeRequestId ?? null],
    );
    return rows.map(toLease);
  }

  async recordCommit(input: TaskCommitRecord): Promise<void> {
    const r = parse(taskCommitRecordSchema, input);
    // A repeated record (the agent's call retried) changes nothing: the first dispatch that made the commit stays.
    await this.store.query(
      `INSERT INTO srm_task_commits (task_id, commit_sha, change_request_id, dispatch) VALUES ($1, $2, $3, $4)
       ON CONFLICT (task_id, commit_sha) DO NOTHING`,
      [r.taskId, r.commitSha.toLowerCase(), r.changeRequestId, r.dispatch],
    );
    this.log.info('task commit recorded', {
      taskId: r.taskId,
      changeRequestId: r.changeRequestId,
      commitSha: r.commitSha,
      dispatch: r.dispatch,
    });
  }

  async findCommit(input: TaskCommitQuery): Promise<TaskCommitRecord | undefined> {
    const q = parse(taskCommitQuerySchema, input);
    const { rows } = await this.store.query<{ dispatch: number }>(
      `SELECT dispatch FROM srm_task_commits WHERE task_id = $1 AND commit_sha = $2 AND change_request_id = $3`,
      [q.taskId, q.commitSha.toLowerCase(), q.changeRequestId],
    );
    return rows[0] ? { ...q, commitSha: q.commitSha.toLowerCase(), dispatch: Number(rows[0].dispatch) } : undefined;
  }

  private async releaseWhere(column: 'holder' | 'change_request_id', value: string): Promise<number> {
    if (!value.trim()) throw new InvalidLeaseRequest([`${column}: must not be empty`]);
    const { rows } = await this.store.query<{ state: string }>(
      `UPDATE srm_leases SET state = ${RELEASE_STATE}, updated_at = now()
       WHERE ${column} = $1 AND state IN ('ACTIVE', 'CLAIMED') RETURNING state`,
      [value],
    );
    const released = rows.filter((r) => r.state === 'RELEASED').length;
    this.log.info('leases released', { [column === 'holder' ? 'taskId' : 'changeRequestId']: value, released });
    return released;
  }

  /** Why renew/claim matched no row; a CLAIMED lease with the right token is returned as it is. */
  private async explainRefusal(leaseId: string, fencingToken: string): Promise<Lease> {
    const row = await this.find(leaseId);
    if (!row) throw new LeaseNotFound(leaseId);
    if (row.fencing_token !== fencingToken) throw new LeaseLost(leaseId, 'stale_token');
    if (row.state === 'CLAIMED') return toLease(row);
    throw new LeaseLost(leaseId, row.state === 'RELEASED' ? 'released' : 'expired');
  }

  private async find(leaseId: string): Promise<LeaseRow | undefined> {
    const { rows } = await this.store.query<LeaseRow>(`SELECT ${COLUMNS} FROM srm_leases WHERE id = $1`, [leaseId]);
    return rows[0];
  }

  private async countLive(): Promise<LiveLeaseCounts | undefined> {
    try {
      const { rows } = await this.store.query<{ state: 'ACTIVE' | 'CLAIMED'; n: number }>(
        `SELECT state, count(*)::int AS n FROM srm_leases WHERE ${LIVE} GROUP BY state`,
      );
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    } catch (err) {
      // A scrape must not fail because the database blinked; the gauge keeps its last value.
      this.log.warn('counting live leases failed', { err: errorMessage(err) });
      return undefined;
    }
  }
}

function toLease(r: LeaseRow): Lease {
  return {
    id: r.id,
    repo: r.repo,
    symbol: r.symbol,
    holder: r.holder,
    changeRequestId: r.change_request_id,
    fencingToken: r.fencing_token,
    state: r.expired ? 'EXPIRED' : r.state,
    expiresAt: new Date(r.expires_at),
    ...(r.commit_sha ? { commitSha: r.commit_sha } : {}),
  };
}
