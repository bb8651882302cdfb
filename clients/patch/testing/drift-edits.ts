/**
 * Replays real commits' hunks as a model's search/replace edits whose search text drifted the way models drift
 * it, line by line: a trailing space, a line's indentation off by a few spaces, tabs for spaces or spaces for
 * tabs, a blank line with spaces, the whole block dedented or written with the other indentation character.
 * Seeded and deterministic. Each edit is judged against the real commit: it landed when the file is byte for
 * byte what the commit made of it, was refused when the edit wrote nothing (the model then resends the text
 * exactly), and was damaged when it wrote something else.
 */
import { replaceInTiers, type LocateOutcome } from '../src/locate-text';
import type { RealHunks } from './real-hunks';

export interface DriftProfile {
  name: string;
  /** Chance the whole block (search and new text alike) is dedented: by all its common indentation or a part. */
  dedent: number;
  /** Chance the whole block is written with spaces for its tabs (2 or 4 a tab), or tabs for its spaces. */
  swapIndentation: number;
  /** Chance each line of the search text drifts on its own (trailing whitespace, indentation off, tab/spaces). */
  perLine: number;
  /** The most spaces a line's indentation is off by. */
  maxShift: number;
  /** Chance a line of context in the new text repeats its drift in the search text (else it is written clean). */
  repeatInNew: number;
  /** Chance a line the model adds ends with trailing whitespace. */
  addedTrailing: number;
}

/** What models send every day: a line in four drifts, often the block dedented. */
export const EVERYDAY_DRIFT: DriftProfile = {
  name: 'per-line',
  dedent: 0.5,
  swapIndentation: 0.25,
  perLine: 0.25,
  maxShift: 3,
  repeatInNew: 0.5,
  addedTrailing: 0.1,
};

/** Worse than models usually are: half the lines drift, by up to 8 columns, and added lines carry spaces too. */
export const HARSH_DRIFT: DriftProfile = {
  name: 'harsh',
  dedent: 0.7,
  swapIndentation: 0.5,
  perLine: 0.5,
  maxShift: 8,
  repeatInNew: 0.5,
  addedTrailing: 0.3,
};

/** No drift: the search text as the file has it (the reference). */
export const NO_DRIFT: DriftProfile = {
  name: 'exact',
  dedent: 0,
  swapIndentation: 0,
  perLine: 0,
  maxShift: 0,
  repeatInNew: 0,
  addedTrailing: 0,
};

/** mulberry32: small, fast, and the same numbers for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One edit as lines: context above, the lines it removes, the lines it adds, context below. */
interface EditLines {
  above: string[];
  removed: string[];
  added: string[];
  below: string[];
}

export interface ModelEdit {
  old_text: string;
  new_text: string;
}

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];

/** The hunks of `before` -> `after`, top to bottom, as line ranges of the file as it is when each comes. */
function hunksOf(before: string[], after: string[]): { at: number; removed: number; added: string[] }[] {
  // Longest common subsequence of lines: real hunks are small and excerpts short, so the table stays small.
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = before[i] === after[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const hunks: { at: number; removed: number; added: string[] }[] = [];
  let i = 0;
  let j = 0;
  let shift = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      i++;
      j++;
      continue;
    }
    const start = i;
    const added: string[] = [];
    while ((i < n || j < m) && !(i < n && j < m && before[i] === after[j])) {
      if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) i++;
      else added.push(after[j++]);
    }
    hunks.push({ at: start + shift, removed: i - start, added });
    shift += added.length - (i - start);
  }
  return hunks;
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

interface ExactEdit {
  lines: EditLines;
  /** Whether the search text ends with a line break (models send both). */
  endsLine: boolean;
  /** The file before the edit and after it, as the commit has it. */
  before: string;
  after: string;
}

