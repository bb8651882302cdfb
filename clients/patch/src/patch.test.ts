import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { applyPatch, PatchRejected, validatePatch } from './index';

const exec = promisify(execFile);
let tmp: string;
let repo: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-patch-test-'));
  repo = path.join(tmp, 'repo');
  await mkdir(path.join(repo, 'src'), { recursive: true });
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

const read = (p: string) => readFile(path.join(repo, p), 'utf8');
const put = (p: string, s: string) => writeFile(path.join(repo, p), s);
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
async function rejection(p: Promise<unknown>): Promise<PatchRejected> {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  expect(err).toBeInstanceOf(PatchRejected);
  expect(err.retryable).toBe(true);
  return err;
}

const MODIFY = `diff --git a/src/a.txt b/src/a.txt
--- a/src/a.txt
+++ b/src/a.txt
@@ -4,3 +4,4 @@
 line 4
-line 5
+line five
+line 5.5
 line 6
@@ -18,3 +19,3 @@
 line 18
-line 19
+line nineteen
 line 20
`;

describe('applyPatch', () => {
  it('applies hunks at their exact positions', async () => {
    await put('src/a.txt', numbered(20));
    const res = await applyPatch(repo, MODIFY);
    expect(res).toEqual({ files: [{ path: 'src/a.txt', change: 'modified' }], fuzzy: false });
    const out = (await read('src/a.txt')).split('\n');
    expect(out.slice(3, 7)).toEqual(['line 4', 'line five', 'line 5.5', 'line 6']);
    expect(out[19]).toBe('line nineteen');
  });

  it('applies a git-generated diff identically to git (multiple hunks, no newline at EOF, CRLF kept)', async () => {
    const before = numbered(30).replace(/\n$/, ''); // no trailing newline
    const after = before.replace('line 2\n', 'line 2\nextra\n').replace('line 30', 'line 30\nline 31\n');
    await writeFile(path.join(tmp, 'before'), before);
    await writeFile(path.join(tmp, 'after'), after);
    const diff = await exec('git', ['diff', '--no-index', 'before', 'after'], { cwd: tmp }).then(
      () => '',
      (e: { stdout: string }) => e.stdout, // exit code 1 = differences
    );
    const patch = diff.replaceAll('a/before', 'a/f.txt').replaceAll('b/after', 'b/f.txt');
    await put('f.txt', before);
    expect((await applyPatch(repo, patch)).fuzzy).toBe(false);
    expect(await read('f.txt')).toBe(after);

    await put('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    await applyPatch(repo, '--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n');
    expect(await read('crlf.txt')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('applies hunks whose line numbers (and counts) are wrong', async () => {
    await put('src/a.txt', numbered(20));
    const wrong = MODIFY.replace('@@ -4,3 +4,4 @@', '@@ -40,2 +40,9 @@').replace(
      '@@ -18,3 +19,3 @@',
      '@@ -1,3 +1,3 @@',
    );
    const res = await applyPatch(repo, wrong);
    expect(res.fuzzy).toBe(true);
    expect(res.fuzz).toEqual(['line-offset']);
    const out = (await read('src/a.txt')).split('\n');
    expect(out.slice(3, 7)).toEqual(['line 4', 'line five', 'line 5.5', 'line 6']);
    expect(out[19]).toBe('line nineteen');
  });

  it('applies hunks despite whitespace drift, keeping the file’s own context lines', async () => {
    await put('src/code.ts', 'function f() {\n\tconst a = 1;\n\treturn a;\n}\n');
    const diff = `--- a/src/code.ts
+++ b/src/code.ts
@@ -1,4 +1,4 @@
 function f()  {
-    const a = 1;
+    const a = 2;
     return a;   
 }
`;
    const res = await applyPatch(repo, diff);
    expect(res.fuzzy).toBe(true);
    expect(res.fuzz).toEqual(['whitespace']); // at the stated lines: not "line numbers were off"
    expect(await read('src/code.ts')).toBe('function f() {\n    const a = 2;\n\treturn a;\n}\n');
  });

  it('never places a hunk without context or removed lines by its line number alone', async () => {
    await put('src/a.txt', numbered(20));
    const contextFree = '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -7,0 +8,2 @@\n+added one\n+added two\n';
    const err = await rejection(applyPatch(repo, contextFree));
    expect(err.message).toMatch(/no context lines and removes none, so its place \(line 7\) cannot be verified/);
    expect(await read('src/a.txt')).toBe(numbered(20)); // nothing written

    await put('src/empty.txt', '');
    const res = await applyPatch(repo, '--- a/src/empty.txt\n+++ b/src/empty.txt\n@@ -0,0 +1,2 @@\n+first\n+second\n');
    expect(res).toEqual({ files: [{ path: 'src/empty.txt', change: 'modified' }], fuzzy: false });
    expect(await read('src/empty.txt')).toBe('first\nsecond\n');
  });

  it('rejects a hunk that does not apply, naming the hunk and why, and writes nothing', async () => {
    await put('src/a.txt', numbered(20));
    await put('src/b.txt', 'b\n');
    const diff = `--- a/src/b.txt
+++ b/src/b.txt
@@ -1 +1 @@
-b
+B
--- a/src/a.txt
+++ b/src/a.txt
@@ -7,3 +7,3 @@
 line 7
-line 8 is not here
+line 8
 line 9
`;
    const err = await rejection(applyPatch(repo, diff));
    expect(err.path).toBe('src/a.txt');
    expect(err.hunk).toBe('@@ -7,3 +7,3 @@');
    expect(err.reason).toContain('"line 8 is not here"');
    expect(err.reason).toContain('"line 8"');
    expect(err.message).toContain('@@ -7,3 +7,3 @@');
    expect(await read('src/b.txt')).toBe('b\n'); // atomic: the good file was not touched
  });

  it('creates new files (with directories) and deletes files', async () => {
    await put('src/old.txt', 'x\ny\n');
    await put('run.sh', 'echo hi\n');
    await chmod(path.join(repo, 'run.sh'), 0o755);
    const diff = `diff --git a/src/new/dir/n.ts b/src/new/dir/n.ts
new file mode 100644
--- /dev/null
+++ b/src/new/dir/n.ts
@@ -0,0 +1,2 @@
+export const n = 1;
+export const m = 2;
\\ No newline at end of file
diff --git a/src/old.txt b/src/old.txt
deleted file mode 100644
--- a/src/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
--- a/run.sh
+++ b/run.sh
@@ -1 +1 @@
-echo hi
+echo bye
`;
    const res = await applyPatch(repo, diff);
    expect(res.files).toEqual([
      { path: 'src/new/dir/n.ts', change: 'added' },
      { path: 'src/old.txt', change: 'deleted' },
      { path: 'run.sh', change: 'modified' },
    ]);
    expect(await read('src/new/dir/n.ts')).toBe('export const n = 1;\nexport const m = 2;');
    expect(existsSync(path.join(repo, 'src/old.txt'))).toBe(false);
    expect((await stat(path.join(repo, 'run.sh'))).mode & 0o777).toBe(0o755);

    await rejection(applyPatch(repo, '--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+x\n')); // exists already
    await rejection(applyPatch(repo, '--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-a\n+b\n')); // missing
  });

  it('refuses paths outside the repo or inside .git', async () => {
    for (const p of ['../x', 'src/../../x', '/etc/x', '.git/hooks/pre-commit', 'sub/.git/config']) {
      const err = await rejection(applyPatch(repo, `--- /dev/null\n+++ ${p}\n@@ -0,0 +1 @@\n+pwned\n`));
      expect(err.path).toBe(p);
    }
    expect(existsSync(path.join(tmp, 'x'))).toBe(false);
  });

  it('refuses to write through symlinks; the target outside stays untouched', async () => {
    const outside = path.join(tmp, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
    await symlink(path.join(outside, 'secret.txt'), path.join(repo, 'link.txt'));
    await symlink(outside, path.join(repo, 'linkdir'));

    let err = await rejection(applyPatch(repo, '--- a/link.txt\n+++ b/link.txt\n@@ -1 +1 @@\n-secret\n+owned\n'));
    expect(err.reason).toMatch(/symlink/);
    err = await rejection(
      applyPatch(repo, '--- a/linkdir/secret.txt\n+++ b/linkdir/secret.txt\n@@ -1 +1 @@\n-secret\n+owned\n'),
    );
    expect(err.reason).toMatch(/symlink/);
    await rejection(applyPatch(repo, '--- /dev/null\n+++ b/linkdir/new.txt\n@@ -0,0 +1 @@\n+x\n'));
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });
});

describe('validatePatch', () => {
  it('parses files and hunks', () => {
    const p = validatePatch(MODIFY);
    expect(p.files).toHaveLength(1);
    expect(p.files[0]).toMatchObject({ path: 'src/a.txt', change: 'modified' });
    expect(p.files[0].hunks.map((h) => h.header)).toEqual(['@@ -4,3 +4,4 @@', '@@ -18,3 +19,3 @@']);
    expect(p.files[0].hunks[0].lines[1]).toEqual({ op: '-', text: 'line 5' });
  });

  it('rejects empty, unparseable, binary and oversize patches', () => {
    expect(() => validatePatch('')).toThrow(PatchRejected);
    expect(() => validatePatch('   \n')).toThrow(/empty/);
    expect(() => validatePatch('Sure! I changed the file for you.')).toThrow(/no file diffs/);
    expect(() => validatePatch('--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n')).toThrow(/malformed hunk header/);
    expect(() =>
      validatePatch('diff --git a/img.png b/img.png\nindex 1..2 100644\nGIT binary patch\nliteral 5\nMcmZ?\n'),
    ).toThrow(/binary/);
    expect(() =>
      validatePatch('diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n'),
    ).toThrow(/binary/);
    const big = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+' + 'b'.repeat(300 * 1024) + '\n';
    expect(() => validatePatch(big)).toThrow(/limit is 262144/);
    expect(() => validatePatch(MODIFY, { maxBytes: 100 })).toThrow(PatchRejected);
  });

  it('rejects renames and symlink entries', () => {
    expect(() => validatePatch('--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n')).toThrow(/renames/);
    expect(() =>
      validatePatch('diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n'),
    ).toThrow(/symlink/);
  });

  it('recounts hunks with wrong counts and blank context lines', () => {
    // counts too small would otherwise drop "+c"; the blank line lost its leading space
    const p = validatePatch(
      '--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n a\n\n-b\n+B\n+c\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-y\n+Y\n',
    );
    expect(p.files.map((f) => f.path)).toEqual(['x', 'y']);
    // overstated counts must not swallow the next file's header
    const q = validatePatch('--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-y\n+Y\n');
    expect(q.files.map((f) => [f.path, f.hunks[0].lines.length])).toEqual([
      ['x', 3],
      ['y', 2],
    ]);
    expect(p.files[0].hunks[0].lines).toEqual([
      { op: ' ', text: 'a' },
      { op: ' ', text: '' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: '+', text: 'c' },
    ]);
  });
});
