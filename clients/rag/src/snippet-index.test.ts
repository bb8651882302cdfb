import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { createEmbedder, type Embedder } from '@farm/llm';
// Test-only helpers imported by path: @farm/scripted-llm is not a dependency of this package.
import { startScriptedModelServer, type ScriptedModelServer } from '../../scripted-llm/src';
import { gitBlobId } from './chunker';
import { EmbeddedIndex } from './embedded-index';
import { indexDirectory } from './index-repo';
import { startQdrantHttpDouble, type QdrantHttpDouble } from '../testing';
import { QdrantIndex } from './qdrant-index';
import { SnippetIndexMisconfigured, type SnippetIndex } from './snippet-index';

const REPO = 'https://ci-bot:s3cret@git.example.com/acme/shop.git';
const REPO_KEY = 'https://git.example.com/acme/shop.git';
const COMMIT_A = 'a'.repeat(40);
const COMMIT_B = 'b'.repeat(40);

/** A small generated repository at two commits: B moves fetchWithTimeout into its own module. */
const HTTP_TS = `/** HTTP helpers used by every API module. */
export async function fetchWithTimeout(url: string, ms = 5000): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await fetch(url, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\\/+$/, '') + '/' + path.replace(/^\\/+/, '');
}
`;
const USERS_TS = `import { fetchWithTimeout, joinUrl } from './http';

export interface User {
  id: string;
  name: string;
}

export async function getUser(base: string, id: string): Promise<User> {
  const res = await fetchWithTimeout(joinUrl(base, \`users/\${id}\`));
  return (await res.json()) as User;
}

export async function listUsers(base: string): Promise<User[]> {
  const res = await fetchWithTimeout(joinUrl(base, 'users'));
  return (await res.json()) as User[];
}
`;
const ORDERS_PY = `from dataclasses import dataclass


@dataclass
class Order:
    id: str
    total: float


def order_total(orders):
    return sum(o.total for o in orders)
`;
const README = `# shop\n\nA tiny storefront. Run \`npm test\`.\n`;

const commitA: Record<string, string | Buffer> = {
  'src/http.ts': HTTP_TS,
  'src/users.ts': USERS_TS,
  'scripts/orders.py': ORDERS_PY,
  'README.md': README,
  'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
};
const TIMEOUT_TS = HTTP_TS.replace(
  '/** HTTP helpers used by every API module. */',
  '/** Timeouts for outgoing requests. */',
);
const commitB: Record<string, string | Buffer> = {
  ...commitA,
  'src/http.ts': `export { fetchWithTimeout } from './net/timeout';\n`,
  'src/net/timeout.ts': TIMEOUT_TS,
};

let tmp: string;
let model: ScriptedModelServer;
let qdrant: QdrantHttpDouble;
let embedder: Embedder;

async function writeTree(dir: string, files: Record<string, string | Buffer>) {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rag-index-test-'));
  await writeTree(path.join(tmp, 'a'), commitA);
  await writeTree(path.join(tmp, 'b'), commitB);
  model = await startScriptedModelServer({ script: { chat: [], embeddingDimensions: 64 } });
  qdrant = await startQdrantHttpDouble();
  embedder = createEmbedder({ baseURL: model.baseURL, apiKey: 'test', model: 'embed-test', maxRetries: 0 });
});
afterAll(async () => {
  await qdrant?.close();
  await model?.close();
  await rm(tmp, { recursive: true, force: true });
});

let collections = 0;
const newCollection = () => `snippets_${++collections}`;
const backends: Array<[string, () => Promise<SnippetIndex>]> = [
  ['EmbeddedIndex (BM25)', async () => new EmbeddedIndex()],
  [
    'EmbeddedIndex (BM25 + dense, persisted)',
    async () => EmbeddedIndex.open({ embedder, file: path.join(tmp, `idx-${++collections}.json`) }),
  ],
  [
    'QdrantIndex (BM25) on the Qdrant HTTP double',
    async () => new QdrantIndex({ url: qdrant.url, collection: newCollection(), batchSize: 5 }),
  ],
  [
    'QdrantIndex (BM25 + dense, RRF) on the Qdrant HTTP double',
    async () => new QdrantIndex({ url: qdrant.url, collection: newCollection(), embedder, batchSize: 5 }),
  ],
];

