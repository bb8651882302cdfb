// Real commits (agent-farm's own TypeScript, itsdangerous and requests in Python, ky in TypeScript indented with
// tabs) replayed hunk by hunk as edits whose search text drifted line by line the way models drift it: what the
// matcher writes is the commit, byte for byte, or nothing.
import { structuredPatch } from 'diff';
import { EVERYDAY_DRIFT, replayDrifted, tally, type ReplayedCommit } from '../testing/drift-edits';
import { realHunks } from '../testing/real-hunks';
import { describeMiss } from './locate-text';

const COMMITS = realHunks();
const SEEDS = [1, 2, 3, 4];
const replays = new Map<string, ReplayedCommit[]>(
  COMMITS.map((c) => [c.id, SEEDS.map((seed) => replayDrifted(c, EVERYDAY_DRIFT, seed))]),
);

const show = (s: string) => s.replace(/\t/g, '→').replace(/ /g, '·');
const difference = (expected: string, written: string) =>
  structuredPatch('commit', 'written', expected, written, '', '', { context: 1 })
    .hunks.flatMap((h) => h.lines)
    .map(show)
    .join('\n');

test('the commits are real changes of TypeScript and Python files, with spaces and with tabs', () => {
  expect(new Set(COMMITS.map((c) => c.source))).toEqual(
    new Set(['agent-farm', 'pallets/itsdangerous', 'psf/requests', 'sindresorhus/ky']),
  );
  expect(COMMITS.length).toBeGreaterThanOrEqual(50);
  expect(COMMITS.filter((c) => c.path.endsWith('.py')).length).toBeGreaterThanOrEqual(20);
  expect(COMMITS.filter((c) => /^\t+\S/m.test(c.before)).length).toBeGreaterThanOrEqual(10);
  // The drift is per line: most edits' search texts have lines drifted unlike the others
  const edits = [...replays.values()].flat().flatMap((r) => r.edits);
  expect(edits.length).toBeGreaterThan(300);
  expect(edits.filter((e) => e.outcome.kind === 'replaced' && e.outcome.tier === 'exact').length).toBeLessThan(
    edits.length / 2,
  );
});

test.each(COMMITS.map((c) => [c.id]))('%s: each drifted edit writes the commit byte for byte, or nothing', (id) => {
  const damaged = replays
    .get(id)!
    .flatMap((r, i) => r.edits.map((e) => ({ seed: SEEDS[i], ...e })))
    .filter((e) => e.written !== null && e.written !== e.expected)
    .map((e) => ({
      seed: e.seed,
      tier: e.outcome.kind === 'replaced' ? e.outcome.tier : e.outcome.kind,
      old_text: show(e.edit.old_text),
      new_text: show(e.edit.new_text),
      difference: difference(e.expected, e.written!),
    }));
  expect(damaged).toEqual([]);
});

test('most drifted edits land; the others are refused with what to send again, never as not found', () => {
  const all = [...replays.values()].flat();
  const counts = tally(all);
  expect(counts.damaged).toBe(0);
  expect(counts.landed / (counts.landed + counts.refused)).toBeGreaterThan(0.85);
  for (const { edits } of all)
    for (const { outcome } of edits) {
      if (outcome.kind === 'replaced') continue;
      expect(outcome.kind).not.toBe('absent'); // the text is there: found, then refused or ambiguous
      const message = describeMiss('f', outcome);
      if (outcome.kind === 'uncertain') expect(message).toMatch(/nothing was written\. Read lines? \d+/);
    }
});
