import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FarmError, errorMessage, runCommand, type Logger } from '@farm/runtime';
import type { GitHttpServer } from '@farm/git';
import { migrate, type SqlStore } from '@farm/store';
import { CoalescedBatches } from './coalesced-batches';
import { CoalescedRefresh } from './coalesced-refresh';
import { localRepoPath } from './repo-arg';

const run = runCommand;

/** The given repository is not a local git repository the farm can serve. */
export class NotALocalRepo extends FarmError {
  constructor(
    readonly repo: string,
    why: string,
  ) {
    super(`${repo} is not a git repository this farm can serve: ${why}`, { retryable: false, details: { repo } });
  }
}

/** A request's branches could not be fetched into the user's repository; the request stays unsynced. */
export class SyncBackFailed extends FarmError {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`fetching the farm's branches into ${path} failed: ${why}`, { retryable: true, details: { path } });
  }
}

/** A request on a local repository, as recorded when it was submitted. */
type LocalRepoRow = {
  path: string;
  mirror: string;
  synced_at: unknown;
};

/** A request whose branches are to be fetched back. */
interface SyncBackItem {
  changeRequestId: string;
  path: string;
  branches: string[];
}

const MIGRATIONS = [
  {
    name: 'local-repos-001',
    sql: `CREATE TABLE local_repos (
  change_request_id text PRIMARY KEY,
  path text NOT NULL,
  mirror text NOT NULL,
  synced_at timestamptz
);`,
  },
];

/**
 * Serves repositories on the user's machine to the farm's agents: each gets a bare mirror under the farm's
 * git smart-HTTP server, kept across submissions and brought up to date by an incremental `git fetch` from
 * the user's repository for each: submissions of one repository arriving together share one fetch that
 * started after they arrived (so each sees the commits made before it), those of different repositories do
 * not wait for each other. The request runs against the mirror, and when it ends its `agt/` and `farm/`
 * branches are fetched back into the user's repository, in one fetch for the requests of that repository
 * ending together. The user's work tree and checked-out branch are never touched.
 */
export class LocalRepoMirrors {
  private readonly refreshes = new CoalescedRefresh();
  /** Requests ending together: their rows read in one query, their branches fetched back in one batch. */
  private readonly lookups = new CoalescedBatches<string, LocalRepoRow | undefined>((_, ids) => this.findRows(ids));
  private readonly syncs = new CoalescedBatches<SyncBackItem, string[]>((mirror, items) =>
    this.syncBatch(mirror, items),
  );
  /** Each path's git directory, found once: a burst of submissions does not run `git rev-parse` for each. */
  private readonly gitDirs = new Map<string, string>();

  private constructor(
    private readonly store: SqlStore,
    private readonly git: GitHttpServer,
    private readonly log: Logger,
  ) {}

  static async open(store: SqlStore, git: GitHttpServer, log: Logger): Promise<LocalRepoMirrors> {
    await migrate(store, MIGRATIONS);
    return new LocalRepoMirrors(store, git, log);
  }

  /** The URL the agents use for `repo`: its mirror's for a local repository, else `repo` itself. */
  async prepare(changeRequestId: string, repo: string): Promise<string> {
    const local = localRepoPath(repo);
    if (!local) return repo;
    const gitDir = await this.checkRepo(local);
    const name = `local/${path.basename(path.resolve(local)).replace(/[^A-Za-z0-9._-]/g, '_')}-${createHash('sha256').update(gitDir).digest('hex').slice(0, 10)}.git`;
    const mirror = path.join(this.git.root, name);
    await this.refreshes.run(mirror, () => this.refresh(local, name, mirror));
    await this.store.query(
      `INSERT INTO local_repos (change_request_id, path, mirror) VALUES ($1, $2, $3)
       ON CONFLICT (change_request_id) DO NOTHING`,
      [changeRequestId, local, mirror],
    );
    this.log.info('serving a local repository', { changeRequestId, path: local, url: this.git.repoUrl(name) });
    return this.git.repoUrl(name);
  }

