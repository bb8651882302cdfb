import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { silentLogger, type Logger } from '@farm/runtime';
import { PatchRejected, validatePatch, type PatchHunk } from './validate';

export interface AppliedFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

export interface ApplyResult {
  files: AppliedFile[];
  /** True when any hunk applied away from its stated line numbers or only whitespace-insensitively. */
  fuzzy: boolean;
  /** What was fuzzy, when something was: hunks placed away from their stated lines, matched ignoring whitespace. */
  fuzz?: FuzzKind[];
}

export type FuzzKind = 'line-offset' | 'whitespace';

export interface ApplyOptions {
  maxBytes?: number;
  /** Compute and check everything, write nothing. */
  dryRun?: boolean;
  log?: Logger;
}

/** A line with its own terminator ('\n', '\r\n', or '' for a last line without newline). */
interface Line {
  text: string;
  eol: string;
}

function splitLines(s: string): Line[] {
  if (s === '') return [];
  return s.split(/(?<=\n)/).map((p) => {
    const eol = p.endsWith('\r\n') ? '\r\n' : p.endsWith('\n') ? '\n' : '';
    return { text: p.slice(0, p.length - eol.length), eol };
  });
}

const wsNorm = (s: string) => s.trim().replace(/\s+/g, ' ');
const clip = (s: string | undefined) =>
  s === undefined ? '<end of file>' : JSON.stringify(s.length > 120 ? s.slice(0, 117) + '...' : s);

function matchesAt(lines: Line[], old: string[], at: number, eq: (a: string, b: string) => boolean): boolean {
  if (at < 0 || at + old.length > lines.length) return false;
  return old.every((o, k) => eq(lines[at + k].text, o));
}

/** Nearest position to `expected` where `old` matches, searching outwards in both directions. */
function nearestMatch(
  lines: Line[],
  old: string[],
  expectedLine: number,
  eq: (a: string, b: string) => boolean,
): number | undefined {
  const expected = Math.min(expectedLine, lines.length); // stated line may be past the end
  for (let d = 0; d <= lines.length; d++) {
    if (matchesAt(lines, old, expected - d, eq)) return expected - d;
    if (d > 0 && matchesAt(lines, old, expected + d, eq)) return expected + d;
  }
  return undefined;
}

/**
 * Applies hunks in order to `lines` (mutated). Each hunk: stated position, then anywhere, then ignoring
 * whitespace. A hunk with nothing to match (no context, no removed lines) is placed only in an empty file:
 * anywhere else its line number alone would decide, and a model's line numbers are often a few lines off.
 */
function applyHunks(file: string, lines: Line[], hunks: PatchHunk[], log: Logger): Set<FuzzKind> {
  const crlf = lines.filter((l) => l.eol === '\r\n').length;
  const eol = crlf * 2 > lines.filter((l) => l.eol).length ? '\r\n' : '\n';
  let delta = 0; // line shift caused by the hunks already applied
  const fuzz = new Set<FuzzKind>();
  for (const h of hunks) {
    const old = h.lines.filter((l) => l.op !== '+').map((l) => l.text);
    // With no old lines, oldStart names the line *after* which to insert.
    const expected = Math.max(0, (old.length === 0 ? h.oldStart : h.oldStart - 1) + delta);
    let pos: number | undefined;
    if (old.length === 0) {
      if (lines.length)
        throw new PatchRejected(
          `the hunk adds lines with no context lines and removes none, so its place (line ${expected}) cannot be ` +
            `verified; give each hunk about 3 unchanged lines around the change`,
          { path: file, hunk: h.header },
        );
      pos = 0;
    } else if (matchesAt(lines, old, expected, (a, b) => a === b)) pos = expected;
    else {
      pos = nearestMatch(lines, old, expected, (a, b) => a === b);
      if (pos === undefined) {
        pos = nearestMatch(lines, old, expected, (a, b) => wsNorm(a) === wsNorm(b));
        if (pos !== undefined) fuzz.add('whitespace');
      }
      if (pos === undefined) {
        const at = Math.min(expected, Math.max(0, lines.length - old.length));
        const k = Math.max(
          0,
          old.findIndex((o, i) => lines[at + i]?.text !== o),
        );
        throw new PatchRejected(
          `context/removed lines not found anywhere in the file (also compared ignoring whitespace); ` +
            `at line ${at + k + 1} the hunk expects ${clip(old[k])} but the file has ${clip(lines[at + k]?.text)}`,
          { path: file, hunk: h.header },
        );
      }
      if (pos !== expected) fuzz.add('line-offset');
      log.debug('hunk applied fuzzily', { path: file, hunk: h.header, statedLine: expected + 1, actualLine: pos + 1 });
    }

    const replacement: Line[] = [];
    let k = pos;
    for (const l of h.lines) {
      if (l.op === ' ')
        replacement.push({ ...lines[k++] }); // the file's own text: keeps its whitespace on a fuzzy match
      else if (l.op === '-') k++;
      else replacement.push({ text: l.text, eol });
    }
    const last = replacement[replacement.length - 1];
    if (h.newNoNewline && last && pos + old.length === lines.length) last.eol = '';
    lines.splice(pos, old.length, ...replacement);
    delta += replacement.length - old.length;
  }
  // Lines that used to end the file (no newline) may now be followed by others.
  for (let i = 0; i < lines.length - 1; i++) if (!lines[i].eol) lines[i].eol = eol;
  return fuzz;
}

