// The double is only worth its name if it answers like Qdrant: these drive it with the real client.
import { QdrantClient } from '@qdrant/js-client-rest';
import { startQdrantHttpDouble, type QdrantHttpDouble } from './qdrant-http-double';

let qdrant: QdrantHttpDouble;
let client: QdrantClient;
const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

beforeAll(async () => {
  qdrant = await startQdrantHttpDouble();
  client = new QdrantClient({ url: qdrant.url });
  await client.createCollection('docs', {
    vectors: { dense: { size: 3, distance: 'Cosine' } },
    sparse_vectors: { text: { modifier: 'idf' } },
  });
  await client.createPayloadIndex('docs', { field_name: 'lang', field_schema: 'keyword', wait: true });
  await client.upsert('docs', {
    wait: true,
    points: [
      {
        id: U(1),
        vector: { dense: [1, 0, 0], text: { indices: [1, 2], values: [1, 1] } },
        payload: { lang: 'ts', n: 1 },
      },
      { id: U(2), vector: { dense: [0, 1, 0], text: { indices: [2], values: [1] } }, payload: { lang: 'py', n: 2 } },
      { id: 3, vector: { dense: [0.9, 0.1, 0], text: { indices: [3], values: [1] } }, payload: { lang: 'ts', n: 3 } },
    ],
  });
});
afterAll(() => qdrant.close());

async function failure(p: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { status: number; data: { status: { error: string } } };
    return { status: e.status, error: e.data.status.error };
  }
  throw new Error('expected the call to fail');
}

describe('Qdrant HTTP double', () => {
  it("answers 404 with Qdrant's error body for an unknown collection, and exists=false", async () => {
    expect(await failure(client.getCollection('nope'))).toEqual({
      status: 404,
      error: "Not found: Collection `nope` doesn't exist!",
    });
    expect(await failure(client.query('nope', { query: [1, 0, 0], using: 'dense' }))).toMatchObject({ status: 404 });
    expect(await client.collectionExists('nope')).toEqual({ exists: false });
    const raw = await fetch(`${qdrant.url}/collections/nope`).then((r) => r.json());
    expect(raw).toEqual({ status: { error: "Not found: Collection `nope` doesn't exist!" }, time: expect.any(Number) });
  });

  it('reports collection info with its vector config and payload indexes', async () => {
    const info = await client.getCollection('docs');
    expect(info).toMatchObject({
      status: 'green',
      points_count: 3,
      config: {
        params: { vectors: { dense: { size: 3, distance: 'Cosine' } }, sparse_vectors: { text: { modifier: 'idf' } } },
      },
      payload_schema: { lang: { data_type: 'keyword', points: 3 } },
    });
    expect(await failure(client.createCollection('docs', { vectors: { size: 3, distance: 'Dot' } }))).toMatchObject({
      status: 409,
    });
  });

  it('validates upserts: point ids, vector names, dense sizes, sparse shapes', async () => {
    const up = (point: Record<string, unknown>) =>
      failure(client.upsert('docs', { wait: true, points: [point as never] }));
    expect(await up({ id: 'chunk-1', vector: {} })).toEqual({
      status: 400,
      error:
        'Format error in JSON body: value "chunk-1" is not a valid point ID, valid values are either an unsigned integer or a UUID',
    });
    expect((await up({ id: 9, vector: { dense: [1, 2] } })).error).toBe(
      'Wrong input: Vector dimension error: expected dim: 3, got 2',
    );
    expect((await up({ id: 9, vector: { colour: [1, 2, 3] } })).error).toBe(
      'Wrong input: Not existing vector name error: colour',
    );
    expect((await up({ id: 9, vector: { text: { indices: [1, 1], values: [1, 2] } } })).status).toBe(400);
    expect((await up({ id: 9, vector: { text: { indices: [1], values: [1, 2] } } })).status).toBe(400);
    expect(await client.count('docs', { exact: true })).toEqual({ count: 3 }); // nothing half-applied
  });

  it('searches dense vectors by cosine and sparse ones by IDF-weighted dot product, with payload filters', async () => {
    const dense = await client.query('docs', { query: [1, 0, 0], using: 'dense', with_payload: true });
    expect(dense.points.map((p) => p.id)).toEqual([U(1), 3, U(2)]);
    expect(dense.points[0].score).toBeCloseTo(1);
    const sparse = await client.query('docs', { query: { indices: [2, 3], values: [1, 1] }, using: 'text' });
    // Index 3 is in one point, index 2 in two: the rarer term wins; points sharing no index are not returned.
    expect(sparse.points.map((p) => p.id)).toEqual([3, U(1), U(2)]);
    const filtered = await client.query('docs', {
      query: [1, 0, 0],
      using: 'dense',
      filter: { must: [{ key: 'lang', match: { value: 'ts' } }], must_not: [{ has_id: [3] }] },
    });
    expect(filtered.points.map((p) => p.id)).toEqual([U(1)]);
    expect((await failure(client.query('docs', { query: [1, 0], using: 'dense' }))).error).toBe(
      'Wrong input: Vector dimension error: expected dim: 3, got 2',
    );
  });

  it('fuses prefetches with reciprocal rank fusion, 1 / (rank + 2) per list', async () => {
    const res = await client.query('docs', {
      prefetch: [
        { query: [0, 1, 0], using: 'dense', limit: 2 }, // U2 (cos 1), 3 (cos 0.11)
        { query: { indices: [1], values: [1] }, using: 'text', limit: 2 }, // U1 only
      ],
      query: { fusion: 'rrf' },
      limit: 3,
    });
    expect(res.points.map((p) => [p.id, Number(p.score.toFixed(4))])).toEqual([
      [U(1), 0.5],
      [U(2), 0.5],
      [3, 0.3333],
    ]);
  });

  it('scrolls pages by next_page_offset, filtered with match any', async () => {
    const page1 = await client.scroll('docs', {
      filter: { must: [{ key: 'n', match: { any: [1, 2, 3] } }] },
      limit: 2,
    });
    expect(page1.points).toHaveLength(2);
    const page2 = await client.scroll('docs', {
      filter: { must: [{ key: 'n', match: { any: [1, 2, 3] } }] },
      limit: 2,
      offset: page1.next_page_offset! as string,
    });
    expect(page2.next_page_offset).toBeNull();
    expect([...page1.points, ...page2.points].map((p) => p.payload!.n).sort()).toEqual([1, 2, 3]);
  });
});