  /** Brings the mirror to the user's repository as it is now: an incremental fetch (the first one copies). */
  private async refresh(local: string, name: string, mirror: string): Promise<void> {
    if (!existsSync(mirror)) await this.git.createBareRepo(name);
    // Branches and tags as they are now in the user's repository (not pruned: the farm's own stay).
    await run('git', [
      '-C',
      mirror,
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      local,
      '+refs/heads/*:refs/heads/*',
      '+refs/tags/*:refs/tags/*',
    ]);
    await this.pointHeadLikeSource(local, mirror);
  }

  /**
   * The mirror's HEAD names the branch checked out in the user's repository (a mirror starts on `main`): a
   * HEAD naming a branch the mirror lacks makes git clients' fetches fail (`ref master not found`).
   */
  private async pointHeadLikeSource(local: string, mirror: string): Promise<void> {
    const head = await run('git', ['-C', local, 'symbolic-ref', '-q', 'HEAD']).then(
      (r) => r.stdout.trim(),
      () => '', // detached: the mirror keeps its HEAD
    );
    const exists = async (ref: string) =>
      run('git', ['-C', mirror, 'show-ref', '--verify', '--quiet', ref]).then(
        () => true,
        () => false,
      );
    if (head.startsWith('refs/heads/') && (await exists(head))) {
      await run('git', ['-C', mirror, 'symbolic-ref', 'HEAD', head]);
    }
  }

  /**
   * Fetches the request's branches (`branches`, those that exist in the mirror) into the user's repository;
   * idempotent, and recorded so a restart does not repeat it. Returns the branches brought back. Requests of
   * one repository ending together share one `for-each-ref` and one `git fetch` (see `syncBatch`).
   */
  async syncBack(changeRequestId: string, branches: string[]): Promise<string[]> {
    const row = await this.lookups.run('', changeRequestId);
    if (!row || row.synced_at) return [];
    return this.syncs.run(row.mirror, { changeRequestId, path: row.path, branches });
  }

  /** The path on this machine each of `ids` was submitted for (those submitted for a local repository). */
  async paths(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const { rows } = await this.store.query<{ change_request_id: string; path: string }>(
      'SELECT change_request_id, path FROM local_repos WHERE change_request_id = ANY($1::text[])',
      [[...new Set(ids)]],
    );
    return new Map(rows.map((r) => [r.change_request_id, r.path]));
  }

  /**
   * Each local repository served so far: its mirror's URL (as tasks and lessons name it) and the path on this
   * machine it mirrors.
   */
  async pathsByUrl(): Promise<Map<string, string>> {
    const { rows } = await this.store.query<{ mirror: string; path: string }>(
      'SELECT DISTINCT ON (mirror) mirror, path FROM local_repos ORDER BY mirror, change_request_id',
    );
    return new Map(rows.map((r) => [this.git.repoUrl(path.relative(this.git.root, r.mirror)), r.path]));
  }

  /** The requests' rows, read in one query for the requests ending together. */
  private async findRows(ids: string[]): Promise<PromiseSettledResult<LocalRepoRow | undefined>[]> {
    const { rows } = await this.store.query<LocalRepoRow & { change_request_id: string }>(
      'SELECT change_request_id, path, mirror, synced_at FROM local_repos WHERE change_request_id = ANY($1::text[])',
      [[...new Set(ids)]],
    );
    const byId = new Map(rows.map((r) => [r.change_request_id, r]));
    return ids.map((id) => ({ status: 'fulfilled', value: byId.get(id) }));
  }

