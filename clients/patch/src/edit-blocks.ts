import { readFile } from 'node:fs/promises';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import path from 'node:path';
import { applyPatch, type ApplyOptions, type ApplyResult } from './apply';
import { describeMiss, replaceInTiers } from './locate-text';
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

const BLOCK_TERMS = {
  subject: 'SEARCH text',
  replacement: 'REPLACE text',
  notFound: 'not found',
  widen: 'add surrounding lines to the SEARCH text to make it unique',
};
const text = (lines: string[] | null) => (lines ?? []).map((l) => `${l}\n`).join('');

export async function editBlocksToDiff(repoDir: string, blocks: EditBlock[]): Promise<string> {
  return (await blocksToDiff(repoDir, blocks)).diff;
}

/**
 * The blocks as one diff. Each SEARCH is located as edit_file's old_text is (whole lines: exact, then ignoring
 * trailing whitespace, indentation, Unicode punctuation; unique at its tier), `lenient` when one needed more
 * than exact.
 */
async function blocksToDiff(repoDir: string, blocks: EditBlock[]): Promise<{ diff: string; lenient: boolean }> {
  let lenient = false;
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
    const found = replaceInTiers(text(file.after), text(block.search), text(block.replace), { wholeLines: true });
    if (found.kind !== 'replaced') throw new PatchRejected(describeMiss(rel, found, BLOCK_TERMS), { path: rel });
    lenient ||= found.tier !== 'exact';
    file.after = found.text === '' ? [] : found.text.replace(/\n$/, '').split('\n');
  }
  // One unified diff per file, from where it was to where the blocks left it: the same checks as a model's diff.
  const diffs = [...files].map(([rel, { before, after }]) => {
    const patch = structuredPatch(before ? `a/${rel}` : '/dev/null', `b/${rel}`, text(before), text(after));
    return patch.hunks.length ? formatPatch(patch, FILE_HEADERS_ONLY) : '';
  });
  if (!diffs.some(Boolean)) throw new PatchRejected('the SEARCH/REPLACE blocks change nothing');
  return { diff: diffs.join(''), lenient };
}

/** Applies a model's edit in either format: a unified diff, or SEARCH/REPLACE blocks. */
export async function applyModelEdit(repoDir: string, edit: string, opts: ApplyOptions = {}): Promise<ApplyResult> {
  if (!looksLikeEditBlocks(edit)) return applyPatch(repoDir, edit, opts);
  const { diff, lenient } = await blocksToDiff(repoDir, parseEditBlocks(edit));
  const applied = await applyPatch(repoDir, diff, opts);
  // The diff is exact by construction: what was fuzzy is how a SEARCH text was found.
  return lenient ? { ...applied, fuzzy: true, fuzz: ['whitespace'] } : applied;
}
