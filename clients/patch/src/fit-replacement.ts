/**
 * The replacement for a search text found through a lenient tier, written as the file has its text there.
 *
 * A model's search text drifts from the file line by line (a trailing space, a line's indentation a few
 * columns off, tabs for spaces, the whole block dedented), and its new text carries the same drift. So:
 * - a line of the new text that is a line of the search text (same content, indented as the model wrote it
 *   there or as the file has it) is the file's line, as it is;
 * - every other line (added or changed) is re-based by the one offset between the model's indentation and the
 *   file's at that place, in the file's indentation character (tabs stay tabs), and loses trailing whitespace
 *   unless the file has some there and the model copied it faithfully.
 * A first line the model began at its first character, the others copied with their indentation, is taken
 * to have lost the file's indentation alone, and the new text's first line with it.
 * The offset is the one the matched lines agree on: all of them (three at least), or most (two at least), or the
 * only one, where it is a whole level of the file's indentation (unless the file's lines there are continuation
 * lines, off its levels themselves). When the lines do not show one offset and the new lines' depth depends on
 * which is believed, nothing is written: the model is told why and what to send.
 */
export type Fitted = { kind: 'fitted'; text: string } | { kind: 'uncertain'; reason: string };

interface IndentMap {
  /** Columns a tab stands for, on both sides. */
  tabWidth: number;
  /** File column minus model column. */
  offset: number;
  /** Whether the file indents with tabs at that place. */
  tabs: boolean;
}

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];
const columns = (indent: string, tabWidth: number) =>
  [...indent].reduce((c, ch) => c + (ch === '\t' ? tabWidth : 1), 0);
const blank = (l: string) => l.trim() === '';
const trailingOf = (l: string) => /[ \t]*$/.exec(l)![0];

/**
 * The most common step from a line to a deeper next one, among lines indented with spaces only, over texts
 * each read on its own; undefined when no step is seen `atLeast` times, or two are as common. A step of one
 * column is alignment (a doc comment's star), no level.
 */
function spaceStep(atLeast: number, ...texts: string[][]): number | undefined {
  const steps = new Map<number, number>();
  for (const lines of texts) {
    let previous: number | undefined;
    for (const l of lines) {
      if (blank(l)) continue;
      const indent = indentOf(l);
      const width = indent.includes('\t') ? undefined : indent.length;
      if (width !== undefined && previous !== undefined && width > previous + 1)
        steps.set(width - previous, (steps.get(width - previous) ?? 0) + 1);
      previous = width;
    }
  }
  const [first, second] = [...steps].sort((x, y) => y[1] - x[1]);
  return first && first[1] >= atLeast && first[1] !== second?.[1] ? first[0] : undefined;
}

/** Whether the file indents with tabs where it was matched (else, where nothing there is indented, mostly). */
function fileUsesTabs(matched: string[], file: string[]): boolean {
  const indents = matched.filter((l) => !blank(l)).map(indentOf);
  if (indents.some((i) => i.includes('\t'))) return true;
  if (indents.some((i) => i.length > 0)) return false;
  const tabbed = file.filter((l) => l.startsWith('\t')).length;
  return tabbed > file.filter((l) => l.startsWith(' ') && !blank(l)).length;
}

function render(column: number, map: IndentMap): string {
  if (!map.tabs) return ' '.repeat(column);
  return '\t'.repeat(Math.floor(column / map.tabWidth)) + ' '.repeat(column % map.tabWidth);
}