  /**
   * Brings back the branches of requests on one mirror: one `for-each-ref` on the mirror, then one fetch per
   * user repository path (one in practice) with every request's refspecs. If that fetch fails, each request
   * is fetched alone, so one that cannot be (a branch checked out there, a held ref lock) does not keep the
   * others from syncing; a request is recorded as synced only once its branches are in.
   */
  private async syncBatch(mirror: string, items: SyncBackItem[]): Promise<PromiseSettledResult<string[]>[]> {
    const { stdout } = await run('git', ['-C', mirror, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
    const present = new Set(stdout.split('\n').filter(Boolean));
    const wanted = items.map((item) => item.branches.filter((b) => present.has(b)));
    const outcomes = new Array<PromiseSettledResult<string[]>>(items.length);
    const byPath = new Map<string, number[]>();
    items.forEach((item, i) => byPath.set(item.path, [...(byPath.get(item.path) ?? []), i]));
    for (const [local, indexes] of byPath) {
      const settled = await this.fetchTogether(
        local,
        mirror,
        indexes.map((i) => wanted[i]),
      );
      indexes.forEach((i, k) => (outcomes[i] = settled[k]));
    }
    const synced = items.filter((_, i) => outcomes[i].status === 'fulfilled').map((item) => item.changeRequestId);
    if (synced.length) {
      await this.store.query('UPDATE local_repos SET synced_at = now() WHERE change_request_id = ANY($1::text[])', [
        synced,
      ]);
    }
    items.forEach((item, i) => {
      if (outcomes[i].status === 'fulfilled')
        this.log.info('branches fetched into the local repository', {
          changeRequestId: item.changeRequestId,
          path: item.path,
          branches: wanted[i],
        });
    });
    return outcomes;
  }

  /**
   * One fetch for the branches of every request (`perRequest`); if it fails, one fetch per request, one after
   * another, so only the requests whose branches cannot be written fail.
   */
  private async fetchTogether(
    local: string,
    mirror: string,
    perRequest: string[][],
  ): Promise<PromiseSettledResult<string[]>[]> {
    try {
      await this.fetchBranches(local, mirror, perRequest.flat());
      return perRequest.map((value) => ({ status: 'fulfilled', value }));
    } catch (err) {
      if (perRequest.length === 1) return [{ status: 'rejected', reason: err }];
      this.log.warn('fetching branches back together failed; fetching them request by request', { path: local, err });
      const settled: PromiseSettledResult<string[]>[] = [];
      for (const branches of perRequest) {
        settled.push(
          await this.fetchBranches(local, mirror, branches).then(
            () => ({ status: 'fulfilled', value: branches }) as const,
            (reason: unknown) => ({ status: 'rejected', reason }) as const,
          ),
        );
      }
      return settled;
    }
  }

  /** Fetches `branches` of the mirror into the user's repository under the same names (none: nothing to run). */
  private async fetchBranches(local: string, mirror: string, branches: string[]): Promise<void> {
    const refspecs = [...new Set(branches)].map((b) => `+refs/heads/${b}:refs/heads/${b}`);
    if (!refspecs.length) return;
    try {
      await run('git', ['-C', local, 'fetch', '--quiet', '--no-tags', mirror, ...refspecs]);
    } catch (err) {
      throw new SyncBackFailed(local, (err as { stderr?: string }).stderr?.trim() || errorMessage(err));
    }
  }

  /** Resolves once the request's branches were fetched back (or it has no local repository). */
  async whenSynced(changeRequestId: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.store.query<{ synced_at: unknown }>(
        'SELECT synced_at FROM local_repos WHERE change_request_id = $1',
        [changeRequestId],
      );
      if (!r.rows.length || r.rows[0].synced_at) return;
      if (Date.now() > deadline)
        throw new FarmError(`branches of ${changeRequestId} not back within ${timeoutMs} ms`, { retryable: true });
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  private async checkRepo(local: string): Promise<string> {
    if (!existsSync(local)) throw new NotALocalRepo(local, 'no such directory on the farm’s machine');
    const known = this.gitDirs.get(local);
    if (known && existsSync(known)) return known;
    try {
      const { stdout } = await run('git', ['-C', local, 'rev-parse', '--absolute-git-dir']);
      this.gitDirs.set(local, stdout.trim());
      return stdout.trim();
    } catch (err) {
      throw new NotALocalRepo(local, (err as { stderr?: string }).stderr?.trim() || 'git rev-parse failed');
    }
  }
}
