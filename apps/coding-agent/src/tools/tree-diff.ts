import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';

export interface TreeChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

/**
 * The net change of the work tree against HEAD: files whose content differs (untracked files that the
 * repository does not ignore count as added). Edits that were undone, and files created then deleted, are not
 * in it; that is what gets committed.
 */
export async function netChanges(dir: string): Promise<TreeChange[]> {
  const matrix = await git.statusMatrix({ fs, dir });
  const changes: TreeChange[] = [];
  for (const [filepath, head, workdir] of matrix) {
    if (head === 0 && workdir === 2) changes.push({ path: filepath, change: 'added' });
    else if (head === 1 && workdir === 0) changes.push({ path: filepath, change: 'deleted' });
    else if (head === 1 && workdir === 2) changes.push({ path: filepath, change: 'modified' });
  }
  return changes;
}

async function headText(dir: string, filepath: string): Promise<string> {
  const oid = await git.resolveRef({ fs, dir, ref: 'HEAD' });
  const { blob } = await git.readBlob({ fs, dir, oid, filepath });
  return Buffer.from(blob).toString('utf8');
}

/** A unified diff of the net change (what the reviewer reads), `maxChars` at most. */
export async function unifiedTreeDiff(dir: string, changes: TreeChange[], maxChars = 60_000): Promise<string> {
  const parts: string[] = [];
  for (const c of changes) {
    const before = c.change === 'added' ? '' : await headText(dir, c.path);
    const after = c.change === 'deleted' ? '' : await readFile(path.join(dir, c.path), 'utf8');
    parts.push(unifiedDiff(c.path, before, after, c.change));
  }
  const text = parts.join('');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n[... diff cut at ${maxChars} characters ...]\n` : text;
}

/** Above this many lines on both sides the diff shows the whole file replaced (the LCS table would be too big). */
const MAX_LCS_CELLS = 4_000_000;
const CONTEXT = 3;

export function unifiedDiff(file: string, before: string, after: string, change: TreeChange['change']): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const ops = lineOps(a, b);
  const header = `--- ${change === 'added' ? '/dev/null' : `a/${file}`}\n+++ ${change === 'deleted' ? '/dev/null' : `b/${file}`}\n`;
  // each change with CONTEXT lines around it; overlapping ranges merge into one hunk
  const ranges: [number, number][] = [];
  ops.forEach((o, k) => {
    if (o.op === ' ') return;
    const from = Math.max(0, k - CONTEXT);
    const to = Math.min(ops.length, k + CONTEXT + 1);
    const last = ranges.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  });
  const hunks = ranges.map(([from, to]) => {
    const slice = ops.slice(from, to);
    const oldLen = slice.filter((o) => o.op !== '+').length;
    const newLen = slice.filter((o) => o.op !== '-').length;
    const oldStart = oldLen ? slice[0].a! + 1 : slice[0].a!;
    const newStart = newLen ? slice[0].b! + 1 : slice[0].b!;
    return `@@ -${oldStart},${oldLen} +${newStart},${newLen} @@\n` + slice.map((o) => `${o.op}${o.text}\n`).join('');
  });
  return hunks.length ? header + hunks.join('') : '';
}

interface LineOp {
  op: ' ' | '-' | '+';
  text: string;
  /** Index in the old / new lines where this op stands. */
  a?: number;
  b?: number;
}

function lineOps(a: string[], b: string[]): LineOp[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [
      ...a.map((text, i): LineOp => ({ op: '-', text, a: i, b: 0 })),
      ...b.map((text, j): LineOp => ({ op: '+', text, a: a.length, b: j })),
    ];
  }
  // LCS lengths from the end, so the walk below can go forwards
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
  const ops: LineOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ op: ' ', text: a[i], a: i++, b: j++ });
    // removals before additions, as diff tools write them
    else if (i < a.length && (j >= b.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]))
      ops.push({ op: '-', text: a[i], a: i++, b: j });
    else ops.push({ op: '+', text: b[j], a: i, b: j++ });
  }
  return ops;
}