describe.each(backends)('%s', (_name, open) => {
  let index: SnippetIndex;
  beforeAll(async () => {
    index = await open();
    await indexDirectory({ index, dir: path.join(tmp, 'a'), repo: REPO, commit: COMMIT_A });
    await indexDirectory({ index, dir: path.join(tmp, 'b'), repo: REPO, commit: COMMIT_B });
  });
  afterAll(() => index.close());

  it('puts the file defining fetchWithTimeout first for "add retry to fetchWithTimeout"', async () => {
    const results = await index.search(REPO, COMMIT_A, 'add retry to fetchWithTimeout', 5);
    expect(results[0]).toMatchObject({ path: 'src/http.ts', symbol: 'fetchWithTimeout', startLine: 1, endLine: 10 });
    expect(results[0].score).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < results.length; i++) expect(results[i - 1].score).toBeGreaterThanOrEqual(results[i].score);
  });

  it("returns a file's chunks by blob id, in line order, and nothing for binaries", async () => {
    const chunks = await index.snippetsByBlobIds(REPO, COMMIT_A, [gitBlobId(HTTP_TS)]);
    expect(chunks.map((c) => [c.path, c.symbol, c.startLine, c.endLine])).toEqual([
      ['src/http.ts', 'fetchWithTimeout', 1, 10],
      ['src/http.ts', 'joinUrl', 12, 14],
    ]);
    expect(chunks.map((c) => c.text).join('\n\n') + '\n').toBe(HTTP_TS);
    expect(chunks[0]).toMatchObject({ repo: REPO_KEY, commit: COMMIT_A, blobId: gitBlobId(HTTP_TS), kind: 'function' });
    expect(await index.snippetsByBlobIds(REPO, COMMIT_A, [gitBlobId(commitA['assets/logo.png'])])).toEqual([]);
    expect(await index.snippetsByBlobIds(REPO, COMMIT_A, [])).toEqual([]);
  });

  it('keeps commits apart', async () => {
    const atB = await index.search(REPO, COMMIT_B, 'add retry to fetchWithTimeout', 5);
    expect(atB[0]).toMatchObject({ path: 'src/net/timeout.ts', commit: COMMIT_B, symbol: 'fetchWithTimeout' });
    expect(
      (await index.search(REPO, COMMIT_A, 'fetchWithTimeout timeout', 20)).every((c) => c.commit === COMMIT_A),
    ).toBe(true);
    expect(await index.snippetsByBlobIds(REPO, COMMIT_A, [gitBlobId(TIMEOUT_TS)])).toEqual([]);
    expect(await index.snippetsByBlobIds(REPO, COMMIT_B, [gitBlobId(TIMEOUT_TS)])).toHaveLength(2);
    // Unchanged files are found at both commits.
    expect(await index.snippetsByBlobIds(REPO, COMMIT_B, [gitBlobId(USERS_TS)])).toHaveLength(
      (await index.snippetsByBlobIds(REPO, COMMIT_A, [gitBlobId(USERS_TS)])).length,
    );
  });

  it('knows which commits are indexed, under the URL with or without credentials', async () => {
    expect(await index.hasCommit(REPO, COMMIT_A)).toBe(true);
    expect(await index.hasCommit(REPO_KEY, COMMIT_B)).toBe(true);
    expect(await index.hasCommit(REPO, 'c'.repeat(40))).toBe(false);
    expect(await index.hasCommit('https://git.example.com/other.git', COMMIT_A)).toBe(false);
    expect(await index.search('https://git.example.com/other.git', COMMIT_A, 'fetchWithTimeout', 5)).toEqual([]);
  });

  it('finds Python by its snake_case name from a camelCase query', async () => {
    const results = await index.search(REPO, COMMIT_A, 'orderTotal should round', 3);
    expect(results[0]).toMatchObject({ path: 'scripts/orders.py', symbol: 'order_total' });
  });
});

