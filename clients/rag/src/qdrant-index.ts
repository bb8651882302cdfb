import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import type { Embedder } from '@farm/llm';
import { errorMessage, silentLogger, type Logger } from '@farm/runtime';
import { chunkVector, queryVector, symbolKey } from './bm25';
import { stableUuid, type Chunk, type ChunkKind } from './chunker';
import {
  byPathThenLine,
  embeddingText,
  prefetchLimit,
  repoKey,
  searchLegs,
  SnippetIndexMisconfigured,
  SnippetIndexUnavailable,
  type CommitIndexInfo,
  type ScoredChunk,
  type SnippetIndex,
} from './snippet-index';

export interface QdrantIndexOptions {
  /** e.g. http://qdrant:6333; or pass a ready `client`. */
  url?: string;
  apiKey?: string;
  client?: QdrantClient;
  /** One collection for every repo and commit; reads filter on the payload. Default `farm_snippets`. */
  collection?: string;
  /** Adds the "dense" named vector and hybrid search; without it, the "bm25" sparse vector only. */
  embedder?: Embedder;
  /** Points per upsert request (and texts per embeddings call). Default 64. */
  batchSize?: number;
  log?: Logger;
}

const SPARSE = 'bm25';
const DENSE = 'dense';
// Filtered fields get keyword indexes: without them Qdrant scans every payload on each filtered read.
const INDEXED_FIELDS = ['repo', 'commit', 'path', 'blob_id', 'type', 'symbol_key'];

interface ChunkPayload {
  type: 'chunk';
  repo: string;
  commit: string;
  path: string;
  blob_id: string;
  start_line: number;
  end_line: number;
  symbol?: string;
  /** `symbolKey(symbol)`, what the definitions leg of a search filters on. */
  symbol_key?: string;
  kind: ChunkKind;
  text: string;
}

const markerId = (repo: string, commit: string) => stableUuid(`commit-marker\0${repo}\0${commit}`);
const match = (key: string, value: string) => ({ key, match: { value } });

/** The cluster backend: one Qdrant collection with named vectors "bm25" (sparse, IDF) and "dense" (cosine). */
export class QdrantIndex implements SnippetIndex {
  readonly collection: string;
  private readonly client: QdrantClient;
  private readonly batchSize: number;
  private readonly log: Logger;
  private ready?: Promise<void>;

  constructor(private readonly options: QdrantIndexOptions) {
    if (!options.client && !options.url) throw new SnippetIndexMisconfigured('QdrantIndex needs a url or a client');
    this.client = options.client ?? new QdrantClient({ url: options.url, apiKey: options.apiKey });
    this.collection = options.collection ?? 'farm_snippets';
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.log = (options.log ?? silentLogger).child({ collection: this.collection });
  }

  /** Creates the collection and its payload indexes on first use; checks an existing one fits the config. */
  private ensureCollection(): Promise<void> {
    this.ready ??= this.setUp().catch((err) => {
      this.ready = undefined; // let the next call try again (e.g. Qdrant was still starting)
      throw err;
    });
    return this.ready;
  }

  private async setUp(): Promise<void> {
    const name = this.collection;
    const dims = this.options.embedder ? (await this.options.embedder.embed(['dimension probe']))[0].length : undefined;
    const { exists } = await this.call('collectionExists', () => this.client.collectionExists(name));
    if (!exists) {
      try {
        await this.client.createCollection(name, {
          ...(dims ? { vectors: { [DENSE]: { size: dims, distance: 'Cosine' as const } } } : {}),
          sparse_vectors: { [SPARSE]: { modifier: 'idf' } },
        });
        this.log.info('qdrant collection created', { dense: dims ?? 0 });
      } catch (err) {
        // Another replica may have created it in between; anything else is a real failure.
        const now = await this.call('collectionExists', () => this.client.collectionExists(name));
        if (!now.exists) throw this.unavailable('createCollection', err);
      }
    }
    const info = await this.call('getCollection', () => this.client.getCollection(name));
    const params = info.config.params;
    if (!params.sparse_vectors?.[SPARSE]) {
      throw new SnippetIndexMisconfigured(`collection ${name} has no sparse vector "${SPARSE}"; choose another name`);
    }
    const dense = (params.vectors as Record<string, { size?: number }> | undefined)?.[DENSE];
    if (dims && dense?.size !== dims) {
      throw new SnippetIndexMisconfigured(
        `collection ${name} has ${dense ? `dense size ${dense.size}` : 'no dense vector'} but the embedder gives ${dims}; ` +
          'use a new collection name for this embeddings model',
        { details: { collection: name, expected: dims, actual: dense?.size ?? null } },
      );
    }
    for (const field_name of INDEXED_FIELDS) {
      if (info.payload_schema[field_name]) continue;
      await this.call('createPayloadIndex', () =>
        this.client.createPayloadIndex(name, { field_name, field_schema: 'keyword', wait: true }),
      );
    }
  }