/** The commit's hunks as exact edits with 1 to 3 lines of context (more when needed to be unique). */
function exactEdits(c: RealHunks, random: () => number): ExactEdit[] {
  const lines = c.before.split('\n').slice(0, -1);
  const edits: ExactEdit[] = [];
  for (const h of hunksOf(lines, c.after.split('\n').slice(0, -1))) {
    const before = lines.join('\n') + '\n';
    const block = (k: number): EditLines => ({
      above: lines.slice(Math.max(0, h.at - k), h.at),
      removed: lines.slice(h.at, h.at + h.removed),
      added: h.added,
      below: lines.slice(h.at + h.removed, h.at + h.removed + k),
    });
    const endsLine = random() < 0.3;
    const search = (b: EditLines) => [...b.above, ...b.removed, ...b.below].join('\n') + (endsLine ? '\n' : '');
    let k = 1 + Math.floor(random() * 3);
    while (occurrences(before, search(block(k))) !== 1 || !search(block(k)).trim()) {
      if (h.at - k <= 0 && h.at + h.removed + k >= lines.length) throw new Error(`${c.id}: no unique search text`);
      k++;
    }
    const edit = block(k);
    lines.splice(h.at, h.removed, ...h.added);
    edits.push({ lines: edit, endsLine, before, after: lines.join('\n') + '\n' });
  }
  if (edits[edits.length - 1]?.after !== c.after) throw new Error(`${c.id}: the hunks do not make the commit`);
  return edits;
}

const join = (ls: string[], endsLine: boolean) => ls.join('\n') + (endsLine ? '\n' : '');

const pick = <T>(random: () => number, xs: T[]): T => xs[Math.floor(random() * xs.length)];

/** The file's indentation level in spaces: its most common step deeper, one column aside (4 when none). */
function levelOf(lines: string[]): number {
  const steps = new Map<number, number>();
  const widths = lines.filter((l) => l.trim() && !indentOf(l).includes('\t')).map((l) => indentOf(l).length);
  widths.forEach((w, i) => {
    if (i && w > widths[i - 1] + 1) steps.set(w - widths[i - 1], (steps.get(w - widths[i - 1]) ?? 0) + 1);
  });
  return [...steps].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0]?.[0] ?? 4;
}

/**
 * The edit as a model drifting by `profile` writes it. The block's drift (dedented, the other indentation
 * character) is the model's frame: its search and new text alike. A line's own drift is in the search text,
 * and in the new text's copy of that line or not. A search text with one line has no line drift of its own
 * (its drift is the block's): only trailing whitespace.
 */
export function driftEdit(
  e: EditLines,
  endsLine: boolean,
  level: number,
  profile: DriftProfile,
  random: () => number,
): ModelEdit {
  const all = [...e.above, ...e.removed, ...e.added, ...e.below].filter((l) => l.trim());
  const search = [...e.above, ...e.removed, ...e.below];
  let frame = (l: string) => l;
  const common = all.map(indentOf).reduce(
    (a, b) => {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      return a.slice(0, i);
    },
    indentOf(all[0] ?? ''),
  );
  if (common && random() < profile.dedent) {
    // All the common indentation, or whole levels of it
    const unit = common.startsWith('\t') ? 1 : level;
    const levels = Math.floor(common.length / unit);
    const cut = random() < 0.6 || levels < 2 ? common.length : unit * (1 + Math.floor(random() * (levels - 1)));
    frame = (l) => (l.trim() ? l.slice(cut) : '');
  }
  if (random() < profile.swapIndentation) {
    const tabs = all.some((l) => l.startsWith('\t'));
    const width = pick(random, [2, 4]);
    const dedented = frame;
    frame = (l) =>
      dedented(l).replace(/^[ \t]*/, (ws) =>
        tabs ? ws.replace(/\t/g, ' '.repeat(width)) : ws.replace(new RegExp(` {${level}}`, 'g'), '\t'),
      );
  }
  // A frame the search text does not show (its lines unindented) is no drift anyone could see: none then.
  if (search.every((l) => !l.trim() || frame(l) === l)) frame = (l) => l;
  const ownDrift = search.filter((l) => l.trim()).length >= 2;
  const shifted = (l: string): string => {
    const indent = indentOf(l);
    const body = l.slice(indent.length);
    const kind = ownDrift ? pick(random, ['trailing', 'shift', 'shift', 'swap']) : 'trailing';
    if (kind === 'trailing' || !body) return l + pick(random, [' ', '  ', '\t', '    ']);
    if (kind === 'swap' && indent)
      return (
        (indent.includes('\t')
          ? indent.replace(/\t/g, ' '.repeat(pick(random, [2, 4])))
          : indent.replace(new RegExp(` {${level}}`, 'g'), '\t')) + body
      );
    // Off by a few spaces: more, or fewer where the line has spaces to lose
    const by = 1 + Math.floor(random() * Math.max(1, profile.maxShift));
    const spaces = /( *)$/.exec(indent)![1].length;
    if (random() < 0.5 && spaces) return indent.slice(0, indent.length - Math.min(by, spaces)) + body;
    return indent + ' '.repeat(by) + body;
  };
  const perLine = (l: string): string => {
    if (random() >= profile.perLine) return frame(l);
    if (!l.trim()) return l ? '' : ' '.repeat(1 + Math.floor(random() * 8));
    const drifted = shifted(frame(l));
    // A line's drift undoing the block's (tabs back to spaces) would show the file's text: that line kept framed
    return drifted === l && frame(l) !== l ? frame(l) : drifted;
  };
  const above = e.above.map((l) => ({ clean: frame(l), drifted: perLine(l) }));
  const removed = e.removed.map(perLine);
  const below = e.below.map((l) => ({ clean: frame(l), drifted: perLine(l) }));
  const inNew = (c: { clean: string; drifted: string }) => (random() < profile.repeatInNew ? c.drifted : c.clean);
  const oldText = join([...above.map((c) => c.drifted), ...removed, ...below.map((c) => c.drifted)], endsLine);
  // A model whose search text drifted writes the lines it adds as loosely: trailing whitespace on some.
  const sloppy = oldText !== join(search, endsLine);
  const added = e.added.map((l) =>
    sloppy && l.trim() && random() < profile.addedTrailing ? frame(l) + pick(random, [' ', '  ']) : frame(l),
  );
  return { old_text: oldText, new_text: join([...above.map(inNew), ...added, ...below.map(inNew)], endsLine) };
}

