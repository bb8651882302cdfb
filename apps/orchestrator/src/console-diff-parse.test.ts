// The console's diff parser (console/diff-parse.js, a plain browser module without imports), in the unit lane.
import { diffStats, lineDiff, parseUnifiedDiff, sideBySide } from '../console/diff-parse.js';

// As the agents report a change (jsdiff's formatPatch with file headers only; see coding-agent's tree-diff.ts).
const AGENT_DIFF = [
  '--- a/src/calc.js',
  '+++ b/src/calc.js',
  '@@ -1,4 +1,7 @@',
  ' function add(a, b) {',
  '   return a + b;',
  ' }',
  '-module.exports = { add };',
  '+function multiply(a, b) {',
  '+  return a * b;',
  '+}',
  '+module.exports = { add, multiply };',
  '--- /dev/null',
  '+++ b/test/multiply.test.js',
  '@@ -0,0 +1,2 @@',
  "+const { multiply } = require('../src/calc');",
  '+test("x", () => expect(multiply(2, 3)).toBe(6));',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1,1 +0,0 @@',
  '-gone',
  '',
].join('\n');

describe('parseUnifiedDiff', () => {
  test('files with their status, +/- counts and old and new line numbers', () => {
    const { files, notes } = parseUnifiedDiff(AGENT_DIFF);
    expect(notes).toEqual([]);
    expect(files.map((f) => [f.path, f.status, f.additions, f.deletions])).toEqual([
      ['src/calc.js', 'modified', 4, 1],
      ['test/multiply.test.js', 'added', 2, 0],
      ['old.txt', 'deleted', 0, 1],
    ]);
    const [calc] = files;
    expect(calc.hunks).toHaveLength(1);
    expect(calc.hunks[0]).toMatchObject({ oldStart: 1, oldLines: 4, newStart: 1, newLines: 7 });
    expect(calc.hunks[0].lines.map((l) => [l.kind, l.oldLine, l.newLine, l.text])).toEqual([
      ['context', 1, 1, 'function add(a, b) {'],
      ['context', 2, 2, '  return a + b;'],
      ['context', 3, 3, '}'],
      ['del', 4, undefined, 'module.exports = { add };'],
      ['add', undefined, 4, 'function multiply(a, b) {'],
      ['add', undefined, 5, '  return a * b;'],
      ['add', undefined, 6, '}'],
      ['add', undefined, 7, 'module.exports = { add, multiply };'],
    ]);
    expect(files[1]).toMatchObject({ oldPath: undefined, newPath: 'test/multiply.test.js' });
    expect(files[2]).toMatchObject({ oldPath: 'old.txt', newPath: undefined });
    expect(diffStats(files)).toEqual({ files: 3, additions: 6, deletions: 2 });
  });

  test("git's form: extended headers, renames, binary files, no-newline markers, several hunks", () => {
    const git = [
      'diff --git a/lib/a.py b/lib/a.py',
      'index 83db48f..bf269f4 100644',
      '--- a/lib/a.py',
      '+++ b/lib/a.py',
      '@@ -1,2 +1,2 @@ def top():',
      ' x = 1',
      '-y = 2',
      '\\ No newline at end of file',
      '+y = 3',
      '\\ No newline at end of file',
      '@@ -10 +10,2 @@',
      ' z',
      '+w',
      'diff --git a/old name.txt b/new name.txt',
      'similarity index 90%',
      'rename from old name.txt',
      'rename to new name.txt',
      'diff --git a/logo.png b/logo.png',
      'new file mode 100644',
      'index 0000000..e69de29',
      'Binary files /dev/null and b/logo.png differ',
      'diff --git a/empty b/empty',
      'deleted file mode 100644',
      'index e69de29..0000000',
    ].join('\n');
    const { files } = parseUnifiedDiff(git);
    expect(files.map((f) => [f.path, f.status, f.binary, f.additions, f.deletions])).toEqual([
      ['lib/a.py', 'modified', false, 2, 1],
      ['new name.txt', 'renamed', false, 0, 0],
      ['logo.png', 'added', true, 0, 0],
      ['empty', 'deleted', false, 0, 0],
    ]);
    expect(files[0].hunks.map((h) => [h.section, h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      ['def top():', 1, 2, 1, 2],
      ['', 10, 1, 10, 2],
    ]);
    expect(files[0].hunks[0].lines.map((l) => l.kind)).toEqual(['context', 'del', 'note', 'add', 'note']);
    expect(files[0].hunks[0].lines[2].text).toBe('No newline at end of file');
    expect(files[0].hunks[1].lines.map((l) => [l.oldLine, l.newLine])).toEqual([
      [10, 10],
      [undefined, 11],
    ]);
    expect(files[1]).toMatchObject({ oldPath: 'old name.txt', newPath: 'new name.txt' });
  });

  test('the counts decide inside a hunk: removing "-- a" and adding "++ b" is no file header', () => {
    const text = ['--- a/notes.md', '+++ b/notes.md', '@@ -1,2 +1,2 @@', '--- a', '+++ b', ' kept'].join('\n');
    const { files } = parseUnifiedDiff(text);
    expect(files).toHaveLength(1);
    expect(files[0].hunks[0].lines.map((l) => [l.kind, l.text])).toEqual([
      ['del', '-- a'],
      ['add', '++ b'],
      ['context', 'kept'],
    ]);
  });

  test('a diff cut short, or with lines no hunk holds, is read as far as it goes, never thrown on', () => {
    const cut = `${AGENT_DIFF.split('\n').slice(0, 6).join('\n')}\n[... diff cut at 60000 characters ...]\n`;
    const { files } = parseUnifiedDiff(cut);
    expect(files).toHaveLength(1);
    expect(files[0].hunks[0].lines).toHaveLength(3);
    expect(files[0].notes).toEqual(['[... diff cut at 60000 characters ...]']);
    expect(parseUnifiedDiff('')).toEqual({ files: [], notes: [] });
    expect(parseUnifiedDiff('not a diff\nat all')).toEqual({ files: [], notes: ['not a diff', 'at all'] });
    // Hostile text stays text: the parser keeps it as it is, for text nodes.
    const hostile = parseUnifiedDiff('--- a/x.html\n+++ b/x.html\n@@ -0,0 +1 @@\n+<script>alert(1)</script>\n');
    expect(hostile.files[0].hunks[0].lines[0].text).toBe('<script>alert(1)</script>');
  });
});

describe('sideBySide', () => {
  test('pairs each run of removed lines with the added run after it; context on both sides', () => {
    const { files } = parseUnifiedDiff(AGENT_DIFF);
    const rows = sideBySide(files[0].hunks[0]);
    expect(rows.map((r) => [r.left?.oldLine ?? null, r.right?.newLine ?? null])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [null, 5],
      [null, 6],
      [null, 7],
    ]);
    expect(rows[3].left?.kind).toBe('del');
    expect(rows[3].right?.kind).toBe('add');
  });

  test('a removal after additions starts a new pair; a note spans both sides', () => {
    const { files } = parseUnifiedDiff(
      ['--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', '+a', '-b', '-c', '\\ No newline at end of file', '+d'].join('\n'),
    );
    const rows = sideBySide(files[0].hunks[0]);
    expect(rows.map((r) => (r.note ? 'note' : `${r.left?.text ?? ''}|${r.right?.text ?? ''}`))).toEqual([
      '|a',
      'b|',
      'c|',
      'note',
      '|d',
    ]);
  });
});

describe('lineDiff', () => {
  test("an edit's old and new text as removed, added and kept lines", () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual([
      { kind: 'context', text: 'a' },
      { kind: 'del', text: 'b' },
      { kind: 'add', text: 'B' },
      { kind: 'context', text: 'c' },
      { kind: 'add', text: 'd' },
    ]);
    expect(lineDiff('', 'new')).toEqual([{ kind: 'add', text: 'new' }]);
    expect(lineDiff('x\ny', 'y\nx')).toEqual([
      { kind: 'del', text: 'x' },
      { kind: 'context', text: 'y' },
      { kind: 'add', text: 'x' },
    ]);
  });

  test('past its bound, the old text removed and the new added', () => {
    const before = Array.from({ length: 30 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 30 }, (_, i) => `new ${i}`).join('\n');
    const d = lineDiff(before, after, 100);
    expect(d.filter((l) => l.kind === 'del')).toHaveLength(30);
    expect(d.slice(30).every((l) => l.kind === 'add')).toBe(true);
  });
});
