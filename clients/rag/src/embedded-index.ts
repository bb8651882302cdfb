import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Embedder } from '@farm/llm';
import { silentLogger, type Logger } from '@farm/runtime';
import {
  chunkVector,
  cosine,
  idf,
  queryVector,
  reciprocalRankFusion,
  sparseScore,
  symbolKey,
  type SparseVector,
} from './bm25';
import type { Chunk } from './chunker';
import {
  byPathThenLine,
  embeddingText,
  prefetchLimit,
  repoKey,
  searchLegs,
  type CommitIndexInfo,
  type ScoredChunk,
  type SnippetIndex,
} from './snippet-index';

export interface EmbeddedIndexOptions {
  /** JSON file the index is loaded from and saved to; in memory only without it. */
  file?: string;
  /** Adds dense vectors (cosine) fused with BM25; without it, BM25 only. */
  embedder?: Embedder;
  /** Texts per embeddings call. Default 64. */
  embedBatchSize?: number;
  log?: Logger;
}

interface StoredChunk {
  chunk: Chunk;
  sparse: SparseVector;
  dense?: number[];
}

interface IndexFile {
  version: 1;
  /** `sparse` is saved with each chunk so that loading does not tokenize every chunk again (absent in older files). */
  chunks: Array<Chunk & { dense?: number[]; sparse?: SparseVector }>;
  commits: Array<{ repo: string; commit: string; indexedAt: string } & CommitIndexInfo>;
}

const commitKey = (repo: string, commit: string) => `${repoKey(repo)}\0${commit.toLowerCase()}`;

/**
 * The one-machine backend: everything in memory, optionally persisted to one JSON file. Scores exactly as
 * Qdrant does (BM25 with collection-wide IDF, cosine, RRF with k = 2), so switching backends keeps rankings.
 */
export class EmbeddedIndex implements SnippetIndex {
  private readonly chunks = new Map<string, StoredChunk>();
  private readonly byCommit = new Map<string, Set<string>>();
  /** Document frequency of each term index over all stored chunks, for the IDF. */
  private readonly df = new Map<number, number>();
  private readonly commits = new Map<string, IndexFile['commits'][number]>();
  private saving: Promise<void> = Promise.resolve();
  private readonly log: Logger;

  constructor(private readonly options: EmbeddedIndexOptions = {}) {
    this.log = options.log ?? silentLogger;
  }

  /** Opens the index, loading `options.file` when it exists. */
  static async open(options: EmbeddedIndexOptions = {}): Promise<EmbeddedIndex> {
    const index = new EmbeddedIndex(options);
    if (options.file) await index.load(options.file);
    return index;
  }

  private async load(file: string): Promise<void> {
    let raw: string;
    try {
      raw = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const data = JSON.parse(raw) as IndexFile;
    for (const { dense, sparse, ...chunk } of data.chunks) this.put(chunk, dense, sparse);
    for (const c of data.commits) this.commits.set(commitKey(c.repo, c.commit), c);
    this.log.info('embedded index loaded', { file, chunks: this.chunks.size, commits: this.commits.size });
  }

  private put(chunk: Chunk, dense?: number[], saved?: SparseVector): void {
    this.remove(chunk.id);
    const sparse = saved ?? chunkVector(chunk);
    this.chunks.set(chunk.id, { chunk, sparse, dense });
    for (const i of sparse.indices) this.df.set(i, (this.df.get(i) ?? 0) + 1);
    const key = commitKey(chunk.repo, chunk.commit);
    const ids = this.byCommit.get(key) ?? new Set<string>();
    ids.add(chunk.id);
    this.byCommit.set(key, ids);
  }

  private remove(id: string): void {
    const old = this.chunks.get(id);
    if (!old) return;
    for (const i of old.sparse.indices) {
      const n = (this.df.get(i) ?? 1) - 1;
      if (n > 0) this.df.set(i, n);
      else this.df.delete(i);
    }
    this.byCommit.get(commitKey(old.chunk.repo, old.chunk.commit))?.delete(id);
    this.chunks.delete(id);
  }

  async upsert(chunks: Chunk[]): Promise<void> {
    const normalised = chunks.map((c) => ({ ...c, repo: repoKey(c.repo), commit: c.commit.toLowerCase() }));
    const dense = await this.embed(normalised.map((c) => embeddingText(c)));
    normalised.forEach((c, i) => this.put(c, dense?.[i]));
  }

  private async embed(texts: string[]): Promise<number[][] | undefined> {
    const embedder = this.options.embedder;
    if (!embedder) return undefined;
    const size = this.options.embedBatchSize ?? 64;
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += size) out.push(...(await embedder.embed(texts.slice(i, i + size))));
    return out;
  }

