import http from 'node:http';
import { idf } from '../src/bm25';

/**
 * A TEST DOUBLE of Qdrant's REST API (Qdrant itself cannot run on the build machines). It implements the
 * endpoints `QdrantIndex` calls through `@qdrant/js-client-rest`, with the request and response shapes of
 * Qdrant's OpenAPI schema (v1.19, as generated into the client): answers are `{result, status: "ok", time}`,
 * failures `{status: {error}, time}` with Qdrant's status codes and messages. It validates what Qdrant
 * validates on those paths (unknown collection → 404, point ids, vector names and sizes, sparse vectors) and
 * scores like Qdrant: cosine/dot for dense vectors, dot product with BM25 IDF for sparse vectors with
 * `modifier: "idf"`, reciprocal rank fusion with k = 2. It refuses what it does not implement with a 400 that
 * says so, rather than answering wrongly.
 *
 * Endpoints: GET /, GET /collections, PUT|GET|DELETE /collections/{name}, GET /collections/{name}/exists,
 * PUT /collections/{name}/index, PUT /collections/{name}/points (upsert), POST /collections/{name}/points
 * (retrieve), POST .../points/scroll, .../points/count, .../points/query, .../points/search.
 */

export const QDRANT_DOUBLE_API_VERSION = '1.19.0';

type PointId = string | number;
interface SparseVector {
  indices: number[];
  values: number[];
}
type StoredVector = number[] | SparseVector;
interface DenseParams {
  size: number;
  distance: 'Cosine' | 'Dot';
}
interface Point {
  id: PointId;
  vector: Record<string, StoredVector>;
  payload: Record<string, unknown>;
  version: number;
}
interface Collection {
  /** '' is the unnamed (default) vector. */
  dense: Map<string, DenseParams>;
  sparse: Map<string, { modifier: 'none' | 'idf' }>;
  /** The `vectors` config as given, echoed back in collection info. */
  vectorsConfig: unknown;
  sparseConfig: Record<string, unknown> | null;
  payloadSchema: Map<string, string>;
  points: Map<string, Point>;
}
type Filter = Record<string, unknown>;
interface Scored {
  point: Point;
  score: number;
}

export interface QdrantHttpDouble {
  /** Base URL for `new QdrantClient({ url })`. */
  url: string;
  /** Every request received, for assertions on what the client sent. */
  requests: Array<{ method: string; path: string; body: unknown }>;
  /** Current points of a collection (ids and payloads), for assertions. */
  points(collection: string): Array<{ id: PointId; payload: Record<string, unknown>; vectors: string[] }>;
  close(): Promise<void>;
}

class QdrantError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (msg: string) => new QdrantError(400, `Wrong input: ${msg}`);
const formatError = (msg: string) => new QdrantError(400, `Format error in JSON body: ${msg}`);
const unsupported = (what: string) =>
  new QdrantError(400, `Wrong input: ${what} is not supported by this Qdrant test double`);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const PAYLOAD_TYPES = ['keyword', 'integer', 'float', 'geo', 'text', 'bool', 'datetime', 'uuid'];

