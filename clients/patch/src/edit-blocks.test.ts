import { mkdtemp, readFile, symlink, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { applyModelEdit, editBlocksToDiff, parseEditBlocks } from './edit-blocks';

async function repo(files: Record<string, string>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'edit-blocks-'));
  for (const [f, c] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, f)), { recursive: true });
    await writeFile(path.join(dir, f), c);
  }
  return dir;
}

const block = (file: string, search: string, replace: string) =>
  `${file}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;

test('search/replace blocks edit a file, tolerate indentation drift and create new files', async () => {
  const dir = await repo({ 'src/a.js': 'function a() {\n  return 1;\n}\n' });
  // The model's text is a level too deep, its SEARCH and REPLACE alike: the replacement goes in at the file's depth
  const edit =
    block('src/a.js', '    return 1;\n', '    return 2;\n') + block('src/b.js', '', "module.exports = 'b';\n");
  const result = await applyModelEdit(dir, edit);
  expect(result.fuzz).toEqual(['whitespace']);
  expect(result.files.map((f) => [f.path, f.change]).sort()).toEqual([
    ['src/a.js', 'modified'],
    ['src/b.js', 'added'],
  ]);
  expect(await readFile(path.join(dir, 'src/a.js'), 'utf8')).toBe('function a() {\n  return 2;\n}\n');
  expect(await readFile(path.join(dir, 'src/b.js'), 'utf8')).toBe("module.exports = 'b';\n");
});

test('a block whose SEARCH text is not in the file is rejected with the reason, nothing written', async () => {
  const dir = await repo({ 'a.txt': 'one\ntwo\n' });
  await expect(applyModelEdit(dir, block('a.txt', 'three\n', 'four\n'))).rejects.toThrow(/SEARCH text not found/);
  expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
});

test('blocks get the same refusals as diffs: .git/, outside paths, symlinks', async () => {
  const outside = await repo({ 'secret.txt': 'keep\n' });
  const dir = await repo({ 'a.txt': 'x\n' });
  await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
  await expect(applyModelEdit(dir, block('.git/hooks/pre-commit', '', 'evil\n'))).rejects.toThrow(/\.git/);
  await expect(applyModelEdit(dir, block('../x', '', 'evil\n'))).rejects.toThrow(/outside/);
  await expect(applyModelEdit(dir, block('link.txt', 'keep\n', 'changed\n'))).rejects.toThrow(/symlink|link/i);
  expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep\n');
});

test('several blocks on one file become one diff of the whole change; blocks that change nothing are refused', async () => {
  const dir = await repo({ 'a.txt': 'one\ntwo\nthree\nfour\n' });
  const blocks = [
    block('a.txt', 'one\n', '1\n'),
    block('a.txt', 'four\n', '4\n'),
    block('a.txt', '1\ntwo\n', '1\n2\n'),
  ];
  expect(await editBlocksToDiff(dir, parseEditBlocks(blocks.join('')))).toBe(
    '--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n-one\n-two\n+1\n+2\n three\n-four\n+4\n',
  );
  await applyModelEdit(dir, blocks.join(''));
  expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('1\n2\nthree\n4\n');
  await expect(applyModelEdit(dir, block('a.txt', 'three\n', 'three\n'))).rejects.toThrow(/change nothing/);
  await expect(applyModelEdit(dir, block('a.txt', '', 'again\n'))).rejects.toThrow(/the file exists/);
});

test('a SEARCH text matches whole lines only, must be unique at its tier, and a miss names the nearest lines', async () => {
  const dir = await repo({
    'a.py': 'phone = 1\none = 1\n\ndef f():\n    one = 1\n    return one\n',
    'b.py': 'if a:\n    x = 0\nif b:\n        x = 0\n',
  });
  // "one = 1" also ends "phone = 1": only the whole line counts, exactly (the indented one is another tier)
  expect((await applyModelEdit(dir, block('a.py', 'one = 1\n', 'one = 2\n'))).fuzzy).toBe(false);
  const res = await applyModelEdit(dir, block('a.py', 'one = 1\nreturn one\n', 'one = 3\nreturn one\n'));
  expect(res.fuzz).toEqual(['whitespace']);
  expect(await readFile(path.join(dir, 'a.py'), 'utf8')).toBe(
    'phone = 1\none = 2\n\ndef f():\n    one = 3\n    return one\n',
  );
  await expect(applyModelEdit(dir, block('b.py', '  x = 0\n', '  x = 1\n'))).rejects.toThrow(
    /SEARCH text occurs 2 times in b\.py \(lines 2, 4\) when compared ignoring indentation/,
  );
  await expect(applyModelEdit(dir, block('a.py', 'def f(x):\n', 'def g():\n'))).rejects.toThrow(
    /SEARCH text not found in a\.py .* The nearest text:\n {2}at line 4 \(/s,
  );
});