  async markIndexed(repo: string, commit: string, info: CommitIndexInfo): Promise<void> {
    const entry = { repo: repoKey(repo), commit: commit.toLowerCase(), ...info, indexedAt: new Date().toISOString() };
    this.commits.set(commitKey(repo, commit), entry);
    await this.save();
  }

  /** The commits indexed here, in the order they were marked. */
  indexedCommits(): { repo: string; commit: string }[] {
    return [...this.commits.values()].map(({ repo, commit }) => ({ repo, commit }));
  }

  async hasCommit(repo: string, commit: string): Promise<boolean> {
    return this.commits.has(commitKey(repo, commit));
  }

  async snippetsByBlobIds(repo: string, commit: string, blobIds: string[]): Promise<Chunk[]> {
    const wanted = new Set(blobIds.map((b) => b.toLowerCase()));
    return this.commitChunks(repo, commit)
      .map((s) => s.chunk)
      .filter((c) => wanted.has(c.blobId))
      .sort(byPathThenLine);
  }

  /** The legs of `searchLegs`, each ranked as Qdrant would, fused by RRF when there is more than one. */
  async search(repo: string, commit: string, query: string, limit: number): Promise<ScoredChunk[]> {
    const candidates = this.commitChunks(repo, commit);
    if (candidates.length === 0 || limit <= 0) return [];
    const prefetch = prefetchLimit(limit);
    const ranked = (scored: Array<{ s: StoredChunk; score: number }>) =>
      scored.sort((a, b) => b.score - a.score || byPathThenLine(a.s.chunk, b.s.chunk)).slice(0, prefetch);
    const q = queryVector(query);
    const points = this.chunks.size;
    const weight = (i: number) => idf(points, this.df.get(i) ?? 0);
    const bm25 = (among: StoredChunk[]) =>
      ranked(among.map((s) => ({ s, score: sparseScore(q, s.sparse, weight) })).filter((x) => x.score > 0));

    const plan = searchLegs(query, !!this.options.embedder);
    const legs: Array<Array<{ s: StoredChunk; score: number }>> = [];
    if (plan.bm25) legs.push(bm25(candidates));
    if (plan.definitions.length) {
      const keys = new Set(plan.definitions);
      legs.push(bm25(candidates.filter((s) => s.chunk.symbol && keys.has(symbolKey(s.chunk.symbol)))));
    }
    const withDense = candidates.filter((s) => s.dense);
    if (plan.dense && withDense.length) {
      const [qv] = (await this.embed([query]))!;
      legs.push(ranked(withDense.map((s) => ({ s, score: cosine(qv, s.dense!) }))));
    }
    if (legs.length === 0) return [];
    if (legs.length === 1) return legs[0].slice(0, limit).map(({ s, score }) => ({ ...s.chunk, score }));
    return reciprocalRankFusion(legs, (x) => x.s.chunk.id)
      .sort((a, b) => b.score - a.score || byPathThenLine(a.item.s.chunk, b.item.s.chunk))
      .slice(0, limit)
      .map(({ item, score }) => ({ ...item.s.chunk, score }));
  }

  private commitChunks(repo: string, commit: string): StoredChunk[] {
    const ids = this.byCommit.get(commitKey(repo, commit));
    return ids ? [...ids].map((id) => this.chunks.get(id)!) : [];
  }

  /** Writes the whole index to a temp file and renames it over the old one, so a crash never leaves half. */
  private save(): Promise<void> {
    const file = this.options.file;
    if (!file) return Promise.resolve();
    const write = async () => {
      const data: IndexFile = {
        version: 1,
        chunks: [...this.chunks.values()].map((s) => ({
          ...s.chunk,
          sparse: s.sparse,
          ...(s.dense ? { dense: s.dense } : {}),
        })),
        commits: [...this.commits.values()],
      };
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(data));
      await rename(tmp, file);
    };
    // Chained so writes never interleave; a failed write is reported to its caller and does not block the next.
    this.saving = this.saving.then(write, write);
    return this.saving;
  }

  async close(): Promise<void> {
    await this.save();
  }
}