function asList<T>(v: T | T[] | null | undefined): T[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** Qdrant accepts unsigned integers and UUIDs (stored hyphenated, lower-case). */
function pointId(raw: unknown): PointId {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return raw;
  if (typeof raw === 'string' && UUID.test(raw)) {
    const hex = raw.replace(/-/g, '').toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  throw formatError(
    `value ${JSON.stringify(raw)} is not a valid point ID, valid values are either an unsigned integer or a UUID`,
  );
}
const idKey = (id: PointId) => (typeof id === 'number' ? `n:${String(id).padStart(20, '0')}` : `u:${id}`);

function isSparse(v: unknown): v is SparseVector {
  return !!v && typeof v === 'object' && !Array.isArray(v) && 'indices' in v && 'values' in v;
}

function checkSparse(v: SparseVector, where: string): SparseVector {
  const { indices, values } = v;
  if (
    !Array.isArray(indices) ||
    !Array.isArray(values) ||
    !indices.every((i) => Number.isInteger(i) && i >= 0 && i <= 0xffffffff)
  ) {
    throw formatError(`${where}: sparse vector indices must be unsigned 32-bit integers`);
  }
  if (!values.every((x) => typeof x === 'number' && Number.isFinite(x)))
    throw formatError(`${where}: sparse vector values must be numbers`);
  if (indices.length !== values.length) {
    throw new QdrantError(400, `Validation error in JSON body: [${where}: must be the same length as indices]`);
  }
  if (new Set(indices).size !== indices.length) {
    throw new QdrantError(400, `Validation error in JSON body: [${where}.indices: must be unique]`);
  }
  // Stored sorted by index, as Qdrant does, so dot products can merge.
  const order = indices.map((_, i) => i).sort((a, b) => indices[a] - indices[b]);
  return { indices: order.map((i) => indices[i]), values: order.map((i) => values[i]) };
}

function createCollection(body: Record<string, unknown>): Collection {
  const dense = new Map<string, DenseParams>();
  const parseDense = (name: string, p: unknown) => {
    const { size, distance } = (p ?? {}) as { size?: unknown; distance?: unknown };
    if (!Number.isInteger(size) || (size as number) < 1)
      throw formatError(`vectors${name ? `.${name}` : ''}.size must be a positive integer`);
    if (distance === 'Euclid' || distance === 'Manhattan') throw unsupported(`distance ${distance}`);
    if (distance !== 'Cosine' && distance !== 'Dot') {
      throw formatError(
        `unknown variant \`${String(distance)}\`, expected one of \`Cosine\`, \`Euclid\`, \`Dot\`, \`Manhattan\``,
      );
    }
    dense.set(name, { size: size as number, distance });
  };
  const vectors = body.vectors;
  if (vectors !== undefined && vectors !== null) {
    if (typeof vectors !== 'object') throw formatError('vectors must be an object');
    if ('size' in (vectors as object)) parseDense('', vectors);
    else for (const [name, p] of Object.entries(vectors as object)) parseDense(name, p);
  }
  const sparse = new Map<string, { modifier: 'none' | 'idf' }>();
  const sparseConfig = (body.sparse_vectors ?? null) as Record<string, unknown> | null;
  for (const [name, p] of Object.entries(sparseConfig ?? {})) {
    if (dense.has(name)) throw badRequest(`vector name ${name} is used by both a dense and a sparse vector`);
    const modifier = ((p as { modifier?: string } | null)?.modifier ?? 'none') as string;
    if (modifier !== 'none' && modifier !== 'idf')
      throw formatError(`unknown variant \`${modifier}\`, expected \`none\` or \`idf\``);
    sparse.set(name, { modifier });
  }
  return { dense, sparse, vectorsConfig: vectors ?? {}, sparseConfig, payloadSchema: new Map(), points: new Map() };
}

function collectionInfo(c: Collection) {
  const payload_schema: Record<string, unknown> = {};
  for (const [field, type] of c.payloadSchema) {
    payload_schema[field] = {
      data_type: type,
      params: null,
      points: [...c.points.values()].filter((p) => field in p.payload).length,
    };
  }
  return {
    status: 'green',
    optimizer_status: 'ok',
    indexed_vectors_count: 0,
    points_count: c.points.size,
    segments_count: 1,
    config: {
      params: {
        vectors: c.vectorsConfig,
        shard_number: 1,
        replication_factor: 1,
        write_consistency_factor: 1,
        on_disk_payload: true,
        sparse_vectors: c.sparseConfig,
      },
      hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
      optimizer_config: {
        deleted_threshold: 0.2,
        vacuum_min_vector_number: 1000,
        default_segment_number: 0,
        max_segment_size: null,
        memmap_threshold: null,
        indexing_threshold: 20000,
        flush_interval_sec: 5,
        max_optimization_threads: null,
      },
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
      quantization_config: null,
    },
    payload_schema,
  };
}

// --- filters ------------------------------------------------------------------------------------------------

function payloadValues(payload: Record<string, unknown>, key: string): unknown[] {
  let values: unknown[] = [payload];
  for (const part of key.split('.')) {
    values = values.flatMap((v) =>
      v && typeof v === 'object' && !Array.isArray(v) ? asList((v as Record<string, unknown>)[part]) : [],
    );
  }
  return values.flatMap((v) => asList(v as unknown));
}

function matchesCondition(p: Point, cond: Record<string, unknown>): boolean {
  if ('must' in cond || 'should' in cond || 'must_not' in cond || 'min_should' in cond) return matchesFilter(p, cond);
  if ('has_id' in cond)
    return asList(cond.has_id as unknown[])
      .map(pointId)
      .some((id) => idKey(id) === idKey(p.id));
  if ('is_empty' in cond) return payloadValues(p.payload, (cond.is_empty as { key: string }).key).length === 0;
  if ('is_null' in cond) return payloadValues(p.payload, (cond.is_null as { key: string }).key).some((v) => v === null);
  if (typeof cond.key !== 'string') throw formatError('data did not match any variant of untagged enum Condition');
  const values = payloadValues(p.payload, cond.key);
  if (cond.match) {
    const m = cond.match as { value?: unknown; any?: unknown[]; except?: unknown[] };
    if ('value' in m) return values.some((v) => v === m.value);
    if (Array.isArray(m.any)) return values.some((v) => m.any!.includes(v));
    if (Array.isArray(m.except)) return values.length > 0 && values.every((v) => !m.except!.includes(v));
    throw unsupported(`match ${JSON.stringify(Object.keys(m))}`);
  }
  if (cond.range) {
    const r = cond.range as { gt?: number; gte?: number; lt?: number; lte?: number };
    return values.some(
      (v) =>
        typeof v === 'number' &&
        (r.gt === undefined || v > r.gt) &&
        (r.gte === undefined || v >= r.gte) &&
        (r.lt === undefined || v < r.lt) &&
        (r.lte === undefined || v <= r.lte),
    );
  }
  if (cond.is_empty === true) return values.length === 0;
  throw unsupported(`field condition ${JSON.stringify(Object.keys(cond))}`);
}

function matchesFilter(p: Point, f: Filter | null | undefined): boolean {
  if (!f) return true;
  const conds = (k: string) => asList(f[k] as Record<string, unknown> | Record<string, unknown>[]);
  if (!conds('must').every((c) => matchesCondition(p, c))) return false;
  const should = conds('should');
  if (should.length && !should.some((c) => matchesCondition(p, c))) return false;
  if (conds('must_not').some((c) => matchesCondition(p, c))) return false;
  const minShould = f.min_should as { conditions: Record<string, unknown>[]; min_count: number } | undefined;
  if (minShould && minShould.conditions.filter((c) => matchesCondition(p, c)).length < minShould.min_count)
    return false;
  return true;
}

/** A top-level filter applies to prefetches too, as in Qdrant. */
const andFilters = (a?: Filter | null, b?: Filter | null): Filter | undefined =>
  a && b ? { must: [a, b] } : (a ?? b ?? undefined);

// --- projection ---------------------------------------------------------------------------------------------

function projectPayload(payload: Record<string, unknown>, sel: unknown): Record<string, unknown> | null {
  if (sel === undefined || sel === false || sel === null) return null;
  if (sel === true) return payload;
  const pick = (keys: string[]) => Object.fromEntries(Object.entries(payload).filter(([k]) => keys.includes(k)));
  if (Array.isArray(sel)) return pick(sel as string[]);
  const s = sel as { include?: string[]; exclude?: string[] };
  if (s.include) return pick(s.include);
  if (s.exclude) return Object.fromEntries(Object.entries(payload).filter(([k]) => !s.exclude!.includes(k)));
  throw formatError('with_payload must be a boolean, a list of keys or {include|exclude}');
}

function projectVector(p: Point, sel: unknown): unknown {
  if (!sel) return null;
  const names = sel === true ? Object.keys(p.vector) : (sel as string[]);
  const picked = Object.fromEntries(Object.entries(p.vector).filter(([k]) => names.includes(k)));
  return Object.keys(picked).length === 1 && '' in picked ? picked[''] : picked;
}

function record(p: Point, withPayload: unknown, withVector: unknown) {
  return {
    id: p.id,
    payload: projectPayload(p.payload, withPayload),
    vector: projectVector(p, withVector),
    shard_key: null,
    order_value: null,
  };
}

// --- search -------------------------------------------------------------------------------------------------

function vectorSearch(
  c: Collection,
  queryRaw: unknown,
  using: string | null | undefined,
  filter: Filter | undefined,
): Scored[] {
  const name = using ?? '';
  const candidates = [...c.points.values()].filter((p) => p.vector[name] !== undefined && matchesFilter(p, filter));
  const denseParams = c.dense.get(name);
  const sparseParams = c.sparse.get(name);
  if (!denseParams && !sparseParams) throw badRequest(`Not existing vector name error: ${name}`);
  if (denseParams) {
    if (!Array.isArray(queryRaw) || !queryRaw.every((x) => typeof x === 'number')) {
      throw badRequest(`Conversion between sparse and regular vectors failed`);
    }
    if (queryRaw.length !== denseParams.size) {
      throw badRequest(`Vector dimension error: expected dim: ${denseParams.size}, got ${queryRaw.length}`);
    }
    const q = queryRaw as number[];
    const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    const qn = denseParams.distance === 'Cosine' ? norm(q) : 1;
    return candidates.map((p) => {
      const v = p.vector[name] as number[];
      const dot = v.reduce((s, x, i) => s + x * q[i], 0);
      return { point: p, score: denseParams.distance === 'Cosine' ? dot / (qn * norm(v)) : dot };
    });
  }
  if (!isSparse(queryRaw)) throw badRequest(`Conversion between sparse and regular vectors failed`);
  const q = checkSparse(queryRaw, 'query');
  // IDF over every point that has this sparse vector, not only the filtered ones: Qdrant's statistics are
  // collection-wide.
  const all = [...c.points.values()].filter((p) => p.vector[name] !== undefined);
  const df = new Map<number, number>();
  if (sparseParams!.modifier === 'idf') {
    for (const p of all)
      for (const i of (p.vector[name] as SparseVector).indices)
        if (q.indices.includes(i)) df.set(i, (df.get(i) ?? 0) + 1);
  }
  const weight = (i: number) => (sparseParams!.modifier === 'idf' ? idf(all.length, df.get(i) ?? 0) : 1);
  const out: Scored[] = [];
  for (const p of candidates) {
    const v = p.vector[name] as SparseVector;
    let score = 0;
    let overlap = false;
    q.indices.forEach((qi, k) => {
      const j = v.indices.indexOf(qi);
      if (j >= 0) {
        overlap = true;
        score += q.values[k] * v.values[j] * weight(qi);
      }
    });
    if (overlap) out.push({ point: p, score }); // sparse search only returns points sharing a dimension
  }
  return out;
}

const byScore = (a: Scored, b: Scored) => b.score - a.score || (idKey(a.point.id) < idKey(b.point.id) ? -1 : 1);

interface QueryLike {
  prefetch?: unknown;
  query?: unknown;
  using?: string | null;
  filter?: Filter | null;
  score_threshold?: number | null;
  limit?: number | null;
}

function runQuery(c: Collection, req: QueryLike, inherited: Filter | undefined): Scored[] {
  const filter = andFilters(req.filter ?? undefined, inherited);
  const limit = req.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 0) throw formatError('limit must be an unsigned integer');
  const prefetches = asList(req.prefetch as QueryLike | QueryLike[]);
  const q = req.query as Record<string, unknown> | unknown[] | null | undefined;
  let scored: Scored[];
  if (q && !Array.isArray(q) && ('fusion' in q || 'rrf' in q)) {
    if (!prefetches.length) throw badRequest('Fusion queries require prefetches');
    if ('fusion' in q && q.fusion !== 'rrf') {
      if (q.fusion === 'dbsf') throw unsupported('fusion dbsf');
      throw formatError(`unknown variant \`${String(q.fusion)}\`, expected \`rrf\` or \`dbsf\``);
    }
    const rrf = (('rrf' in q ? q.rrf : null) ?? {}) as { k?: number | null; weights?: number[] | null };
    const k = rrf.k ?? 2;
    const lists = prefetches.map((p) => runQuery(c, p, filter));
    if (rrf.weights && rrf.weights.length !== lists.length) {
      throw badRequest(
        `Number of weights in RRF should match number of pre-fetches: got ${rrf.weights.length}, expected ${lists.length}`,
      );
    }
    const fused = new Map<string, Scored>();
    lists.forEach((list, li) => {
      const w = rrf.weights?.[li] ?? 1;
      list.forEach((s, pos) => {
        const add = w <= 0 ? 0 : 1 / ((pos + 1) / w + k - 1);
        const entry = fused.get(idKey(s.point.id)) ?? { point: s.point, score: 0 };
        entry.score += add;
        fused.set(idKey(s.point.id), entry);
      });
    });
    scored = [...fused.values()];
  } else if (q === undefined || q === null) {
    if (prefetches.length) throw unsupported('prefetch without a fusion query');
    return [...c.points.values()]
      .filter((p) => matchesFilter(p, filter))
      .sort((a, b) => (idKey(a.id) < idKey(b.id) ? -1 : 1))
      .slice(0, limit)
      .map((point) => ({ point, score: 0 }));
  } else {
    const vector = !Array.isArray(q) && 'nearest' in q ? q.nearest : q;
    if (!Array.isArray(vector) && !isSparse(vector)) throw unsupported(`query ${JSON.stringify(Object.keys(q))}`);
    scored = vectorSearch(c, vector, req.using, filter);
    if (prefetches.length) {
      // Re-scoring: only what the prefetches found is a candidate.
      const allowed = new Set(prefetches.flatMap((p) => runQuery(c, p, filter)).map((s) => idKey(s.point.id)));
      scored = scored.filter((s) => allowed.has(idKey(s.point.id)));
    }
  }
  const threshold = req.score_threshold;
  return scored
    .filter((s) => threshold === undefined || threshold === null || s.score >= threshold)
    .sort(byScore)
    .slice(0, limit);
}

// --- server -------------------------------------------------------------------------------------------------

export async function startQdrantHttpDouble(
  opts: { port?: number; host?: string; apiKey?: string } = {},
): Promise<QdrantHttpDouble> {
  const collections = new Map<string, Collection>();
  const requests: QdrantHttpDouble['requests'] = [];
  let operationId = 0;

  const collection = (name: string) => {
    const c = collections.get(name);
    if (!c) throw new QdrantError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return c;
  };
  const updateResult = (wait: boolean) => ({
    operation_id: operationId++,
    status: wait ? 'completed' : 'acknowledged',
  });

  function upsert(c: Collection, body: Record<string, unknown>, wait: boolean) {
    if (body.batch !== undefined) throw unsupported('the batch form of upsert');
    if (!Array.isArray(body.points)) throw formatError('missing field `points`');
    // Validate every point before changing any, as Qdrant rejects the whole request.
    const version = operationId;
    const parsed: Point[] = body.points.map((raw: Record<string, unknown>, n: number) => {
      const id = pointId(raw.id);
      const named: Record<string, unknown> = Array.isArray(raw.vector)
        ? { '': raw.vector }
        : ((raw.vector ?? {}) as Record<string, unknown>);
      const vector: Record<string, StoredVector> = {};
      for (const [name, v] of Object.entries(named)) {
        const d = c.dense.get(name);
        if (d) {
          if (!Array.isArray(v) || !v.every((x) => typeof x === 'number'))
            throw badRequest(`Conversion between sparse and regular vectors failed`);
          if (v.length !== d.size) throw badRequest(`Vector dimension error: expected dim: ${d.size}, got ${v.length}`);
          vector[name] = v as number[];
        } else if (c.sparse.has(name)) {
          if (!isSparse(v)) throw badRequest(`Conversion between sparse and regular vectors failed`);
          vector[name] = checkSparse(v, `points[${n}].vector.${name}`);
        } else {
          throw badRequest(`Not existing vector name error: ${name}`);
        }
      }
      const payload = (raw.payload ?? {}) as Record<string, unknown>;
      if (typeof payload !== 'object' || Array.isArray(payload)) throw formatError('payload must be a JSON object');
      return { id, vector, payload, version };
    });
    for (const p of parsed) c.points.set(idKey(p.id), p);
    return updateResult(wait);
  }

  function route(method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): unknown {
    if (method === 'GET' && path === '/')
      return { raw: { title: 'qdrant - vector search engine (test double)', version: QDRANT_DOUBLE_API_VERSION } };
    if (method === 'GET' && path === '/collections')
      return { collections: [...collections.keys()].map((name) => ({ name })) };
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (!m) throw new QdrantError(404, `Not found: ${path}`);
    const name = decodeURIComponent(m[1]);
    const rest = m[2] ?? '';
    const wait = query.get('wait') === 'true';
    if (rest === '') {
      if (method === 'GET') return collectionInfo(collection(name));
      if (method === 'DELETE') return collections.delete(name);
      if (method === 'PUT') {
        if (collections.has(name)) throw new QdrantError(409, `Wrong input: Collection \`${name}\` already exists!`);
        if (!/^[^/\\\0]{1,255}$/.test(name)) throw badRequest(`Collection name ${name} is invalid`);
        collections.set(name, createCollection(body));
        return true;
      }
    }
    if (rest === '/exists' && method === 'GET') return { exists: collections.has(name) };
    const c = collection(name);
    if (rest === '/index' && method === 'PUT') {
      if (typeof body.field_name !== 'string' || !body.field_name) throw formatError('missing field `field_name`');
      const schema = body.field_schema;
      const type = typeof schema === 'string' ? schema : (schema as { type?: string } | undefined)?.type;
      if (!type || !PAYLOAD_TYPES.includes(type)) throw formatError(`unknown payload schema ${JSON.stringify(schema)}`);
      c.payloadSchema.set(body.field_name, type);
      return updateResult(wait);
    }
    if (rest === '/points' && method === 'PUT') return upsert(c, body, wait);
    if (rest === '/points' && method === 'POST') {
      if (!Array.isArray(body.ids)) throw formatError('missing field `ids`');
      return body.ids
        .map((id) => c.points.get(idKey(pointId(id))))
        .filter((p): p is Point => !!p)
        .map((p) => record(p, body.with_payload ?? true, body.with_vector ?? false));
    }
    if (rest === '/points/scroll' && method === 'POST') {
      const limit = (body.limit as number | undefined) ?? 10;
      const from = body.offset === undefined || body.offset === null ? '' : idKey(pointId(body.offset));
      const matching = [...c.points.values()]
        .filter((p) => idKey(p.id) >= from && matchesFilter(p, body.filter as Filter))
        .sort((a, b) => (idKey(a.id) < idKey(b.id) ? -1 : 1));
      return {
        points: matching.slice(0, limit).map((p) => record(p, body.with_payload ?? true, body.with_vector ?? false)),
        next_page_offset: matching[limit]?.id ?? null,
      };
    }
    if (rest === '/points/count' && method === 'POST') {
      return { count: [...c.points.values()].filter((p) => matchesFilter(p, body.filter as Filter)).length };
    }
    if (rest === '/points/query' && method === 'POST') {
      const offset = (body.offset as number | undefined) ?? 0;
      const limit = (body.limit as number | undefined) ?? 10;
      const scored = runQuery(c, { ...body, limit: offset + limit } as QueryLike, undefined).slice(offset);
      return {
        points: scored.map((s) => ({
          id: s.point.id,
          version: s.point.version,
          score: s.score,
          payload: projectPayload(s.point.payload, body.with_payload ?? false),
          vector: projectVector(s.point, body.with_vector ?? false),
          shard_key: null,
          order_value: null,
        })),
      };
    }
    if (rest === '/points/search' && method === 'POST') {
      // Legacy search: `vector` is a plain dense vector or {name, vector}.
      const v = body.vector as unknown;
      const named =
        v && typeof v === 'object' && !Array.isArray(v) && 'name' in v
          ? (v as { name: string; vector: unknown })
          : undefined;
      const scored = runQuery(
        c,
        {
          query: named ? named.vector : v,
          using: named?.name,
          filter: body.filter as Filter,
          limit: body.limit as number,
        },
        undefined,
      );
      return scored.map((s) => ({
        id: s.point.id,
        version: s.point.version,
        score: s.score,
        payload: projectPayload(s.point.payload, body.with_payload ?? false),
        vector: null,
      }));
    }
    throw new QdrantError(404, `Not found: ${method} ${path}`);
  }

  const server = http.createServer(async (req, res) => {
    const started = process.hrtime.bigint();
    const time = () => Number(process.hrtime.bigint() - started) / 1e9;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const u = new URL(req.url ?? '/', 'http://localhost');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      if (
        opts.apiKey &&
        req.headers['api-key'] !== opts.apiKey &&
        req.headers.authorization !== `Bearer ${opts.apiKey}`
      ) {
        throw new QdrantError(401, 'Must provide an API key or an Authorization bearer token');
      }
      if (text.trim()) {
        try {
          body = JSON.parse(text);
        } catch (err) {
          throw formatError((err as Error).message);
        }
      }
      requests.push({ method: req.method ?? 'GET', path: u.pathname + u.search, body });
      const result = route(req.method ?? 'GET', u.pathname.replace(/\/+$/, '') || '/', u.searchParams, body);
      if (result && typeof result === 'object' && 'raw' in result) return send(200, (result as { raw: unknown }).raw);
      send(200, { result, status: 'ok', time: time() });
    } catch (err) {
      const status = err instanceof QdrantError ? err.status : 500;
      send(status, { status: { error: (err as Error).message }, time: time() });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    requests,
    points: (name) =>
      [...collection(name).points.values()].map((p) => ({
        id: p.id,
        payload: p.payload,
        vectors: Object.keys(p.vector),
      })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // the client keeps connections alive
        server.close(() => resolve());
      }),
  };
}
