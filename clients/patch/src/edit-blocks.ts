import { readFile } from 'node:fs/promises';
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
  const current = new Map<string, string[] | null>();
  const diffs: string[] = [];
  for (const block of blocks) {
    const rel = path.posix.normalize(block.path.replace(/\\/g, '/'));
    if (path.isAbsolute(rel) || rel.startsWith('..') || rel.split('/').includes('.git')) {
      throw new PatchRejected('path outside the repository or inside .git/', { path: block.path });
    }
    if (!current.has(rel)) {
      const text = await readFile(path.join(repoDir, rel), 'utf8').catch(() => null);
      current.set(rel, text === null ? null : text.replace(/\n$/, '').split('\n'));
    }
    const lines = current.get(rel) ?? null;
    if (block.search.length === 0) {
      if (lines) throw new PatchRejected('empty SEARCH creates a file, but the file exists', { path: rel });
      diffs.push(
        `--- /dev/null\n+++ b/${rel}\n@@ -0,0 +1,${block.replace.length} @@\n${block.replace.map((l) => `+${l}`).join('\n')}\n`,
      );
      current.set(rel, block.replace);
      continue;
    }
    if (!lines) throw new PatchRejected('SEARCH in a file that does not exist', { path: rel });
    const at = locate(lines, block.search);
    if (at < 0) {
      throw new PatchRejected(`SEARCH text not found: ${JSON.stringify(block.search.slice(0, 3).join('\n'))}`, {
        path: rel,
      });
    }
    const old = lines.slice(at, at + block.search.length);
    diffs.push(
      `--- a/${rel}\n+++ b/${rel}\n@@ -${at + 1},${old.length} +${at + 1},${block.replace.length} @@\n` +
        [...old.map((l) => `-${l}`), ...block.replace.map((l) => `+${l}`)].join('\n') +
        '\n',
    );
    current.set(rel, [...lines.slice(0, at), ...block.replace, ...lines.slice(at + old.length)]);
  }
  return diffs.join('');
}

/** Applies a model's edit in either format: a unified diff, or SEARCH/REPLACE blocks. */
export async function applyModelEdit(repoDir: string, edit: string, opts: ApplyOptions = {}): Promise<ApplyResult> {
  if (!looksLikeEditBlocks(edit)) return applyPatch(repoDir, edit, opts);
  return applyPatch(repoDir, await editBlocksToDiff(repoDir, parseEditBlocks(edit)), opts);
}
