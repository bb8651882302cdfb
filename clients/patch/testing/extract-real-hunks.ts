/**
 * Writes the real-hunks fixtures: from a repository's history, commits that modify one source file in a few
 * nearby hunks, each kept as the excerpt of the file around its hunks, before and after, as one unified diff
 * with the whole excerpt as context (clients/patch/testing/real-hunks/<source>/). Deterministic for a given
 * history: candidates in `git log` order, taken evenly spaced.
 *
 *   node --import tsx clients/patch/testing/extract-real-hunks.ts --git-dir <repo or .git> --source psf/requests \
 *     --ext .py --under requests/ --count 12
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { HUNKS_DIR } from './real-hunks';

/** Lines of the file kept above the first hunk and below the last. */
const PAD = 12;
const MAX_SPAN = 40;
const MAX_CHANGED_LINES = 30;
const MAX_HUNKS = 4;

const { values } = parseArgs({
  options: {
    'git-dir': { type: 'string' },
    source: { type: 'string' },
    ext: { type: 'string', multiple: true },
    under: { type: 'string', multiple: true, default: [''] },
    count: { type: 'string', default: '12' },
  },
});
const gitDir = values['git-dir'];
const source = values.source;
const exts = values.ext ?? [];
if (!gitDir || !source || !exts.length) throw new Error('--git-dir, --source and --ext are required');

const git = (...args: string[]) =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const show = (rev: string, file: string) => git('show', `${rev}:${file}`);

interface Excerpt {
  commit: string;
  subject: string;
  file: string;
  first: number;
  before: string;
  after: string;
}

/** The commit's change to `file` as an excerpt, or why it is not a good fixture. */
function excerptOf(commit: string, subject: string, file: string): Excerpt | string {
  const before = show(`${commit}^`, file);
  const after = show(commit, file);
  if (before.includes('\r') || after.includes('\r')) return 'CRLF';
  if (before.length > 200_000) return 'large';
  const hunks = structuredPatch('a', 'b', before, after, '', '', { context: 0 }).hunks;
  if (!hunks.length || hunks.length > MAX_HUNKS) return 'hunk count';
  const changed = hunks.flatMap((h) => h.lines).filter((l) => l[0] === '+' || l[0] === '-');
  if (changed.length > MAX_CHANGED_LINES) return 'too many changed lines';
  // The tool follows the file: a commit that adds trailing whitespace the file's lines do not have is no fixture
  if (changed.some((l) => l[0] === '+' && /[ \t]$/.test(l))) return 'adds trailing whitespace';
  if (!changed.some((l) => /^[+-][ \t]+\S/.test(l))) return 'nothing indented';
  if (changed.some((l) => l.startsWith('\\'))) return 'end of file without newline';
  const start = Math.min(...hunks.map((h) => h.oldStart - (h.oldLines ? 1 : 0)));
  const end = Math.max(...hunks.map((h) => h.oldStart - (h.oldLines ? 1 : 0) + h.oldLines));
  if (end - start > MAX_SPAN) return 'span';
  const lines = before.split('\n').slice(0, -1);
  const newLines = after.split('\n').slice(0, -1);
  const first = Math.max(0, start - PAD);
  const last = Math.min(lines.length, end + PAD);
  const delta = newLines.length - lines.length;
  return {
    commit,
    subject,
    file,
    first,
    before: lines.slice(first, last).join('\n') + '\n',
    after: newLines.slice(first, last + delta).join('\n') + '\n',
  };
}

function main() {
  const log = git('log', '--no-merges', '--format=%H%x09%P%x09%s', 'HEAD').trim().split('\n');
  const candidates: Excerpt[] = [];
  for (const entry of log) {
    const [commit, parent, subject] = entry.split('\t');
    if (!parent) continue; // the first commit changes nothing
    const changed = git('diff-tree', '-r', '--no-commit-id', '--name-status', commit).trim().split('\n');
    const modified = changed
      .filter((l) => l.startsWith('M\t'))
      .map((l) => l.slice(2))
      .filter((f) => exts.some((e) => f.endsWith(e)) && values.under!.some((u) => f.startsWith(u)));
    if (!modified.length || changed.length > 6) continue;
    for (const file of modified) {
      const got = excerptOf(commit, subject, file);
      if (typeof got !== 'string') {
        candidates.push(got);
        break;
      }
    }
  }
  const count = Math.min(Number(values.count), candidates.length);
  const step = candidates.length / count;
  const picked = Array.from({ length: count }, (_, i) => candidates[Math.floor(i * step)]);
  const out = path.join(HUNKS_DIR, source!.replace('/', '+'));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  picked.forEach((e, i) => {
    const patch = structuredPatch(`a/${e.file}`, `b/${e.file}`, e.before, e.after, '', '', { context: 1e6 });
    const header = [
      `source: ${source}`,
      `commit: ${e.commit}`,
      `subject: ${e.subject}`,
      `file: ${e.file} (lines ${e.first + 1}-${e.first + e.before.split('\n').length - 1} of the parent)`,
    ];
    const name = `${String(i + 1).padStart(2, '0')}-${e.commit.slice(0, 8)}.diff`;
    writeFileSync(path.join(out, name), `${header.join('\n')}\n${formatPatch(patch, FILE_HEADERS_ONLY)}`);
  });
  process.stdout.write(`${source}: ${picked.length} of ${candidates.length} candidate commits written to ${out}\n`);
}

main();
