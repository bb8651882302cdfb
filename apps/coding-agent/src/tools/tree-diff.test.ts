import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { applyModelEdit } from '@farm/patch';
import { unifiedDiff } from './tree-diff';

const BEFORE = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

test('a unified diff of two versions applies back onto the first (changes near the start, middle and end)', async () => {
  const after = BEFORE.replace('line 2\n', 'line two\n')
    .replace('line 15\n', 'line 15\ninserted\n')
    .replace('line 30\n', '');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tree-diff-'));
  try {
    await writeFile(path.join(dir, 'f.txt'), BEFORE);
    const diff = unifiedDiff('f.txt', BEFORE, after, 'modified');
    expect(diff.match(/^@@/gm)).toHaveLength(3);
    const applied = await applyModelEdit(dir, diff);
    expect(applied.fuzzy).toBe(false);
    expect(await readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(after);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('every diff the reviewer reads is a faithful patch: it applies back exactly, also past the edit bound', async () => {
  let seed = 7;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n;
  const cases: [string, string][] = [];
  for (let t = 0; t < 40; t++) {
    const before = Array.from({ length: 1 + Math.floor(next(40)) }, () => `l${Math.floor(next(6))}`);
    const after = before.flatMap((l) => {
      const r = next(1);
      return r < 0.1 ? [] : r < 0.2 ? [l, `new ${Math.floor(next(6))}`] : r < 0.3 ? [`changed ${l}`] : [l];
    });
    cases.push([before.join('\n') + '\n', after.join('\n') + '\n']);
  }
  // Past the edit bound the whole file is shown replaced, still as a patch that applies.
  const many = (tag: string) => Array.from({ length: 3_000 }, (_, i) => `${tag} ${i}`).join('\n') + '\n';
  cases.push([many('old'), many('new')]);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tree-diff-'));
  try {
    for (const [before, after] of cases) {
      await writeFile(path.join(dir, 'f.txt'), before);
      const diff = unifiedDiff('f.txt', before, after, 'modified');
      if (before === after) expect(diff).toBe('');
      else await applyModelEdit(dir, diff);
      expect(await readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(after);
    }
    expect(unifiedDiff('f.txt', many('old'), many('new'), 'modified').match(/^@@ .* @@$/gm)).toEqual([
      '@@ -1,3000 +1,3000 @@',
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a deleted file shows every line removed; a file that only lost its final newline shows no change', () => {
  expect(unifiedDiff('gone.txt', 'a\nb\n', '', 'deleted')).toBe(
    '--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n',
  );
  expect(unifiedDiff('f.txt', 'a\nb\n', 'a\nb', 'modified')).toBe('');
});
