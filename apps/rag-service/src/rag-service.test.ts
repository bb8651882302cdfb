import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cloneAtCommit, seedBareRepo, startGitHttpServer, type GitHttpServer } from '@farm/git';
import { createEmbedder } from '@farm/llm';
import {
  EmbeddedIndex,
  gitBlobId,
  LocalRag,
  QdrantIndex,
  RagClient,
  RagServiceError,
  type SnippetIndex,
} from '@farm/rag';
import { ConfigError, silentLogger as log } from '@farm/runtime';
// Test-only helpers imported by path: neither is a dependency of this app.
import { startQdrantHttpDouble, type QdrantHttpDouble } from '@farm/rag/testing';
import { startScriptedModelServer, type ScriptedModelServer } from '../../../clients/scripted-llm/src';
import { openSnippetIndex } from './backends';
import { loadRagConfig } from './config';
import { startRagHttpServer, type RagHttpServer } from './rag-http-server';

const HTTP_TS = `export async function fetchWithTimeout(url: string, ms = 5000): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(ms) });
}
`;
const API_TS = `import { fetchWithTimeout } from './http';

export async function getUser(id: string) {
  return (await fetchWithTimeout(\`/users/\${id}\`)).json();
}
`;

let tmp: string;
let git: GitHttpServer;
let model: ScriptedModelServer;
let qdrant: QdrantHttpDouble;
let repoUrl: string;
let commit: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rag-service-test-'));
  git = await startGitHttpServer({ root: path.join(tmp, 'git') });
  model = await startScriptedModelServer({ script: { chat: [], embeddingDimensions: 32 } });
  qdrant = await startQdrantHttpDouble();
  repoUrl = git.repoUrl('shop.git');
  commit = await seedBareRepo({
    server: git,
    name: 'shop.git',
    files: { 'src/http.ts': HTTP_TS, 'src/api.ts': API_TS, 'README.md': '# shop\n' },
    message: 'init',
  });
});
afterAll(async () => {
  await qdrant?.close();
  await model?.close();
  await git?.close();
  await rm(tmp, { recursive: true, force: true });
});

const COMPONENT_TOKEN = `farm_${'r'.repeat(43)}`;
const embedder = () => createEmbedder({ baseURL: model.baseURL, apiKey: 'test', model: 'embed-test', maxRetries: 0 });
const backends: Array<[string, () => SnippetIndex]> = [
  ['embedded index', () => new EmbeddedIndex({ embedder: embedder() })],
  [
    'Qdrant (HTTP double)',
    () => new QdrantIndex({ url: qdrant.url, collection: `svc_${Date.now()}`, embedder: embedder() }),
  ],
];

describe.each(backends)('rag-service over HTTP with the %s', (_name, makeIndex) => {
  let server: RagHttpServer;
  let client: RagClient;
  beforeAll(async () => {
    const rag = new LocalRag({ index: makeIndex(), checkout: cloneAtCommit, workDir: path.join(tmp, 'work') });
    server = await startRagHttpServer({ rag, componentToken: COMPONENT_TOKEN });
    client = new RagClient({ baseUrl: server.url, componentToken: COMPONENT_TOKEN });
  });
  afterAll(() => server.close());

  it('clones and indexes a commit once; concurrent and repeated requests do not redo it', async () => {
    const [first, concurrent] = await Promise.all([
      client.indexRepo({ repoUrl, commit, ref: 'main' }),
      client.indexRepo({ repoUrl, commit, ref: 'main' }),
    ]);
    expect(first).toMatchObject({ repo: repoUrl, commit, indexed: true, files: 3 });
    expect(first.chunks).toBeGreaterThanOrEqual(3);
    expect(concurrent).toEqual(first);
    expect(await client.indexRepo({ repoUrl, commit, ref: 'main' })).toMatchObject({ indexed: false });
  });

  it('searches and serves snippets by blob id for the indexed commit', async () => {
    const results = await client.search(repoUrl, commit, 'add retry to fetchWithTimeout', 3);
    expect(results[0]).toMatchObject({ path: 'src/http.ts', symbol: 'fetchWithTimeout', startLine: 1, endLine: 3 });
    const chunks = await client.snippetsByBlobIds(repoUrl, commit, [gitBlobId(HTTP_TS)]);
    expect(chunks.map((c) => c.text).join('\n') + '\n').toBe(HTTP_TS);
  });

  it('refuses bad input with 400 and an unreachable commit with 422, neither retryable', async () => {
    const bad = await client.search(repoUrl, 'main', 'x').catch((e) => e);
    expect(bad).toBeInstanceOf(RagServiceError);
    expect(bad).toMatchObject({ status: 400, retryable: false });
    expect(bad.message).toMatch(/commit: must be a 40-hex commit sha/);
    const missing = await client.indexRepo({ repoUrl, commit: 'f'.repeat(40), ref: 'main' }).catch((e) => e);
    expect(missing).toMatchObject({ status: 422, retryable: false });
    expect(missing.message).toMatch(/not reachable/);
  });

  it('refuses a call without the component token, or with another one, with a 401 that is not retryable', async () => {
    const anonymous = await new RagClient({ baseUrl: server.url }).search(repoUrl, commit, 'x').catch((e) => e);
    expect(anonymous).toMatchObject({ status: 401, retryable: false });
    const other = new RagClient({ baseUrl: server.url, componentToken: 'farm_not-the-one' });
    await expect(other.indexRepo({ repoUrl, commit, ref: 'main' })).rejects.toMatchObject({ status: 401 });
  });

  it('serves /healthz and the rag metrics', async () => {
    expect(await fetch(`${server.url}/healthz`).then((r) => r.text())).toBe('ok');
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^farm_rag_index_chunks_total [1-9]/m);
    expect(metrics).toMatch(/^farm_rag_search_duration_seconds_count [1-9]/m);
    expect(metrics).toMatch(/farm_rag_requests_total\{route="\/v1\/search",status="400"\} [1-9]/);
  });
});

describe('rag-service configuration', () => {
  it('chooses Qdrant when QDRANT_URL is set and the embedded index otherwise', async () => {
    const qdrantConfig = loadRagConfig({ QDRANT_URL: qdrant.url, RAG_QDRANT_COLLECTION: 'cfg' });
    const viaQdrant = await openSnippetIndex(qdrantConfig, undefined, log);
    expect(viaQdrant).toBeInstanceOf(QdrantIndex);
    expect(await viaQdrant.hasCommit(repoUrl, commit)).toBe(false); // talks to the double: a fresh collection
    const embedded = loadRagConfig({ QDRANT_URL: '', RAG_INDEX_FILE: path.join(tmp, 'cfg.json') });
    expect(await openSnippetIndex(embedded, undefined, log)).toBeInstanceOf(EmbeddedIndex);
  });

  it('names the missing variable when embeddings are half configured', () => {
    expect(() => loadRagConfig({ FARM_EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toThrow(ConfigError);
    expect(() => loadRagConfig({ FARM_EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadRagConfig({ QDRANT_URL: 'qdrant:6333' })).toThrow(/QDRANT_URL/);
  });
});
