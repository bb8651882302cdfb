/**
 * BM25 as sparse vectors, split the way Qdrant's `modifier: "idf"` expects: a document vector carries the
 * term-frequency part (saturated, length-normalised), a query vector carries 1 per term, and the IDF is
 * applied at query time from the collection's statistics. The embedded index applies the same IDF, so both
 * backends rank alike.
 */

export interface SparseVector {
  /** Ascending, unique u32 term hashes. */
  indices: number[];
  values: number[];
}

// Standard BM25 constants; the average length is fixed (as in streaming BM25) because a chunk's vector is
// computed once, without knowing the corpus it will join.
const K1 = 1.2;
const B = 0.75;
const AVG_DOC_TOKENS = 120;

// English glue words that goals are full of ("add retry to the client") and code rarely means.
const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with into we you should make'.split(
    ' ',
  ),
);

/**
 * One identifier → its lower-cased parts (camelCase, PascalCase, snake_case, digits) plus the whole without
 * separators, so `fetchWithTimeout` and `fetch_with_timeout` share a term.
 */
export function identifierParts(word: string): string[] {
  const parts = word.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  const lower = parts.map((p) => p.toLowerCase());
  const whole = word.replace(/[_$]/g, '').toLowerCase();
  return lower.length > 1 && whole ? [whole, ...lower] : lower.length ? lower : whole ? [whole] : [];
}

/** Search terms of a text: identifiers and their parts, lower-cased, without stopwords and 1-letter noise. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[A-Za-z_$][A-Za-z0-9_$]*|\d+/g) ?? []) {
    for (const t of identifierParts(word)) if (t.length > 1 && !STOPWORDS.has(t)) out.push(t);
  }
  return out;
}

/** FNV-1a, 32 bit: a stable term → index map with no vocabulary to store or share between processes. */
export function termIndex(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

function toSparse(weights: Map<number, number>): SparseVector {
  const indices = [...weights.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => weights.get(i)!) };
}

/** The BM25 term-frequency component of each term of a document. */
export function documentVector(terms: string[]): SparseVector {
  const tf = new Map<number, number>();
  for (const t of terms) {
    const i = termIndex(t);
    tf.set(i, (tf.get(i) ?? 0) + 1);
  }
  const norm = K1 * (1 - B + (B * terms.length) / AVG_DOC_TOKENS);
  const weights = new Map<number, number>();
  for (const [i, f] of tf) weights.set(i, (f * (K1 + 1)) / (f + norm));
  return toSparse(weights);
}

/** BM25's IDF, as Qdrant computes it for `modifier: "idf"`: ln((N - df + 0.5) / (df + 0.5) + 1). */
export function idf(points: number, df: number): number {
  return Math.log((points - df + 0.5) / (df + 0.5) + 1);
}

/** How symbols are compared: case and separators ignored, so `orderTotal` finds `order_total`. */
export const symbolKey = (name: string): string => name.replace(/[_$]/g, '').toLowerCase();

/** Identifiers a query names (as symbol keys): candidates for "the goal is about this definition". */
export function queryIdentifiers(text: string): string[] {
  const words = (text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []).filter(
    (w) => w.length > 2 && !STOPWORDS.has(w.toLowerCase()),
  );
  return [...new Set(words.map(symbolKey))];
}

// The term a chunk's own symbol is indexed under, apart from ordinary words: a definition match. It is rare
// (one chunk per definition) so the IDF makes it count, which term frequency cannot: a file calling
// `fetchWithTimeout` three times would otherwise outrank the one defining it.
const definitionTerm = (name: string) => `def:${symbolKey(name)}`;
// Worth more than a mention but less than matching two other goal words.
const DEFINITION_WEIGHT = 1.5;

/** The terms a chunk is indexed under: its path, its symbol and its code. */
export function chunkTerms(chunk: { path: string; symbol?: string; text: string }): string[] {
  const symbol = chunk.symbol && chunk.symbol !== 'default' ? tokenize(chunk.symbol) : [];
  return [...tokenize(chunk.path), ...symbol, ...tokenize(chunk.text)];
}

/** A chunk's sparse vector: BM25 weights of its terms plus its definition term. */
export function chunkVector(chunk: { path: string; symbol?: string; text: string }): SparseVector {
  const v = documentVector(chunkTerms(chunk));
  if (!chunk.symbol || chunk.symbol === 'default') return v;
  const weights = new Map(v.indices.map((i, k) => [i, v.values[k]]));
  weights.set(termIndex(definitionTerm(chunk.symbol)), DEFINITION_WEIGHT);
  return toSparse(weights);
}

/** 1 per query term, plus a definition term for each identifier the query names. */
export function queryVector(text: string): SparseVector {
  const terms = [...tokenize(text), ...queryIdentifiers(text).map(definitionTerm)];
  return toSparse(new Map(terms.map((t) => [termIndex(t), 1])));
}

/** Dot product of a query with a document, each query term weighted by `weight` (the IDF). */
export function sparseScore(
  query: SparseVector,
  doc: SparseVector,
  weight: (index: number) => number = () => 1,
): number {
  let score = 0;
  let j = 0;
  for (let i = 0; i < query.indices.length; i++) {
    const q = query.indices[i];
    while (j < doc.indices.length && doc.indices[j] < q) j++;
    if (j < doc.indices.length && doc.indices[j] === q) score += query.values[i] * doc.values[j] * weight(q);
  }
  return score;
}

/**
 * Reciprocal rank fusion with Qdrant's formula and default (k = 2): a point at 0-based position p in a list
 * scores 1 / (p + k). Same constant as the server so the embedded and Qdrant backends fuse alike.
 */
export function reciprocalRankFusion<T>(lists: T[][], key: (t: T) => string, k = 2): Array<{ item: T; score: number }> {
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, pos) => {
      const entry = fused.get(key(item)) ?? { item, score: 0 };
      entry.score += 1 / (pos + k);
      fused.set(key(item), entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
