import { lstat, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import { readVerifiedFile } from '@farm/git';

/** A path whose content the work tree changed against the base commit. */
export interface TreeChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

/** A unified diff of the net change against the `base` commit (what the reviewer reads), `maxChars` at most. */
export async function unifiedTreeDiff(
  dir: string,
  base: string,
  changes: TreeChange[],
  maxChars = 60_000,
): Promise<string> {
  const parts: string[] = [];
  for (const c of changes) {
    const before = c.change === 'added' ? '' : ((await readVerifiedFile(dir, base, c.path))?.content.toString() ?? '');
    const after = c.change === 'deleted' ? '' : await workTreeText(path.join(dir, c.path));
    parts.push(unifiedDiff(c.path, before, after, c.change));
  }
  const text = parts.join('');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n[... diff cut at ${maxChars} characters ...]\n` : text;
}

/** A file's text as git stores it: a symlink is its target's name, never what it points at. */
async function workTreeText(file: string): Promise<string> {
  return (await lstat(file)).isSymbolicLink() ? readlink(file) : readFile(file, 'utf8');
}

/** Past this many edits the diff shows the whole file replaced (Myers' algorithm grows with the edits). */
const MAX_EDIT_LENGTH = 2_000;

/** One file's unified diff (`--- a/f`, `+++ b/f`, hunks with 3 lines of context), '' when the text is the same. */
export function unifiedDiff(file: string, before: string, after: string, change: TreeChange['change']): string {
  // A missing final newline is not a change worth showing the reviewer (nor a `\ No newline` marker).
  const a = before.replace(/\n?$/, '\n');
  const b = after.replace(/\n?$/, '\n');
  const oldName = change === 'added' ? '/dev/null' : `a/${file}`;
  const newName = change === 'deleted' ? '/dev/null' : `b/${file}`;
  const patch =
    structuredPatch(oldName, newName, before && a, after && b, undefined, undefined, {
      context: 3,
      maxEditLength: MAX_EDIT_LENGTH,
    }) ?? wholeFileReplaced(oldName, newName, before && a, after && b);
  return patch.hunks.length ? formatPatch(patch, FILE_HEADERS_ONLY) : '';
}

function wholeFileReplaced(oldFileName: string, newFileName: string, a: string, b: string): StructuredPatch {
  const lines = (text: string) => (text ? text.slice(0, -1).split('\n') : []);
  const [gone, came] = [lines(a), lines(b)];
  const hunk = {
    oldStart: 1,
    oldLines: gone.length,
    newStart: 1,
    newLines: came.length,
    lines: [...gone.map((l) => `-${l}`), ...came.map((l) => `+${l}`)],
  };
  return { oldFileName, newFileName, oldHeader: undefined, newHeader: undefined, hunks: [hunk] };
}
