import leven from 'leven';

/**
 * Where a model's search text is in a file, in tiers from strict to lenient (as Codex's seek_sequence does):
 * exact; then whole lines ignoring trailing whitespace; then ignoring indentation (the replacement is
 * re-indented to the file's); then with Unicode punctuation normalised. A tier counts only when its match is
 * unique (or every match is wanted); an ambiguous tier stops the search, because a more lenient tier would
 * only find more. A miss names the nearest candidates, a few, with their line numbers: never hundreds.
 */
export type MatchTier = 'exact' | 'trailing-whitespace' | 'indentation' | 'unicode-punctuation';

export const TIER_DESCRIPTIONS: Record<MatchTier, string> = {
  exact: 'exactly',
  'trailing-whitespace': 'ignoring trailing whitespace',
  indentation: "ignoring indentation (new_text re-indented to the file's)",
  'unicode-punctuation': 'ignoring indentation and Unicode punctuation (quotes, dashes, non-breaking spaces)',
};

export interface Candidate {
  /** 1-based line where the candidate starts. */
  line: number;
  /** 0..1, how close the candidate is to the search text (1: a match). */
  similarity: number;
  /** The file's first lines there, as they are. */
  excerpt: string[];
}

export type LocateOutcome =
  | { kind: 'replaced'; text: string; tier: MatchTier; count: number; firstLine: number }
  | { kind: 'ambiguous'; tier: MatchTier; count: number; candidates: Candidate[] }
  | { kind: 'absent'; candidates: Candidate[] };

const MAX_CANDIDATES = 3;
const EXCERPT_LINES = 4;
const MIN_SIMILARITY = 0.5;

const PUNCTUATION: [RegExp, string][] = [
  [/[\u2018\u2019\u201A\u201B\u2032]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
  [/\u2026/g, '...'],
];

export function normalisePunctuation(s: string): string {
  return PUNCTUATION.reduce((acc, [re, to]) => acc.replace(re, to), s);
}

const LINE_TIERS: [MatchTier, (line: string) => string][] = [
  ['trailing-whitespace', (l) => l.trimEnd()],
  ['indentation', (l) => l.trim()],
  ['unicode-punctuation', (l) => normalisePunctuation(l).trim()],
];

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];

/** The file as lines without their terminators, with where each starts in the text. */
function fileLines(text: string): { lines: string[]; starts: number[] } {
  const lines: string[] = [];
  const starts: number[] = [];
  let at = 0;
  for (const part of text.split('\n')) {
    starts.push(at);
    lines.push(part.endsWith('\r') ? part.slice(0, -1) : part);
    at += part.length + 1;
  }
  return { lines, starts };
}

/** Starts of non-overlapping matches of `needle` among `lines`, compared by `key`. */
function lineMatches(lines: string[], needle: string[], key: (l: string) => string): number[] {
  const want = needle.map(key);
  const have = lines.map(key);
  const at: number[] = [];
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((w, j) => have[i + j] === w)) {
      at.push(i);
      i += want.length - 1;
    }
  }
  return at;
}

const lineOfOffset = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

function excerpt(lines: string[], start: number, count = EXCERPT_LINES): string[] {
  return lines.slice(start, start + count).map((l) => (l.length > 100 ? `${l.slice(0, 97)}...` : l));
}

/**
 * Re-indents `newText` to the file's indentation. A line repeating a search line gets that line's indentation
 * in the file; another line gets the file's indentation of the search lines indented as it is; deeper lines
 * keep their extra depth, in tabs when the file indents with tabs. So a search text that lost or changed its
 * indentation (dedented, tabs turned to spaces) gives a replacement indented as the file is.
 */
