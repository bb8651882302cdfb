import path from 'node:path';
import parseDiff from 'parse-diff';
import { FarmError } from '@farm/runtime';

/**
 * The diff cannot be applied as given. Retryable: the usual cause is an LLM-written diff, and asking the
 * model again with `reason` (and the offending `hunk` header) in the prompt is the remedy.
 */
export class PatchRejected extends FarmError {
  readonly reason: string;
  readonly path?: string;
  readonly hunk?: string;
  constructor(reason: string, where: { path?: string; hunk?: string } = {}) {
    const at = [where.path, where.hunk].filter(Boolean).join(' ');
    super(`patch rejected${at ? ` (${at})` : ''}: ${reason}`, { retryable: true, details: { reason, ...where } });
    this.reason = reason;
    this.path = where.path;
    this.hunk = where.hunk;
  }
}

export interface HunkLine {
  op: ' ' | '-' | '+';
  /** Line content without the op character and without line terminator. */
  text: string;
}

export interface PatchHunk {
  header: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: HunkLine[];
  /** '\ No newline at end of file' after the last old-side / new-side line. */
  oldNoNewline: boolean;
  newNoNewline: boolean;
}

export interface PatchFile {
  /** Repo-relative, normalised, checked path. */
  path: string;
  change: 'added' | 'modified' | 'deleted';
  hunks: PatchHunk[];
}

export interface ParsedPatch {
  files: PatchFile[];
}

export const DEFAULT_MAX_PATCH_BYTES = 256 * 1024;

const HUNK_RE = /^@@\s+-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s+@@(.*)$/;
const isBody = (l: string | undefined) => l !== undefined && /^[ +\-\\]/.test(l);
const isBlank = (l: string | undefined) => l === '' || l === '\r';

/**
 * LLM-written hunks often have wrong line counts in the `@@` header, and parse-diff trusts the counts
 * (too small silently drops lines, too large swallows the next file header). Keep the counts when the
 * body matches them exactly; otherwise recount from the body, like `git apply --recount`. Blank lines
 * inside a hunk (editors strip the leading space) become empty context lines.
 */
function recountHunks(text: string): string {
  const lines = text.split('\n');
  const fileHeaderAt = (j: number) => lines[j]?.startsWith('--- ') && lines[j + 1]?.startsWith('+++ ');
  // `---`/`+++`/`@@` in a row is a next-file header even where overstated counts would swallow it
  const nextFileAt = (j: number) => fileHeaderAt(j) && HUNK_RE.test((lines[j + 2] ?? '').replace(/\r$/, ''));
  const endsHunk = (j: number): boolean => {
    while (isBlank(lines[j])) j++;
    return j >= lines.length || !isBody(lines[j]) || fileHeaderAt(j) === true;
  };
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const m = HUNK_RE.exec(lines[i].replace(/\r$/, ''));
    if (!m) {
      out.push(lines[i++]);
      continue;
    }
    // 1. does the body match the declared counts?
    let oldLeft = m[2] === undefined ? 1 : +m[2];
    let newLeft = m[4] === undefined ? 1 : +m[4];
    let j = i + 1;
    while (
      (oldLeft > 0 || newLeft > 0) &&
      j < lines.length &&
      (isBody(lines[j]) || isBlank(lines[j])) &&
      !nextFileAt(j)
    ) {
      const c = isBlank(lines[j]) ? ' ' : lines[j][0];
      if (c !== '+' && c !== '\\') oldLeft--;
      if (c !== '-' && c !== '\\') newLeft--;
      j++;
    }
    if (lines[j]?.startsWith('\\')) j++;
    let end = j;
    let counts = [m[2] === undefined ? 1 : +m[2], m[4] === undefined ? 1 : +m[4]];
    if (oldLeft !== 0 || newLeft !== 0 || !endsHunk(j)) {
      // 2. recount: the hunk runs until something that is not a hunk body line
      let o = 0;
      let n = 0;
      for (end = i + 1; end < lines.length; end++) {
        const l = lines[end];
        if (HUNK_RE.test(l) || fileHeaderAt(end) || (isBlank(l) && endsHunk(end)) || !(isBody(l) || isBlank(l))) break;
        const c = isBlank(l) ? ' ' : l[0];
        if (c !== '+' && c !== '\\') o++;
        if (c !== '-' && c !== '\\') n++;
      }
      counts = [o, n];
    }
    out.push(`@@ -${m[1]},${counts[0]} +${m[3]},${counts[1]} @@${m[5]}`);
    for (let k = i + 1; k < end; k++) out.push(isBlank(lines[k]) ? ' ' : lines[k]);
    i = end;
  }
  return out.join('\n');
}

