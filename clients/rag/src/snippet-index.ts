import { FarmError, type FarmErrorOptions } from '@farm/runtime';
import { queryIdentifiers } from './bm25';
import type { Chunk } from './chunker';

export interface ScoredChunk extends Chunk {
  score: number;
}

export interface CommitIndexInfo {
  files: number;
  chunks: number;
}

/**
 * Where chunks of indexed commits live. Every read is scoped to one (repo, commit): a task sees the tree it
 * was planned against, never a neighbouring commit's.
 */
export interface SnippetIndex {
  upsert(chunks: Chunk[]): Promise<void>;
  /**
   * Records that every chunk of the commit is in. Written last, so a crash half-way through indexing leaves
   * the commit "not indexed" and the next request redoes it (chunk ids are stable, so that overwrites).
   */
  markIndexed(repo: string, commit: string, info: CommitIndexInfo): Promise<void>;
  hasCommit(repo: string, commit: string): Promise<boolean>;
  /** All chunks of the files with these blob ids, by path then line. */
  snippetsByBlobIds(repo: string, commit: string, blobIds: string[]): Promise<Chunk[]>;
  /** Best chunks first; see `searchLegs` for how. */
  search(repo: string, commit: string, query: string, limit: number): Promise<ScoredChunk[]>;
  close(): Promise<void>;
}

/** The backend could not be reached or failed; the same call may succeed later. */
export class SnippetIndexUnavailable extends FarmError {
  constructor(
    message: string,
    options: { cause?: unknown; retryable?: boolean; details?: Record<string, unknown> } = {},
  ) {
    super(message, { retryable: options.retryable ?? true, cause: options.cause, details: options.details });
  }
}

/** The backend's set-up contradicts the configuration (e.g. a collection without the dense vector). */
export class SnippetIndexMisconfigured extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false }); // configuration does not fix itself
  }
}

/**
 * The name a repository is indexed under: its URL without credentials or a trailing slash, so that
 * `https://user:token@host/app.git` and `https://host/app.git` share an index and tokens never reach it.
 */
export function repoKey(repo: string): string {
  const trimmed = repo.trim().replace(/\/+$/, '');
  try {
    const u = new URL(trimmed);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return trimmed; // a local path
  }
}

/**
 * The rankings a search fuses (reciprocal rank fusion), the same in every backend:
 * - bm25: the sparse BM25 vector over the commit's chunks;
 * - definitions: the same, among chunks defining a symbol the query names. A goal naming `fetchWithTimeout`
 *   is nearly always about its definition, and this leg keeps that true when the dense leg prefers short
 *   chunks that merely mention it (an import line);
 * - dense: embedding similarity, when an embedder is configured.
 */
export function searchLegs(query: string, dense: boolean): { bm25: boolean; definitions: string[]; dense: boolean } {
  return { bm25: true, definitions: queryIdentifiers(query), dense };
}

/** How many candidates each leg of a hybrid search contributes before fusion. */
export const prefetchLimit = (limit: number): number => Math.max(limit * 4, 50);

/** Stable order for ties and for listing a file's chunks. */
export const byPathThenLine = (a: Chunk, b: Chunk): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine;

/** Text a chunk is embedded as: the path gives the model context the code alone often lacks. */
export function embeddingText(chunk: Chunk, maxChars = 6000): string {
  return `${chunk.path}\n${chunk.text}`.slice(0, maxChars);
}