export interface DriftedEdit {
  /** The model's edit_file arguments (old_text and new_text), drifted. */
  edit: ModelEdit;
  /** The file before the edit, and after it as the commit has it. */
  before: string;
  after: string;
}

/** The commit's hunks, top to bottom, as a model drifting by `profile` writes them (the same for a seed). */
export function driftedEdits(c: RealHunks, profile: DriftProfile, seed: number): DriftedEdit[] {
  const random = seededRandom(seed);
  const level = levelOf(c.before.split('\n'));
  return exactEdits(c, random).map(({ lines, endsLine, before, after }) => ({
    edit: driftEdit(lines, endsLine, level, profile, random),
    before,
    after,
  }));
}

export type EditVerdict = 'landed' | 'refused' | 'damaged';

/** Landed: the file is byte for byte the commit's; refused: nothing was written; damaged: something else. */
export const verdictOf = (written: string | null, after: string): EditVerdict =>
  written === null ? 'refused' : written === after ? 'landed' : 'damaged';

export interface ReplayedEdit {
  verdict: EditVerdict;
  /** How the matcher answered: the tier it matched at, or why it wrote nothing. */
  outcome: LocateOutcome;
  edit: ModelEdit;
  /** The file as the commit makes it with this edit, and as the matcher wrote it (null: nothing written). */
  expected: string;
  written: string | null;
}

export interface ReplayedCommit {
  id: string;
  edits: ReplayedEdit[];
}

/**
 * The commit's hunks as drifted edits through edit_file's matcher. Each edit is judged on its own, from the file
 * as the commit has it at that point (a careful model resends a refused edit exactly; a damaged file would be
 * judged by the checks instead).
 */
export function replayDrifted(c: RealHunks, profile: DriftProfile, seed: number): ReplayedCommit {
  return {
    id: c.id,
    edits: driftedEdits(c, profile, seed).map(({ edit, before, after }) => {
      const outcome = replaceInTiers(before, edit.old_text, edit.new_text);
      const written = outcome.kind === 'replaced' ? outcome.text : null;
      return { verdict: verdictOf(written, after), outcome, edit, expected: after, written };
    }),
  };
}

/** Counts of a set of replays: edits by verdict, and commits whose every edit landed. */
export function tally(
  replays: { edits: { verdict: EditVerdict }[] }[],
): Record<EditVerdict, number> & { commitsLanded: number } {
  const edits = replays.flatMap((r) => r.edits);
  const count = (v: EditVerdict) => edits.filter((e) => e.verdict === v).length;
  return {
    landed: count('landed'),
    refused: count('refused'),
    damaged: count('damaged'),
    commitsLanded: replays.filter((r) => r.edits.every((e) => e.verdict === 'landed')).length,
  };
}