/** Repo-relative path or a PatchRejected saying why it is unsafe. */
function checkPath(p: string | undefined): string {
  if (!p) throw new PatchRejected('missing file name in diff header');
  if (p.includes('\0')) throw new PatchRejected('NUL byte in path', { path: p });
  if (p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:/.test(p))
    throw new PatchRejected('absolute path', { path: p });
  if (p.split(/[/\\]/).includes('..')) throw new PatchRejected('path escapes the repository (..)', { path: p });
  const norm = path.posix
    .normalize(p)
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  if (!norm || norm === '.') throw new PatchRejected('empty path', { path: p });
  // any .git component: the repo's own metadata or a nested repo's (hooks = code execution)
  if (norm.split('/').some((s) => s.toLowerCase() === '.git'))
    throw new PatchRejected('path inside .git/', { path: p });
  return norm;
}

/**
 * Parses and vets a unified diff before anything touches the disk. Throws PatchRejected for empty or
 * unparseable input, unsafe paths, binary or symlink/submodule patches, renames, and oversize diffs.
 */
export function validatePatch(diffText: string, opts: { maxBytes?: number } = {}): ParsedPatch {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_PATCH_BYTES;
  const size = Buffer.byteLength(diffText ?? '', 'utf8');
  if (size > maxBytes) throw new PatchRejected(`patch is ${size} bytes, limit is ${maxBytes}`);
  if (!diffText || !diffText.trim()) throw new PatchRejected('empty patch');
  if (/^GIT binary patch\r?$/m.test(diffText) || /^Binary files .* differ\r?$/m.test(diffText)) {
    throw new PatchRejected('binary patches are not supported');
  }

  const normalized = recountHunks(diffText);
  const parsed = parseDiff(normalized);
  const headers = normalized.split('\n').filter((l) => l.startsWith('@@')).length;
  const chunks = parsed.reduce((n, f) => n + f.chunks.length, 0);
  if (headers !== chunks) {
    const bad = normalized.split('\n').find((l) => l.startsWith('@@') && !HUNK_RE.test(l.replace(/\r$/, '')));
    throw new PatchRejected(`malformed hunk header${bad ? `: ${bad}` : ''}`, { hunk: bad });
  }
  if (parsed.length === 0) throw new PatchRejected('no file diffs found (expected ---/+++ headers and @@ hunks)');

  const files = parsed.map((f): PatchFile => {
    const added = f.new === true || f.from === '/dev/null';
    const deleted = f.deleted === true || f.to === '/dev/null';
    if (added && deleted) throw new PatchRejected('file is both created and deleted', { path: f.to ?? f.from });
    const p = checkPath(added ? f.to : f.from);
    if (!added && !deleted && checkPath(f.to) !== p)
      throw new PatchRejected(`renames are not supported (${f.from} -> ${f.to})`, { path: p });
    for (const mode of [f.oldMode, f.newMode]) {
      if (mode === '120000' || mode === '160000')
        throw new PatchRejected('symlink/submodule entries are not supported', { path: p });
    }
    if (f.chunks.length === 0 && !added && !deleted) throw new PatchRejected('no hunks for file', { path: p });
    const hunks = f.chunks.map((c): PatchHunk => {
      const h: PatchHunk = {
        header: c.content.replace(/\r$/, ''),
        ...{ oldStart: c.oldStart, oldLines: c.oldLines, newStart: c.newStart, newLines: c.newLines },
        lines: [],
        oldNoNewline: false,
        newNoNewline: false,
      };
      for (const ch of c.changes) {
        if (ch.content.startsWith('\\')) {
          // parse-diff repeats the previous change's type on the marker: it names the side(s) it ends
          if (ch.type !== 'add') h.oldNoNewline = true;
          if (ch.type !== 'del') h.newNoNewline = true;
          continue;
        }
        h.lines.push({
          op: ch.type === 'add' ? '+' : ch.type === 'del' ? '-' : ' ',
          text: ch.content.slice(1).replace(/\r$/, ''),
        });
      }
      return h;
    });
    if (added && hunks.some((h) => h.lines.some((l) => l.op !== '+')))
      throw new PatchRejected('new file hunk has context or removed lines', { path: p });
    if (deleted && hunks.some((h) => h.lines.some((l) => l.op === '+')))
      throw new PatchRejected('deleted file hunk adds lines', { path: p });
    return { path: p, change: added ? 'added' : deleted ? 'deleted' : 'modified', hunks };
  });
  return { files };
}
