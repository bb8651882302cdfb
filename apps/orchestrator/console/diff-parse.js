// A unified diff read into files, hunks and numbered lines, for the console's diff review. Pure (no DOM, no
// imports), so the unit lane tests it as it is (src/console-diff-parse.test.ts). It reads what the farm's agents
// report (jsdiff's `--- a/f` / `+++ b/f` / `@@` form) and git's (`diff --git`, modes, renames, binary files),
// and it never throws: a diff cut short (the report keeps 64,000 characters) ends where it ends, and a line it
// cannot place is kept as a note.

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/** `a/x` or `b/x` as `x`; `/dev/null` as undefined; a git-quoted name unquoted. */
function pathOf(name) {
  let n = name.replace(/\t.*$/, '');
  if (/^".*"$/.test(n)) {
    try {
      n = JSON.parse(n);
    } catch {
      n = n.slice(1, -1);
    }
  }
  if (n === '/dev/null') return undefined;
  return n.replace(/^[ab]\//, '');
}

function newFile() {
  return {
    oldPath: undefined,
    newPath: undefined,
    path: '',
    status: 'modified',
    binary: false,
    additions: 0,
    deletions: 0,
    hunks: [],
    notes: [],
  };
}

/** The file's name and status once its headers are read. */
function settle(file) {
  if (file.oldPath === undefined && file.newPath !== undefined && file.status === 'modified') file.status = 'added';
  if (file.newPath === undefined && file.oldPath !== undefined && file.status === 'modified') file.status = 'deleted';
  if (file.oldPath !== undefined && file.newPath !== undefined && file.oldPath !== file.newPath)
    file.status = 'renamed';
  file.path = file.newPath ?? file.oldPath ?? '';
}

/**
 * The files of unified diff `text`, in order: { path, oldPath, newPath, status (added, deleted, modified,
 * renamed), binary, additions, deletions, hunks, notes }. A hunk is { header, section, oldStart, oldLines,
 * newStart, newLines, lines }; a line { kind: 'context' | 'add' | 'del' | 'note', text (without its +/-/space),
 * oldLine?, newLine? } (a note: `\ No newline at end of file`). `notes` holds what stood outside any hunk
 * (a cut marker). Returns { files, notes } (notes: lines before the first file).
 */
export function parseUnifiedDiff(text) {
  const files = [];
  const notes = [];
  if (!text) return { files, notes };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let file;
  let hunk;
  let oldLeft = 0;
  let newLeft = 0;
  let oldNo = 0;
  let newNo = 0;
  const start = () => {
    if (file) settle(file);
    file = newFile();
    files.push(file);
    hunk = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Inside a hunk, its counts decide: a removed line "-- x" reads "--- x", and is still a removed line.
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const mark = line[0];
      if (mark === ' ' || line === '') {
        hunk.lines.push({ kind: 'context', text: line.slice(1), oldLine: oldNo++, newLine: newNo++ });
        oldLeft--;
        newLeft--;
        continue;
      }
      if (mark === '-' && oldLeft > 0) {
        hunk.lines.push({ kind: 'del', text: line.slice(1), oldLine: oldNo++ });
        file.deletions++;
        oldLeft--;
        continue;
      }
      if (mark === '+' && newLeft > 0) {
        hunk.lines.push({ kind: 'add', text: line.slice(1), newLine: newNo++ });
        file.additions++;
        newLeft--;
        continue;
      }
      if (mark === '\\') {
        hunk.lines.push({ kind: 'note', text: line.slice(1).trim() });
        continue;
      }
      // Not a hunk line: the hunk's counts were wrong (a hand-made diff); read on as headers.
      oldLeft = newLeft = 0;
    }
    if (hunk && line.startsWith('\\')) {
      hunk.lines.push({ kind: 'note', text: line.slice(1).trim() });
      continue;
    }
    if (line.startsWith('diff --git ')) {
      start();
      const m = /^diff --git (?:"?a\/(.+?)"? "?b\/(.+?)"?|(\S+) (\S+))$/.exec(line);
      if (m) {
        file.oldPath = m[1] ?? m[3];
        file.newPath = m[2] ?? m[4];
      }
      continue;
    }
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      // jsdiff's form has no `diff --git` line: `---` starts the file, unless git's header already did.
      if (!file || file.hunks.length || file.headersRead) start();
      file.oldPath = pathOf(line.slice(4));
      file.newPath = pathOf(lines[i + 1].slice(4));
      file.headersRead = true;
      i++;
      continue;
    }
    const h = HUNK.exec(line);
    if (h && file) {
      hunk = {
        header: line,
        section: h[5] ?? '',
        oldStart: Number(h[1]),
        oldLines: h[2] === undefined ? 1 : Number(h[2]),
        newStart: Number(h[3]),
        newLines: h[4] === undefined ? 1 : Number(h[4]),
        lines: [],
      };
      oldLeft = hunk.oldLines;
      newLeft = hunk.newLines;
      oldNo = hunk.oldStart;
      newNo = hunk.newStart;
      file.hunks.push(hunk);
      continue;
    }
    if (file && !file.hunks.length && !file.headersRead) {
      // git's extended headers, between `diff --git` and `---`.
      if (line.startsWith('new file mode')) file.status = 'added';
      else if (line.startsWith('deleted file mode')) file.status = 'deleted';
      else if (line.startsWith('rename from ')) file.oldPath = line.slice(12);
      else if (line.startsWith('rename to ')) file.newPath = line.slice(10);
      else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
      else if (!/^(index |old mode|new mode|similarity index|dissimilarity index|copy from|copy to)/.test(line))
        file.notes.push(line);
      continue;
    }
    (file ? file.notes : notes).push(line);
  }
  if (file) settle(file);
  for (const f of files) {
    if (f.status === 'added') f.oldPath = undefined;
    if (f.status === 'deleted') f.newPath = undefined;
    delete f.headersRead;
  }
  return { files, notes };
}

