import { EVERYDAY_DRIFT, HARSH_DRIFT, NO_DRIFT, replayDrifted, tally } from './drift-edits';
import { parseRealHunks, realHunks } from './real-hunks';

const COMMITS = realHunks();

test('a fixture is a real excerpt before and after its commit, with where it comes from', () => {
  const c = parseRealHunks(
    'x/01.diff',
    'source: o/r\ncommit: abc\nsubject: Fix it\nfile: a.py (lines 3-5 of the parent)\n' +
      '--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n def f():\n-    return 1\n+    return 2\n \n',
  );
  expect(c).toEqual({
    id: 'x/01.diff',
    source: 'o/r',
    commit: 'abc',
    subject: 'Fix it',
    path: 'a.py',
    before: 'def f():\n    return 1\n\n',
    after: 'def f():\n    return 2\n\n',
  });
});

test('the exact edits of every commit make the commit, through the matcher, at the exact tier', () => {
  for (const c of COMMITS) {
    const { edits } = replayDrifted(c, NO_DRIFT, 1);
    expect(edits.length).toBeGreaterThan(0);
    expect(edits.map((e) => [e.verdict, e.outcome.kind === 'replaced' && e.outcome.tier])).toEqual(
      edits.map(() => ['landed', 'exact']),
    );
    expect(edits[edits.length - 1].expected).toBe(c.after);
  }
});

test('the same seed drifts the same way; another seed, another way', () => {
  const c = COMMITS[0];
  const texts = (seed: number) => replayDrifted(c, HARSH_DRIFT, seed).edits.map((e) => e.edit);
  expect(texts(7)).toEqual(texts(7));
  expect(texts(7)).not.toEqual(texts(8));
});

test('the drift is per line: within one search text, lines drift differently', () => {
  const edits = COMMITS.flatMap((c) => replayDrifted(c, EVERYDAY_DRIFT, 3).edits);
  const exact = COMMITS.flatMap((c) => replayDrifted(c, NO_DRIFT, 3).edits);
  const offsets = edits.map((e, i) => {
    const file = exact[i].edit.old_text.split('\n');
    return new Set(
      e.edit.old_text
        .split('\n')
        .map((l, j) => (l.trim() ? `${/^\s*/.exec(file[j])![0].length - /^\s*/.exec(l)![0].length}` : ''))
        .filter(Boolean),
    ).size;
  });
  expect(offsets.filter((n) => n > 1).length).toBeGreaterThan(edits.length / 10);
  expect(edits.filter((e) => /[ \t]\n|[ \t]$/.test(e.edit.old_text)).length).toBeGreaterThan(edits.length / 10);
  expect(tally([{ edits }]).landed).toBeGreaterThan(0);
});
