import leven from 'leven';
import { fitReplacement } from './fit-replacement';

/**
 * Where a model's search text is in a file, in tiers from strict to lenient (as Codex's seek_sequence does):
 * exact; then whole lines ignoring trailing whitespace; then ignoring indentation; then with Unicode
 * punctuation normalised. A tier counts only when its match is unique (or every match is wanted); an ambiguous
 * tier stops the search, because a more lenient tier would only find more. A miss names the nearest
 * candidates, a few, with their line numbers: never hundreds. What a lenient tier writes follows the file
 * (fit-replacement.ts), or nothing is written when that cannot be known.
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
  /** Found through a lenient tier, but what to write there cannot be known (the reason says why). */
  | { kind: 'uncertain'; tier: MatchTier; firstLine: number; lines: number; reason: string }
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

type LineKey = (line: string) => string;

const LINE_TIERS: [MatchTier, LineKey][] = [
  ['trailing-whitespace', (l) => l.trimEnd()],
  ['indentation', (l) => l.trim()],
  ['unicode-punctuation', (l) => normalisePunctuation(l).trim()],
];

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
  // Whole lines: a search text ending in a newline replaces its lines' terminators too.
  const wholeLines = oldText.endsWith('\n');
  const needle = oldText.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const severalLines = !opts.exactOnly && (needle.length > 1 || newText.replace(/\r?\n$/, '').includes('\n'));

  /** `newText` (as the model wrote it for `model`, its search lines) in place of the file's lines from `i`. */
  const replaceLines = (updated: string, i: number, model: string[], replacement: string, content: LineKey) => {
    const last = i + needle.length - 1;
    const crlf = text[starts[last] + lines[last].length] === '\r';
    const end = wholeLines && last + 1 < starts.length ? starts[last + 1] : starts[last] + lines[last].length;
    // The new text as the file writes it there: its lines' indentation and trailing whitespace, not the model's.
    const fitted = fitReplacement(replacement, model, lines.slice(i, last + 1), lines, { content, firstLine: i + 1 });
    if (fitted.kind === 'uncertain') return fitted;
    return updated.slice(0, starts[i]) + (crlf ? fitted.text.replace(/\n/g, '\r\n') : fitted.text) + updated.slice(end);
  };

  // A match beginning in a line's indentation, where lines are written, is a line whose indentation the model
  // dropped. Dropped whole (the text begins at the line's first character, and the lines after it are exact):
  // the new text's first line goes where the file's is, unless it brings that indentation itself. Dropped in
  // part, or one line written as several: the line tiers find the line whole and place the new lines.
  const indentBefore = (i: number) => {
    const before = text.slice(text.lastIndexOf('\n', i - 1) + 1, i);
    return severalLines && /^[ \t]+$/.test(before) ? before : '';
  };
  const droppedWhole = needle.length > 1 && /^\S/.test(oldText);
  const exact: number[] = [];
  let partlyIndented: number | undefined;
  for (let i = text.indexOf(oldText); i >= 0; i = text.indexOf(oldText, i + 1)) {
    if (opts.wholeLines && i > 0 && text[i - 1] !== '\n') continue; // only a match starting a line
    if (indentBefore(i) && !droppedWhole) {
      partlyIndented ??= i;
      continue;
    }
    if (exact.length && i < exact[exact.length - 1] + oldText.length) continue; // overlapping the previous one
    exact.push(i);
  }
  if (exact.length === 1 || (exact.length > 1 && opts.replaceAll)) {
    let updated = text;
    for (const i of [...exact].reverse()) {
      const indent = indentBefore(i);
      const end = i + oldText.length;
      const endsLine = wholeLines || end === text.length || /^\r?\n/.test(text.slice(end, end + 2));
      if (!indent) updated = updated.slice(0, i) + newText + updated.slice(end);
      else if (!endsLine) {
        const replacement = newText.startsWith(indent) ? newText : indent + newText;
        updated = updated.slice(0, i - indent.length) + replacement + updated.slice(end);
      } else {
        // Its other lines are exact: the fit gives the first line its indentation back, and never refuses
        const fitted = replaceLines(updated, lineOfOffset(text, i) - 1, needle, newText, (l) => l.trim());
        if (typeof fitted !== 'string') throw new Error(`an exact match was refused: ${fitted.reason}`);
        updated = fitted;
      }
    }
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

  for (const [tier, key] of opts.exactOnly ? [] : LINE_TIERS) {
    const at = lineMatches(lines, needle, key);
    if (!at.length) continue;
    if (at.length > 1 && !opts.replaceAll)
      return { kind: 'ambiguous', tier, count: at.length, candidates: matchCandidates(lines, at) };
    let updated = text;
    for (const i of [...at].reverse()) {
      const fitted = replaceLines(updated, i, needle, newText, (l) => key(l).trim());
      if (typeof fitted !== 'string')
        return { kind: 'uncertain', tier, firstLine: i + 1, lines: needle.length, reason: fitted.reason };
      updated = fitted;
    }
    return { kind: 'replaced', text: updated, tier, count: at.length, firstLine: at[0] + 1 };
  }
  if (partlyIndented !== undefined)
    return {
      kind: 'uncertain',
      tier: 'exact',
      firstLine: lineOfOffset(text, partlyIndented),
      lines: needle.length,
      reason: "it begins inside a line's indentation and ends inside another line, so the new lines' place is unknown",
    };
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
  /** The new text's name. */
  replacement: string;
  notFound: string;
  widen: string;
}
const EDIT_FILE_TERMS: MissTerms = {
  subject: 'old_text',
  replacement: 'new_text',
  notFound: 'was not found',
  widen: 'add surrounding lines to make it unique, or set replace_all',
};

/** The model's error for a miss: short and bounded, naming where the text nearly is (or is, and what to resend). */
export function describeMiss(
  file: string,
  miss: Exclude<LocateOutcome, { kind: 'replaced' }>,
  terms: MissTerms = EDIT_FILE_TERMS,
): string {
  if (miss.kind === 'uncertain') {
    const at = miss.lines > 1 ? `lines ${miss.firstLine}-${miss.firstLine + miss.lines - 1}` : `line ${miss.firstLine}`;
    return (
      `${terms.subject} matches ${file} at ${at} ${TIER_DESCRIPTIONS[miss.tier]}, but ${miss.reason}; nothing was ` +
      `written. Read ${at} again and send ${terms.subject} with the file's exact indentation there, and ` +
      `${terms.replacement} indented the same way`
    );
  }
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