/**
 * A hunk's lines as side-by-side rows { left?, right? }: context on both sides; a run of removed lines beside
 * the run of added lines that follows it (row by row, the longer run's rest alone on its side); a note across.
 */
export function sideBySide(hunk) {
  const rows = [];
  let dels = [];
  let adds = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) rows.push({ left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const line of hunk.lines) {
    if (line.kind === 'del') {
      if (adds.length) flush();
      dels.push(line);
    } else if (line.kind === 'add') adds.push(line);
    else {
      flush();
      rows.push(line.kind === 'note' ? { note: line } : { left: line, right: line });
    }
  }
  flush();
  return rows;
}

/** Totals over the files: { files, additions, deletions }. */
export function diffStats(files) {
  return files.reduce(
    (t, f) => ({ files: t.files + 1, additions: t.additions + f.additions, deletions: t.deletions + f.deletions }),
    { files: 0, additions: 0, deletions: 0 },
  );
}

/**
 * A line diff of two texts (an edit's old and new text): [{ kind: 'context' | 'del' | 'add', text }], by the
 * longest common subsequence of their lines; past `max` cells of the table (large texts) the old text removed
 * and the new added, which is what the edit did anyway.
 */
export function lineDiff(before, after, max = 250_000) {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  // Common head and tail first: most edits change a few lines in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const middle = [];
  if (x.length * y.length > max) {
    middle.push(...x.map((text) => ({ kind: 'del', text })), ...y.map((text) => ({ kind: 'add', text })));
  } else {
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
    const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        middle.push({ kind: 'context', text: x[i] });
        i++;
        j++;
      } else if (j < y.length && (i === x.length || lcs[i][j + 1] > lcs[i + 1][j])) {
        middle.push({ kind: 'add', text: y[j++] });
      } else {
        middle.push({ kind: 'del', text: x[i++] });
      }
    }
  }
  return [
    ...a.slice(0, head).map((text) => ({ kind: 'context', text })),
    ...middle,
    ...b.slice(b.length - tail).map((text) => ({ kind: 'context', text })),
  ];
}