function reindent(newText: string, needle: string[], matched: string[]): string {
  const byIndent = new Map<string, string>();
  const byContent = new Map<string, { from: string; to: string }>();
  needle.forEach((l, j) => {
    if (!l.trim()) return;
    const from = indentOf(l);
    const to = indentOf(matched[j]);
    if (!byIndent.has(from)) byIndent.set(from, to);
    if (!byContent.has(l.trim())) byContent.set(l.trim(), { from, to });
  });
  if ([...byIndent].every(([from, to]) => from === to)) return newText;
  const fileTabs = [...byIndent.values()].some((to) => to.includes('\t'));
  const widths = [...new Set([...byIndent.keys()].map((k) => k.length))].sort((a, b) => a - b);
  const unit = Math.max(1, Math.min(...widths.slice(1).map((w, k) => w - widths[k]), 4));
  const deeper = (rest: string) => (fileTabs && /^ +$/.test(rest) ? '\t'.repeat(Math.round(rest.length / unit)) : rest);
  const prefixes = [...byIndent.keys()].sort((a, b) => b.length - a.length);
  return newText
    .split('\n')
    .map((l) => {
      if (l.trim() === '') return l;
      const indent = indentOf(l);
      const body = l.slice(indent.length);
      const same = byContent.get(l.trim());
      if (same && same.from === indent) return same.to + body;
      const known = byIndent.get(indent);
      if (known !== undefined) return known + body;
      const base = prefixes.find((p) => indent.startsWith(p));
      return base === undefined ? l : byIndent.get(base)! + deeper(indent.slice(base.length)) + body;
    })
    .join('\n');
}

/**
 * Replaces `oldText` by `newText` in `text` at the first tier where it is found uniquely (or, with
 * `replaceAll`, everywhere it is found at that tier). Pure: the caller reads and writes the file.
 */
export function replaceInTiers(
  text: string,
  oldText: string,
  newText: string,
  opts: { replaceAll?: boolean; wholeLines?: boolean; exactOnly?: boolean } = {},
): LocateOutcome {
  const { lines, starts } = fileLines(text);
  const exact: number[] = [];
  for (let i = text.indexOf(oldText); i >= 0; i = text.indexOf(oldText, i + (opts.wholeLines ? 1 : oldText.length))) {
    if (opts.wholeLines && i > 0 && text[i - 1] !== '\n') continue; // only a match starting a line
    if (exact.length && i < exact[exact.length - 1] + oldText.length) continue; // overlapping the previous one
    exact.push(i);
  }
  if (exact.length === 1 || (exact.length > 1 && opts.replaceAll)) {
    let updated = text;
    for (const i of [...exact].reverse()) updated = updated.slice(0, i) + newText + updated.slice(i + oldText.length);
    return {
      kind: 'replaced',
      text: updated,
      tier: 'exact',
      count: exact.length,
      firstLine: lineOfOffset(text, exact[0]),
    };
  }
  if (exact.length > 1) {
    const at = exact.map((o) => lineOfOffset(text, o) - 1);
    return { kind: 'ambiguous', tier: 'exact', count: at.length, candidates: matchCandidates(lines, at) };
  }

  // Whole lines from here on: a search text ending in a newline replaces its lines' terminators too.
  const wholeLines = oldText.endsWith('\n');
  const needle = oldText.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  for (const [tier, key] of opts.exactOnly ? [] : LINE_TIERS) {
    const at = lineMatches(lines, needle, key);
    if (!at.length) continue;
    if (at.length > 1 && !opts.replaceAll)
      return { kind: 'ambiguous', tier, count: at.length, candidates: matchCandidates(lines, at) };
    let updated = text;
    for (const i of [...at].reverse()) {
      const last = i + needle.length - 1;
      const crlf = text[starts[last] + lines[last].length] === '\r';
      const end = wholeLines && last + 1 < starts.length ? starts[last + 1] : starts[last] + lines[last].length;
      const matched = lines.slice(i, last + 1);
      let replacement = tier === 'trailing-whitespace' ? newText : reindent(newText, needle, matched);
      if (crlf) replacement = replacement.replace(/\r?\n/g, '\r\n');
      updated = updated.slice(0, starts[i]) + replacement + updated.slice(end);
    }
    return { kind: 'replaced', text: updated, tier, count: at.length, firstLine: at[0] + 1 };
  }
  return { kind: 'absent', candidates: nearestCandidates(lines, needle) };
}

