import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cloneAtCommit, redactUrl } from '@farm/git';

/** What is cloned: a commit of a repository (the ref is where to find it). */
export interface CloneKey {
  url: string;
  ref: string;
  commit: string;
}

export type CloneAt = (opts: CloneKey & { dir: string }) => Promise<unknown>;

export interface CloneCacheOptions {
  /** Where the clones live (one directory per key, and a `<key>.ready` marker whose mtime is its last use). */
  root: string;
  /** How many clones are kept (default 8); the least recently used go first. */
  maxEntries?: number;
  /** A clone not used for this long is removed (default 6 h). */
  maxAgeMs?: number;
  /** How to clone (default: cloneAtCommit, native git where it is on PATH). */
  clone?: CloneAt;
}

/**
 * Read-only clones of (repository, commit), shared by the requests that plan on the same commit instead of one
 * clone per request. A commit's tree never changes, so a clone is reused as is; one clone per key is in flight
 * at a time (the others wait for it), and a clone in use is never evicted. Clones survive a restart: a clone is
 * only put in place (renamed from a temporary directory) once complete, then marked ready.
 */
export class CloneCache {
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly users = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly clone: CloneAt;

  constructor(private readonly options: CloneCacheOptions) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 8);
    this.maxAgeMs = options.maxAgeMs ?? 6 * 3600_000;
    this.clone = options.clone ?? cloneAtCommit;
  }

  /** Runs `fn` on a clone of the commit (which `fn` must not modify), cloning it only when not cached. */
  async use<T>(key: CloneKey, fn: (dir: string) => Promise<T>): Promise<T> {
    const id = cacheKey(key);
    this.users.set(id, (this.users.get(id) ?? 0) + 1);
    try {
      return await fn(await this.ready(id, key));
    } finally {
      const left = (this.users.get(id) ?? 1) - 1;
      if (left > 0) this.users.set(id, left);
      else this.users.delete(id);
      await this.evict();
    }
  }

  private ready(id: string, key: CloneKey): Promise<string> {
    let pending = this.inFlight.get(id);
    if (!pending) {
      pending = this.cloneOnce(id, key).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, pending);
    }
    return pending;
  }

  private async cloneOnce(id: string, key: CloneKey): Promise<string> {
    const { root } = this.options;
    const dir = path.join(root, id);
    const marker = `${dir}.ready`;
    if (await exists(marker)) {
      const now = new Date();
      await utimes(marker, now, now); // its last use, for eviction
      return dir;
    }
    await mkdir(root, { recursive: true });
    await rm(dir, { recursive: true, force: true }); // a clone interrupted before it was marked ready
    const tmp = path.join(root, `${id}.tmp-${randomBytes(4).toString('hex')}`);
    try {
      await this.clone({ ...key, dir: tmp });
      await rename(tmp, dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    await writeFile(marker, `${JSON.stringify({ url: redactUrl(key.url), commit: key.commit })}\n`);
    return dir;
  }

  /** Removes clones past their age, then the least recently used beyond maxEntries; never one in use. */
  private async evict(): Promise<void> {
    const { root } = this.options;
    const names = await readdir(root).catch(() => [] as string[]);
    const entries = [];
    for (const name of names.filter((n) => n.endsWith('.ready'))) {
      const id = name.slice(0, -'.ready'.length);
      const usedAt = await stat(path.join(root, name)).then(
        (s) => s.mtimeMs,
        () => undefined,
      );
      if (usedAt !== undefined) entries.push({ id, usedAt });
    }
    entries.sort((a, b) => b.usedAt - a.usedAt); // newest first
    const now = Date.now();
    for (const [i, e] of entries.entries()) {
      if (i < this.maxEntries && now - e.usedAt <= this.maxAgeMs) continue;
      if (this.users.has(e.id) || this.inFlight.has(e.id)) continue;
      await rm(path.join(root, `${e.id}.ready`), { force: true }); // first: a half-removed clone is not reused
      await rm(path.join(root, e.id), { recursive: true, force: true });
    }
  }
}

/** The directory name of a clone: the repository without credentials and the commit. */
export function cacheKey(key: CloneKey): string {
  return createHash('sha256')
    .update(`${redactUrl(key.url)}\0${key.commit.toLowerCase()}`)
    .digest('hex')
    .slice(0, 32);
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
