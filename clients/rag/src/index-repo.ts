import { lstat, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { silentLogger, type Logger } from '@farm/runtime';
import { chunkFile, gitBlobId, type Chunk, type ChunkOptions } from './chunker';
import { repoKey, type SnippetIndex } from './snippet-index';

/**
 * Puts `commit` of a remote into `dir`, checked out. `cloneAtCommit` from @farm/git has this shape; it is a
 * parameter so this package needs no git dependency and tests can hand in a prepared tree.
 */
export type CheckoutFn = (opts: { url: string; ref: string; commit: string; dir: string }) => Promise<unknown>;

export interface IndexResult {
  repo: string;
  commit: string;
  /** False when the commit was already indexed and nothing was done. */
  indexed: boolean;
  files: number;
  chunks: number;
  /** Files left out, by reason (binary, too big, unreadable). */
  skippedFiles: number;
}

export interface IndexDirectoryOptions {
  index: SnippetIndex;
  dir: string;
  /** Repository URL (credentials are stripped before it is stored). */
  repo: string;
  commit: string;
  /** Larger files are skipped: generated bundles and data, not code worth a prompt. Default 512 KiB. */
  maxFileBytes?: number;
  /** Chunks per `index.upsert` call, so progress shows and memory stays flat on big repos. Default 256. */
  upsertBatch?: number;
  chunking?: ChunkOptions;
  log?: Logger;
}

// git's own test for binary content: a NUL byte in the first 8000 bytes.
const isBinary = (bytes: Buffer) => bytes.subarray(0, 8000).includes(0);

/** Paths (POSIX, relative) of the regular files under `dir`, outside `.git`; symlinks are not followed. */
async function listFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== '.git') out.push(...(await listFiles(dir, p)));
    } else if (entry.isFile()) out.push(p);
  }
  return out.sort();
}

/**
 * Indexes a checked-out tree: every text file (a fresh checkout holds exactly the tracked files), with blob
 * ids computed as git does, chunked and upserted, then the commit marked indexed.
 */
export async function indexDirectory(opts: IndexDirectoryOptions): Promise<IndexResult> {
  const log = opts.log ?? silentLogger;
  const repo = repoKey(opts.repo);
  const commit = opts.commit.toLowerCase();
  const maxBytes = opts.maxFileBytes ?? 512 * 1024;
  const batchSize = opts.upsertBatch ?? 256;
  let pending: Chunk[] = [];
  let files = 0;
  let chunks = 0;
  let skippedFiles = 0;
  const flush = async () => {
    if (!pending.length) return;
    await opts.index.upsert(pending);
    chunks += pending.length;
    pending = [];
    log.debug('index progress', { repo, commit, files, chunks });
  };
  for (const file of await listFiles(opts.dir)) {
    const full = path.join(opts.dir, file);
    const size = (await lstat(full)).size;
    if (size > maxBytes) {
      skippedFiles++;
      continue;
    }
    const bytes = await readFile(full);
    if (isBinary(bytes)) {
      skippedFiles++;
      continue;
    }
    files++;
    pending.push(
      ...chunkFile({ repo, commit, path: file, text: bytes.toString('utf8'), blobId: gitBlobId(bytes) }, opts.chunking),
    );
    if (pending.length >= batchSize) await flush();
  }
  await flush();
  await opts.index.markIndexed(repo, commit, { files, chunks });
  log.info('commit indexed', { repo, commit, files, chunks, skippedFiles });
  return { repo, commit, indexed: true, files, chunks, skippedFiles };
}

export interface IndexRepoOptions extends Omit<IndexDirectoryOptions, 'dir' | 'repo'> {
  repoUrl: string;
  /** Branch or tag the commit is reachable from (what the clone fetches). */
  ref: string;
  checkout: CheckoutFn;
  /** A temp dir per run is made under it and removed afterwards. Default: the OS temp dir. */
  workDir?: string;
}

/**
 * Clones `repoUrl` at `commit` and indexes it, unless the commit is indexed already. Embedding, when
 * configured, is the index's job: queries must be embedded by the same model as the chunks.
 */
export async function indexRepo(opts: IndexRepoOptions): Promise<IndexResult> {
  const repo = repoKey(opts.repoUrl);
  const commit = opts.commit.toLowerCase();
  if (await opts.index.hasCommit(repo, commit)) {
    return { repo, commit, indexed: false, files: 0, chunks: 0, skippedFiles: 0 };
  }
  const base = opts.workDir ?? os.tmpdir();
  await mkdir(base, { recursive: true });
  const dir = await mkdtemp(path.join(base, 'farm-rag-'));
  try {
    await opts.checkout({ url: opts.repoUrl, ref: opts.ref, commit, dir });
    return await indexDirectory({ ...opts, dir, repo, commit });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