describe('EmbeddedIndex persistence', () => {
  it('reloads chunks, dense vectors and indexed commits from its file', async () => {
    const file = path.join(tmp, 'persist.json');
    const first = await EmbeddedIndex.open({ embedder, file });
    await indexDirectory({ index: first, dir: path.join(tmp, 'a'), repo: REPO, commit: COMMIT_A });
    await first.close();
    const again = await EmbeddedIndex.open({ embedder, file });
    expect(await again.hasCommit(REPO, COMMIT_A)).toBe(true);
    expect((await again.search(REPO, COMMIT_A, 'add retry to fetchWithTimeout', 3))[0].path).toBe('src/http.ts');
  });
});

describe('QdrantIndex against the Qdrant HTTP double', () => {
  it('creates one collection with named sparse + dense vectors and keyword payload indexes, upserting in batches', async () => {
    const collection = newCollection();
    const index = new QdrantIndex({ url: qdrant.url, collection, embedder, batchSize: 3 });
    const before = qdrant.requests.length;
    const result = await indexDirectory({ index, dir: path.join(tmp, 'a'), repo: REPO, commit: COMMIT_A });
    const sent = qdrant.requests.slice(before);
    const create = sent.find((r) => r.method === 'PUT' && r.path === `/collections/${collection}`);
    expect(create?.body).toEqual({
      vectors: { dense: { size: 64, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
    });
    const indexed = sent.filter((r) => r.path.startsWith(`/collections/${collection}/index`)).map((r) => r.body);
    expect(indexed).toEqual(
      ['repo', 'commit', 'path', 'blob_id', 'type', 'symbol_key'].map((field_name) => ({
        field_name,
        field_schema: 'keyword',
      })),
    );
    const upserts = sent.filter(
      (r) => r.method === 'PUT' && r.path.startsWith(`/collections/${collection}/points?wait=true`),
    );
    expect(upserts.length).toBe(Math.ceil(result.chunks / 3) + 1); // + the commit marker
    const stored = qdrant.points(collection);
    expect(stored).toHaveLength(result.chunks + 1);
    expect(
      stored.filter((p) => p.payload.type === 'chunk').every((p) => p.vectors.sort().join() === 'bm25,dense'),
    ).toBe(true);
    expect(stored.every((p) => p.payload.repo === REPO_KEY)).toBe(true); // no credentials in Qdrant

    const searches = qdrant.requests.length;
    await index.search(REPO, COMMIT_A, 'add retry to fetchWithTimeout', 4);
    const query = qdrant.requests.slice(searches).find((r) => r.path.endsWith('/points/query'))!.body as Record<
      string,
      unknown
    >;
    expect(query).toMatchObject({ query: { fusion: 'rrf' }, limit: 4, with_payload: true });
    // BM25, BM25 among definitions of the symbols the goal names, dense.
    const prefetch = query.prefetch as Array<{ using: string; filter: { must: unknown[] } }>;
    expect(prefetch.map((p) => p.using)).toEqual(['bm25', 'bm25', 'dense']);
    expect(prefetch[1].filter.must).toContainEqual({
      key: 'symbol_key',
      match: { any: ['add', 'retry', 'fetchwithtimeout'] },
    });
  });

  it('refuses an existing collection whose dense size does not fit the embedder', async () => {
    const collection = newCollection();
    await new QdrantClient({ url: qdrant.url }).createCollection(collection, {
      vectors: { dense: { size: 8, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
    });
    const index = new QdrantIndex({ url: qdrant.url, collection, embedder });
    await expect(index.hasCommit(REPO, COMMIT_A)).rejects.toBeInstanceOf(SnippetIndexMisconfigured);
  });

  it('reports an unreachable Qdrant as retryable', async () => {
    const client = new QdrantClient({ url: 'http://127.0.0.1:9', checkCompatibility: false });
    const index = new QdrantIndex({ client, collection: 'x' });
    await expect(index.hasCommit(REPO, COMMIT_A)).rejects.toMatchObject({
      name: 'SnippetIndexUnavailable',
      retryable: true,
    });
  });
});