  async upsert(chunks: Chunk[]): Promise<void> {
    await this.ensureCollection();
    for (let i = 0; i < chunks.length; i += this.batchSize) {
      const batch = chunks.slice(i, i + this.batchSize);
      const dense = this.options.embedder
        ? await this.options.embedder.embed(batch.map((c) => embeddingText(c)))
        : undefined;
      const points = batch.map((c, j) => {
        const sparse = chunkVector(c);
        const payload: ChunkPayload = {
          type: 'chunk',
          repo: repoKey(c.repo),
          commit: c.commit.toLowerCase(),
          path: c.path,
          blob_id: c.blobId,
          start_line: c.startLine,
          end_line: c.endLine,
          ...(c.symbol ? { symbol: c.symbol, symbol_key: symbolKey(c.symbol) } : {}),
          kind: c.kind,
          text: c.text,
        };
        const vector: Record<string, Schemas['Vector']> = { [SPARSE]: sparse };
        if (dense) vector[DENSE] = dense[j];
        return { id: c.id, vector, payload: payload as unknown as Record<string, unknown> };
      });
      await this.call('upsert', () => this.client.upsert(this.collection, { wait: true, points }));
    }
  }

  async markIndexed(repo: string, commit: string, info: CommitIndexInfo): Promise<void> {
    await this.ensureCollection();
    const key = repoKey(repo);
    const sha = commit.toLowerCase();
    // A point without vectors: never a search hit, found by id.
    const payload = { type: 'commit', repo: key, commit: sha, ...info, indexed_at: new Date().toISOString() };
    await this.call('upsert', () =>
      this.client.upsert(this.collection, { wait: true, points: [{ id: markerId(key, sha), vector: {}, payload }] }),
    );
  }

  async hasCommit(repo: string, commit: string): Promise<boolean> {
    await this.ensureCollection();
    const ids = [markerId(repoKey(repo), commit.toLowerCase())];
    const found = await this.call('retrieve', () =>
      this.client.retrieve(this.collection, { ids, with_payload: false }),
    );
    return found.length > 0;
  }

  async snippetsByBlobIds(repo: string, commit: string, blobIds: string[]): Promise<Chunk[]> {
    if (blobIds.length === 0) return [];
    await this.ensureCollection();
    const filter = {
      must: [...this.scope(repo, commit), { key: 'blob_id', match: { any: blobIds.map((b) => b.toLowerCase()) } }],
    };
    const out: Chunk[] = [];
    let offset: Schemas['ExtendedPointId'] | undefined;
    do {
      const page = await this.call('scroll', () =>
        this.client.scroll(this.collection, { filter, limit: 256, offset, with_payload: true, with_vector: false }),
      );
      for (const p of page.points) out.push(toChunk(p.id, p.payload));
      offset = (page.next_page_offset as Schemas['ExtendedPointId'] | null | undefined) ?? undefined;
    } while (offset !== undefined);
    return out.sort(byPathThenLine);
  }

  async search(repo: string, commit: string, query: string, limit: number): Promise<ScoredChunk[]> {
    if (limit <= 0) return [];
    await this.ensureCollection();
    const filter = { must: this.scope(repo, commit) };
    const sparse = queryVector(query);
    if (sparse.indices.length === 0 && !this.options.embedder) return [];
    const plan = searchLegs(query, !!this.options.embedder);
    const legs: Array<{ query: Schemas['VectorInput']; using: string; filter: Schemas['Filter'] }> = [];
    if (plan.bm25 && sparse.indices.length) legs.push({ query: sparse, using: SPARSE, filter });
    if (plan.definitions.length) {
      const definitions = { key: 'symbol_key', match: { any: plan.definitions } };
      legs.push({ query: sparse, using: SPARSE, filter: { must: [...filter.must, definitions] } });
    }
    if (plan.dense) legs.push({ query: (await this.options.embedder!.embed([query]))[0], using: DENSE, filter });
    if (legs.length === 0) return [];
    const request =
      legs.length === 1
        ? { ...legs[0], limit, with_payload: true }
        : {
            prefetch: legs.map((l) => ({ ...l, limit: prefetchLimit(limit) })),
            query: { fusion: 'rrf' as const },
            filter,
            limit,
            with_payload: true,
          };
    const res = await this.call('query', () => this.client.query(this.collection, request));
    return res.points.map((p) => ({ ...toChunk(p.id, p.payload), score: p.score }));
  }

  private scope(repo: string, commit: string) {
    return [match('type', 'chunk'), match('repo', repoKey(repo)), match('commit', commit.toLowerCase())];
  }

  private async call<T>(op: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.unavailable(op, err);
    }
  }

  private unavailable(op: string, err: unknown): SnippetIndexUnavailable {
    const e = err as { status?: number; data?: { status?: { error?: string } } };
    const status = typeof e?.status === 'number' ? e.status : undefined;
    const reason = e?.data?.status?.error ?? errorMessage(err);
    // 4xx means the request itself is wrong and will fail the same way; 429, 5xx and network errors pass.
    const retryable = status === undefined || status === 429 || status >= 500;
    this.log.warn('qdrant call failed', { op, status, reason, retryable });
    return new SnippetIndexUnavailable(`qdrant ${op} on ${this.collection} failed: ${reason}`, {
      cause: err,
      retryable,
      details: { op, status, collection: this.collection },
    });
  }

  async close(): Promise<void> {}
}

function toChunk(id: Schemas['ExtendedPointId'], payload: unknown): Chunk {
  const p = payload as ChunkPayload;
  return {
    id: String(id),
    repo: p.repo,
    commit: p.commit,
    path: p.path,
    blobId: p.blob_id,
    startLine: p.start_line,
    endLine: p.end_line,
    ...(p.symbol ? { symbol: p.symbol } : {}),
    kind: p.kind,
    text: p.text,
  };
}
