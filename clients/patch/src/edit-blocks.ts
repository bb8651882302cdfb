import { readFile } from 'node:fs/promises';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import path from 'node:path';
import { applyPatch, type ApplyOptions, type ApplyResult } from './apply';
import { PatchRejected } from './validate';

/**
 * The second answer format models use: search/replace edit blocks,
 *
 *   path/to/file.js
 *   <<<<<<< SEARCH
 *   exact existing lines
 *   =======
 *   replacement lines
 *   >>>>>>> REPLACE
 *
 * An empty SEARCH creates the file. Blocks are turned into a unified diff, so they get exactly the same
 * checks as diffs (paths, .git/, symlinks, size) and the same all-or-nothing application.
 */
export interface EditBlock {
  path: string;
  search: string[];
  replace: string[];
}

const BLOCK_RE = /^([^\n]+)\n<{5,9} SEARCH\n([\s\S]*?)^={5,9}\n([\s\S]*?)^>{5,9} REPLACE$/gm;

export function looksLikeEditBlocks(text: string): boolean {
  return /^<{5,9} SEARCH$/m.test(text) && /^>{5,9} REPLACE$/m.test(text);
}

export function parseEditBlocks(text: string): EditBlock[] {
  const blocks: EditBlock[] = [];
  for (const m of text.replace(/\r\n/g, '\n').matchAll(BLOCK_RE)) {
    const file = m[1].trim().replace(/^`+|`+$/g, '');
    const lines = (s: string) => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));
    blocks.push({ path: file, search: lines(m[2]), replace: lines(m[3]) });
  }
  if (!blocks.length)
    throw new PatchRejected(
      'no complete SEARCH/REPLACE block (file path line, <<<<<<< SEARCH, =======, >>>>>>> REPLACE)',
    );
  return blocks;
}

/** Where the search lines start in the file: exact first, then ignoring whitespace at line ends and indentation. */
function locate(lines: string[], search: string[]): number {
  const find = (eq: (a: string, b: string) => boolean) => {
    for (let i = 0; i + search.length <= lines.length; i++) {
      if (search.every((s, j) => eq(lines[i + j], s))) return i;
    }
    return -1;
  };
  const exact = find((a, b) => a === b);
  return exact >= 0 ? exact : find((a, b) => a.trim() === b.trim());
}

export async function editBlocksToDiff(repoDir: string, blocks: EditBlock[]): Promise<string> {
  // Per file: its lines before the blocks and after the blocks so far (null: the file does not exist).
  const files = new Map<string, { before: string[] | null; after: string[] | null }>();
  for (const block of blocks) {
    const rel = path.posix.normalize(block.path.replace(/\\/g, '/'));
    if (path.isAbsolute(rel) || rel.startsWith('..') || rel.split('/').includes('.git')) {
      throw new PatchRejected('path outside the repository or inside .git/', { path: block.path });
    }
    let file = files.get(rel);
    if (!file) {
      const text = await readFile(path.join(repoDir, rel), 'utf8').catch(() => null);
      const before = text === null ? null : text.replace(/\n$/, '').split('\n');
      file = { before, after: before };
      files.set(rel, file);
    }
    if (block.search.length === 0) {
      if (file.after) throw new PatchRejected('empty SEARCH creates a file, but the file exists', { path: rel });
      file.after = block.replace;
      continue;
    }
    if (!file.after) throw new PatchRejected('SEARCH in a file that does not exist', { path: rel });
    const at = locate(file.after, block.search);
    if (at < 0) {
      throw new PatchRejected(`SEARCH text not found: ${JSON.stringify(block.search.slice(0, 3).join('\n'))}`, {
        path: rel,
      });
    }
    file.after = [...file.after.slice(0, at), ...block.replace, ...file.after.slice(at + block.search.length)];
  }
  // One unified diff per file, from where it was to where the blocks left it: the same checks as a model's diff.
  const text = (lines: string[] | null) => (lines ?? []).map((l) => `${l}\n`).join('');
  const diffs = [...files].map(([rel, { before, after }]) => {
    const patch = structuredPatch(before ? `a/${rel}` : '/dev/null', `b/${rel}`, text(before), text(after));
    return patch.hunks.length ? formatPatch(patch, FILE_HEADERS_ONLY) : '';
  });
  if (!diffs.some(Boolean)) throw new PatchRejected('the SEARCH/REPLACE blocks change nothing');
  return diffs.join('');
}

/** Applies a model's edit in either format: a unified diff, or SEARCH/REPLACE blocks. */
export async function applyModelEdit(repoDir: string, edit: string, opts: ApplyOptions = {}): Promise<ApplyResult> {
  if (!looksLikeEditBlocks(edit)) return applyPatch(repoDir, edit, opts);
  return applyPatch(repoDir, await editBlocksToDiff(repoDir, parseEditBlocks(edit)), opts);
}