function matchCandidates(lines: string[], at: number[]): Candidate[] {
  return at.slice(0, MAX_CANDIDATES).map((i) => ({ line: i + 1, similarity: 1, excerpt: excerpt(lines, i, 2) }));
}

/** 0..1 similarity of two lines, compared trimmed and normalised (long lines by their first 200 characters). */
function lineSimilarity(a: string, b: string): number {
  const x = normalisePunctuation(a).trim().slice(0, 200);
  const y = normalisePunctuation(b).trim().slice(0, 200);
  if (x === y) return 1;
  const longest = Math.max(x.length, y.length);
  return 1 - leven(x, y) / longest;
}

/**
 * The few windows of the file most like the search text, line by line (blank lines count less), best
 * first and not overlapping. Long search texts are compared by their first lines to keep this bounded.
 */
export function nearestCandidates(lines: string[], needle: string[]): Candidate[] {
  const probe = needle.slice(0, 12);
  const weights = probe.map((l) => (l.trim() ? 1 : 0.2));
  const total = weights.reduce((a, b) => a + b, 0);
  const scored: { i: number; score: number }[] = [];
  const windows = Math.max(1, lines.length - probe.length + 1);
  for (let i = 0; i < windows; i++) {
    let score = 0;
    for (let j = 0; j < probe.length; j++) score += weights[j] * lineSimilarity(probe[j], lines[i + j] ?? '');
    scored.push({ i, score: score / total });
  }
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const picked: { i: number; score: number }[] = [];
  for (const s of scored) {
    if (picked.length >= MAX_CANDIDATES || s.score < MIN_SIMILARITY) break;
    if (picked.some((p) => Math.abs(p.i - s.i) < probe.length)) continue;
    picked.push(s);
  }
  return picked.map((p) => ({
    line: p.i + 1,
    similarity: Math.round(p.score * 100) / 100,
    excerpt: excerpt(lines, p.i, Math.min(EXCERPT_LINES, Math.max(2, needle.length))),
  }));
}

function renderCandidates(candidates: Candidate[]): string {
  return candidates
    .map((c) => {
      const body = c.excerpt.map((l, k) => `    ${c.line + k}| ${l}`.trimEnd()).join('\n');
      const sim = c.similarity < 1 ? ` (${Math.round(c.similarity * 100)}% similar)` : '';
      return `  at line ${c.line}${sim}:\n${body}`;
    })
    .join('\n');
}

/** How a miss names the search text and the way to make it unique (edit_file's words by default). */
export interface MissTerms {
  subject: string;
  notFound: string;
  widen: string;
}
const EDIT_FILE_TERMS: MissTerms = {
  subject: 'old_text',
  notFound: 'was not found',
  widen: 'add surrounding lines to make it unique, or set replace_all',
};

/** The model's error for a miss: short and bounded, naming where the text nearly is. */
export function describeMiss(
  file: string,
  miss: Exclude<LocateOutcome, { kind: 'replaced' }>,
  terms: MissTerms = EDIT_FILE_TERMS,
): string {
  if (miss.kind === 'ambiguous') {
    const lines = miss.candidates.map((c) => c.line).join(', ') + (miss.count > miss.candidates.length ? ', ...' : '');
    // An exact text needs no excerpt (the model wrote it); a lenient match shows what the file has there.
    if (miss.tier === 'exact')
      return `${terms.subject} occurs ${miss.count} times in ${file} (lines ${lines}); ${terms.widen}`;
    return (
      `${terms.subject} occurs ${miss.count} times in ${file} (lines ${lines}) when compared ${TIER_DESCRIPTIONS[miss.tier]}:\n` +
      `${renderCandidates(miss.candidates)}\n${terms.widen}`
    );
  }
  const tried = 'exactly, ignoring trailing whitespace, ignoring indentation, and with Unicode punctuation normalised';
  if (!miss.candidates.length)
    return `${terms.subject} ${terms.notFound} in ${file}; read the file again (compared ${tried}; nothing there is similar)`;
  return (
    `${terms.subject} ${terms.notFound} in ${file} (compared ${tried}). The nearest text:\n` +
    `${renderCandidates(miss.candidates)}\nread those lines again and copy the current text`
  );
}