/** Pairs (new line, search line) of the longest alignment where `same` holds, in order. */
function align(a: string[], b: string[], same: (i: number, j: number) => boolean): [number, number][] {
  let head = 0;
  while (head < a.length && head < b.length && same(head, head)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && same(a.length - 1 - tail, b.length - 1 - tail)) tail++;
  const pairs: [number, number][] = Array.from({ length: head }, (_, i) => [i, i]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  // The middle by longest common subsequence: a few lines in an edit, so the table stays small.
  const lcs = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = same(head + i, head + j) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (same(head + i, head + j) && lcs[i][j] === lcs[i + 1][j + 1] + 1) pairs.push([head + i++, head + j++]);
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/**
 * `newLines` written with `map` (identity: the model's indentation is the file's; null: no offset is known):
 * each line of the search text it repeats as the file has it, the others re-based. A line repeats a search
 * line with the same content indented as the model wrote it there (or as `cut` says it did), or as the file
 * has it. Undefined when a line cannot be placed (left of column 0, or no offset known).
 */
function write(
  newLines: string[],
  needle: string[],
  matched: string[],
  content: (l: string) => string,
  map: IndentMap | 'identity' | null,
  keepTrailing: boolean,
  cut: (string | undefined)[],
): string[] | undefined {
  const rebase = (indent: string): string | undefined => {
    if (map === 'identity') return indent;
    if (map === null) return undefined;
    const column = columns(indent, map.tabWidth) + map.offset;
    return column < 0 ? undefined : render(column, map);
  };
  const same = (i: number, j: number) => {
    const n = newLines[i];
    const o = needle[j];
    if (blank(n) || blank(o)) return blank(n) && blank(o);
    const indent = indentOf(n);
    return (
      content(n) === content(o) &&
      (indent === indentOf(o) || indent === cut[j] || rebase(indent) === indentOf(matched[j]))
    );
  };
  const out: (string | undefined)[] = newLines.map((l) => {
    if (blank(l)) return '';
    const indent = indentOf(l);
    const to = rebase(indent);
    const body = l.slice(indent.length);
    return to === undefined ? undefined : to + (keepTrailing ? body : body.trimEnd());
  });
  for (const [i, j] of align(newLines, needle, same)) out[i] = matched[j];
  return out.every((l) => l !== undefined) ? (out as string[]) : undefined;
}

function describeOffsets(needle: string[], matched: string[], firstLine: number, tabWidth: number): string {
  const parts: string[] = [];
  needle.forEach((l, j) => {
    if (blank(l) || parts.length >= 3) return;
    const d = columns(indentOf(matched[j]), tabWidth) - columns(indentOf(l), tabWidth);
    const by = `${Math.abs(d)} column${Math.abs(d) > 1 ? 's' : ''} ${d > 0 ? 'less' : 'more'} than the file`;
    parts.push(`line ${firstLine + j}: ${d === 0 ? 'as the file' : by}`);
  });
  return parts.join(', ');
}

/**
 * `newText` fitted to the file at the matched lines. `needle` is the model's search text as lines, `matched`
 * the file's lines it was matched with (as many), `file` all the file's lines, `firstLine` the 1-based line of
 * the match; `content` is a line as the tier compared it (trimmed, punctuation normalised).
 */
export function fitReplacement(
  newText: string,
  needle: string[],
  matched: string[],
  file: string[],
  opts: { content: (l: string) => string; firstLine: number },
): Fitted {
  const { content } = opts;
  const normalised = newText.replace(/\r\n/g, '\n');
  const ending = normalised.endsWith('\n') ? '\n' : '';
  const newLines = normalised.slice(0, normalised.length - ending.length).split('\n');
  // A first line the model began at its first character (copying from there), its other lines indented as the
  // file's, lost the file's indentation on its own: the new text's first line lost it too, unless it brings it.
  const lost = indentOf(matched[0]);
  const cut: (string | undefined)[] = [];
  const others = needle.map((l, j) => [l, matched[j]] as const).filter(([l], j) => j > 0 && !blank(l));
  if (
    lost &&
    !blank(needle[0]) &&
    !indentOf(needle[0]) &&
    others.length &&
    others.every(([l, f]) => indentOf(f) === indentOf(l))
  ) {
    needle = [lost + needle[0], ...needle.slice(1)];
    if (!blank(newLines[0]) && !newLines[0].startsWith(lost)) newLines[0] = lost + newLines[0];
    cut[0] = ''; // a copy of that line is that line, wherever it comes in the new text
  }
  const pairs = needle.map((l, j) => [l, matched[j]] as const).filter(([l]) => !blank(l));
  const keepTrailing =
    pairs.some(([, f]) => trailingOf(f) !== '') && pairs.every(([l, f]) => trailingOf(l) === trailingOf(f));
  const fitted = (lines: string[]): Fitted => ({ kind: 'fitted', text: lines.join('\n') + ending });
  const uncertain = (why: string): Fitted => ({ kind: 'uncertain', reason: why });

  if (pairs.every(([l, f]) => indentOf(l) === indentOf(f))) {
    return fitted(write(newLines, needle, matched, content, 'identity', keepTrailing, cut)!);
  }

  const tabs = fileUsesTabs(matched, file);
  const modelLines = [...needle, ...newLines];
  const anyTab = tabs || modelLines.some((l) => indentOf(l).includes('\t'));
  const modelStep = spaceStep(1, needle, newLines);
  const fileStep = tabs ? undefined : spaceStep(1, file);
  // What a tab stands for, when one is on either side: a level. A model's tab in a space file is the file's
  // step; in a tab file, 2 or 4 as the lines show, else the model's own step (a few lines: a weaker sign).
  const widths = !anyTab ? [4] : !tabs && fileStep !== undefined && fileStep <= 8 ? [fileStep] : [2, 4];
  const candidates: { map: IndentMap; support: number }[] = [];
  for (const tabWidth of widths) {
    const counts = new Map<number, number>();
    for (const [l, f] of pairs) {
      const d = columns(indentOf(f), tabWidth) - columns(indentOf(l), tabWidth);
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
    for (const [offset, support] of counts) candidates.push({ map: { tabWidth, offset, tabs }, support });
  }
  const best = Math.max(...candidates.map((c) => c.support));
  let chosen = candidates.filter((c) => c.support === best);
  // Believed: the offset three lines or more all agree on; else the one most of them (two at least) agree on,
  // or the only line's, when it is a whole level of the file's indentation where the file's lines there are on
  // whole levels (else they are continuation lines, aligned as they are).
  const unit = (m: IndentMap) => (tabs ? m.tabWidth : (fileStep ?? 1));
  const fileIndents = pairs.map(([, f]) => indentOf(f));
  const onLevels = (m: IndentMap) => fileIndents.every((i) => columns(i, m.tabWidth) % unit(m) === 0);
  if (best < 2 && pairs.length > 1) chosen = [];
  if (best < pairs.length || pairs.length < 3)
    chosen = chosen.filter((c) => !onLevels(c.map) || c.map.offset % unit(c.map) === 0);
  if (tabs && chosen.some((c) => c.map.tabWidth === modelStep))
    chosen = chosen.filter((c) => c.map.tabWidth === modelStep);
  // Where no line needs the offset (each is the file's, or blank), an unknown one does no harm.
  const known = write(newLines, needle, matched, content, null, keepTrailing, cut);
  if (known) return fitted(known);
  const outputs = chosen.map((c) => write(newLines, needle, matched, content, c.map, keepTrailing, cut));
  const distinct = new Set(outputs.map((o) => o?.join('\n')));
  if (distinct.size === 1 && outputs[0]) return fitted(outputs[0]);
  if (distinct.size === 1 && outputs.length)
    return uncertain(
      'some new lines are indented less than re-basing them to the file allows (they would start left of its margin)',
    );
  const offsets = describeOffsets(needle, matched, opts.firstLine, chosen[0]?.map.tabWidth ?? widths[0]);
  if (new Set(chosen.map((c) => c.map.tabWidth)).size > 1)
    return uncertain(
      `its tabs and spaces do not show how wide a tab is (${offsets}), so the new lines' depth is unknown`,
    );
  if (!chosen.length && best === pairs.length) {
    const step = tabs ? 'a tab' : `${fileStep} spaces`;
    return uncertain(
      `${pairs.length === 1 ? 'its line is' : 'its lines are all'} indented off the file's by part of its ` +
        `indentation level of ${step} (${offsets}), so the new lines' depth is unknown`,
    );
  }
  return uncertain(
    `its lines are indented unlike the file's by different amounts (${offsets}), so the new lines' depth is unknown`,
  );
}
