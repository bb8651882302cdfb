import {
  chunkTerms,
  chunkVector,
  documentVector,
  idf,
  queryVector,
  reciprocalRankFusion,
  sparseScore,
  tokenize,
} from './bm25';
import { chunkFile } from './chunker';
import { EmbeddedIndex } from './embedded-index';

describe('tokenize', () => {
  it('splits camelCase, PascalCase and snake_case and keeps the joined identifier', () => {
    expect(tokenize('fetchWithTimeout(url)')).toEqual(['fetchwithtimeout', 'fetch', 'timeout', 'url']);
    expect(tokenize('fetch_with_timeout HTTPClient')).toEqual([
      'fetchwithtimeout',
      'fetch',
      'timeout',
      'httpclient',
      'http',
      'client',
    ]);
    expect(tokenize('Add retry to the client')).toEqual(['add', 'retry', 'client']);
  });
});

describe('BM25 scoring', () => {
  it('weights rare terms over common ones (IDF) and saturates repeated terms', () => {
    expect(idf(100, 1)).toBeGreaterThan(idf(100, 50));
    const once = documentVector(['retry']).values[0];
    const many = documentVector(Array(10).fill('retry')).values[0];
    expect(many).toBeGreaterThan(once);
    expect(many).toBeLessThan(2.2 * once + 0.5); // k1 = 1.2 bounds the gain of repetition
  });

  it('scores only shared terms', () => {
    const q = queryVector('timeout retry');
    expect(sparseScore(q, documentVector(chunkTerms({ path: 'a.ts', text: 'const timeout = 5;' })))).toBeGreaterThan(0);
    expect(sparseScore(q, documentVector(chunkTerms({ path: 'b.ts', text: 'const other = 5;' })))).toBe(0);
  });

  it('fuses rankings with reciprocal rank fusion as Qdrant does (k = 2)', () => {
    const fused = reciprocalRankFusion(
      [
        ['a', 'b'],
        ['b', 'c', 'a'],
      ],
      (x) => x,
    );
    expect(fused.map((f) => [f.item, Number(f.score.toFixed(4))])).toEqual([
      ['b', 0.8333],
      ['a', 0.75],
      ['c', 0.3333],
    ]);
  });
});

describe('BM25 ranking of a goal', () => {
  const files: Record<string, string> = {
    // Calls fetchWithTimeout more often than the file that defines it.
    'src/users.ts': `import { fetchWithTimeout } from './http';
export async function getUser(id: string) {
  const res = await fetchWithTimeout(\`/users/\${id}\`);
  return res.json();
}
export async function listUsers() {
  const res = await fetchWithTimeout('/users');
  if (!res.ok) return fetchWithTimeout('/users?retry=1');
  return res.json();
}
`,
    'src/http.ts': `export async function fetchWithTimeout(url: string, ms = 5000): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(ms) });
}
`,
    'src/queue.ts': `export function retryLater(job: Job) {
  job.retries += 1;
  queue.push(job);
}
`,
  };

  it('ranks the file defining the symbol named in the goal first, on BM25 scores alone', () => {
    const chunks = Object.entries(files).flatMap(([path, text]) => chunkFile({ repo: 'r', commit: 'c', path, text }));
    const vectors = chunks.map(chunkVector);
    const df = new Map<number, number>();
    for (const v of vectors) for (const i of v.indices) df.set(i, (df.get(i) ?? 0) + 1);
    const q = queryVector('Add retry to fetchWithTimeout');
    const scores = vectors.map((v) => sparseScore(q, v, (i) => idf(chunks.length, df.get(i) ?? 0)));
    const best = scores.indexOf(Math.max(...scores));
    expect(chunks[best]).toMatchObject({ path: 'src/http.ts', symbol: 'fetchWithTimeout' });
  });

  it('ranks it first through the index search as well', async () => {
    const index = new EmbeddedIndex();
    for (const [path, text] of Object.entries(files))
      await index.upsert(chunkFile({ repo: 'r', commit: 'c', path, text }));
    const results = await index.search('r', 'c', 'Add retry to fetchWithTimeout', 5);
    expect(results[0]).toMatchObject({ path: 'src/http.ts', symbol: 'fetchWithTimeout' });
    expect(results.map((r) => r.path)).toContain('src/users.ts');
  });
});