/**
 * Every existing component of `rel` below `root` is lstat-ed: symlinks anywhere on the way are refused
 * (a link could point outside the repo or into .git), and the deepest existing real path must be in root.
 */
async function inspectPath(root: string, rel: string): Promise<{ exists: boolean; mode?: number }> {
  const parts = rel.split('/');
  let cur = root;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(cur, parts[i]);
    const st = await lstat(next).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (!st) break;
    cur = next;
    const shown = parts.slice(0, i + 1).join('/');
    if (st.isSymbolicLink()) throw new PatchRejected(`refusing to write through symlink ${shown}`, { path: rel });
    if (i < parts.length - 1 && !st.isDirectory())
      throw new PatchRejected(`${shown} is not a directory`, { path: rel });
    if (i === parts.length - 1 && !st.isFile()) throw new PatchRejected('not a regular file', { path: rel });
    if (i === parts.length - 1) {
      await assertInside(root, cur, rel);
      return { exists: true, mode: st.mode & 0o7777 };
    }
  }
  await assertInside(root, cur, rel);
  return { exists: false };
}

async function assertInside(root: string, p: string, rel: string): Promise<void> {
  const real = await realpath(p);
  if (real !== root && !real.startsWith(root + path.sep))
    throw new PatchRejected('path resolves outside the repository', { path: rel });
}

interface Pending {
  before: boolean;
  content: string | null; // null = deleted
  mode?: number;
}

/**
 * Validates `diffText`, computes every resulting file in memory, and only then writes: a failing hunk
 * leaves the repo untouched. Writes go to a temp file renamed into place, so the final component is
 * replaced rather than followed.
 */
export async function applyPatch(repoDir: string, diffText: string, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const log = opts.log ?? silentLogger;
  const patch = validatePatch(diffText, { maxBytes: opts.maxBytes });
  const root = await realpath(repoDir);
  const state = new Map<string, Pending>(); // in patch order; a path may appear in several file diffs
  const fuzz = new Set<FuzzKind>();

  for (const f of patch.files) {
    let cur = state.get(f.path);
    if (!cur) {
      const info = await inspectPath(root, f.path);
      let content: string | null = null;
      if (info.exists) {
        const buf = await readFile(path.join(root, f.path));
        if (buf.includes(0)) throw new PatchRejected('target is a binary file', { path: f.path });
        content = buf.toString('utf8');
      }
      cur = { before: info.exists, content, mode: info.mode };
      state.set(f.path, cur);
    }
    if (f.change === 'added' && cur.content) throw new PatchRejected('file to create already exists', { path: f.path });
    if (f.change !== 'added' && cur.content === null)
      throw new PatchRejected('file to change does not exist', { path: f.path });
    if (f.change === 'deleted' && f.hunks.length === 0) {
      cur.content = null;
      continue;
    }
    const lines = splitLines(cur.content ?? '');
    for (const kind of applyHunks(f.path, lines, f.hunks, log)) fuzz.add(kind);
    if (f.change === 'deleted') {
      if (lines.length)
        throw new PatchRejected(`deletion leaves ${lines.length} line(s) the hunks do not remove`, { path: f.path });
      cur.content = null;
    } else {
      cur.content = lines.map((l) => l.text + l.eol).join('');
    }
  }

  const files: AppliedFile[] = [];
  for (const [rel, p] of state) {
    if (!p.before && p.content === null) continue; // created and deleted again
    files.push({ path: rel, change: !p.before ? 'added' : p.content === null ? 'deleted' : 'modified' });
  }
  const fuzzy = fuzz.size > 0;
  const result: ApplyResult = { files, fuzzy, ...(fuzzy ? { fuzz: [...fuzz] } : {}) };
  if (opts.dryRun) return result;

  for (const [rel, p] of state) {
    const abs = path.join(root, rel);
    if (p.content === null) {
      if (p.before) await rm(abs);
      continue;
    }
    await mkdir(path.dirname(abs), { recursive: true });
    const tmp = `${abs}.farm-patch-${randomBytes(6).toString('hex')}`;
    await writeFile(tmp, p.content, { flag: 'wx' });
    if (p.mode !== undefined) await chmod(tmp, p.mode); // keep e.g. the executable bit
    await rename(tmp, abs);
  }
  log.debug('patch applied', { files: files.length, fuzz: result.fuzz });
  return result;
}
