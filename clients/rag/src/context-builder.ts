import type { Chunk } from './chunker';

/**
 * Token estimate shaped after BPE tokenizers (cl100k/o200k) on code: a word or camelCase part of up to ~7
 * letters is one token (a leading space merges into it), digits go in threes, punctuation runs pair up
 * (`=>`, `);`), and a line break swallows the indentation after it. Closer than chars/4 on code, which is
 * denser in punctuation than prose.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^\sA-Za-z\d]+|\n/g)) {
    const c = piece[0];
    if (c === '\n') tokens += 1;
    else if (c >= '0' && c <= '9') tokens += Math.ceil(piece.length / 3);
    else if (/[A-Za-z]/.test(c)) tokens += Math.ceil(piece.length / 7);
    else tokens += Math.ceil(piece.length / 2);
  }
  return tokens;
}

export interface BuildContextOptions {
  /** Candidates, most relevant first (e.g. search results after the task's own files' chunks). */
  chunks: Chunk[];
  budgetTokens: number;
  /** Paths that go first, in this order (the task's own files), whole files before anything else. */
  mustInclude?: string[];
  /** Tokens each snippet costs beyond its text (the header and fences `renderContext` adds). Default 16. */
  overheadTokens?: number;
}

export interface BuiltContext {
  /** Chosen snippets, grouped by file (files in priority order), each file's snippets in line order. */
  snippets: Chunk[];
  /** Candidates that did not fit the budget, in priority order. */
  omitted: Chunk[];
  usedTokens: number;
}

/**
 * Picks snippets for a prompt within a token budget: the task's own files first, then the rest by the
 * order given. A snippet that does not fit is left out and smaller ones after it still get their chance;
 * a snippet whose lines are already shown (overlapping line windows) is skipped, not counted as omitted.
 */
export function buildContext(opts: BuildContextOptions): BuiltContext {
  const overhead = opts.overheadTokens ?? 16;
  const must = opts.mustInclude ?? [];
  const rank = (c: Chunk) => {
    const i = must.indexOf(c.path);
    return i < 0 ? must.length : i;
  };
  const seen = new Set<string>();
  const ordered = opts.chunks
    .filter((c) => !seen.has(c.id) && seen.add(c.id))
    .map((c, i) => ({ c, i }))
    // Own files by mustInclude order then line; everything else keeps the caller's (relevance) order.
    .sort((a, b) => rank(a.c) - rank(b.c) || (rank(a.c) < must.length ? a.c.startLine - b.c.startLine : a.i - b.i))
    .map(({ c }) => c);

  const chosen: Chunk[] = [];
  const omitted: Chunk[] = [];
  let used = 0;
  const covered = (c: Chunk) =>
    chosen.some((s) => s.path === c.path && s.startLine <= c.startLine && s.endLine >= c.endLine);
  for (const c of ordered) {
    if (covered(c)) continue;
    const cost = estimateTokens(c.text) + overhead;
    if (used + cost > opts.budgetTokens) {
      omitted.push(c);
      continue;
    }
    used += cost;
    chosen.push(c);
  }

  const fileOrder = [...new Set(chosen.map((c) => c.path))];
  const snippets = fileOrder.flatMap((p) =>
    chosen.filter((c) => c.path === p).sort((a, b) => a.startLine - b.startLine),
  );
  return { snippets, omitted, usedTokens: used };
}

/** The snippets as prompt text, each with its path and line range so a model can write a diff against it. */
export function renderContext(snippets: Chunk[]): string {
  return snippets
    .map((c) => `FILE: ${c.path} (lines ${c.startLine}-${c.endLine})\n\`\`\`\n${c.text}\n\`\`\``)
    .join('\n\n');
}
