// Real commits of small public projects (leven, MIT; markupsafe, BSD-3-Clause: licences beside the data),
// trimmed to the files they change and the files their check needs, replayed as a model's edit_file calls with
// the drifts real models produce. Used by the replayed-commits integration test and bench/edit-drift.ts.
import fs, { readFileSync } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { structuredPatch } from 'diff';
import git from 'isomorphic-git';
import type { CheckStep } from '@farm/sandbox';

const DATA = path.join(__dirname, 'real-commits');

export interface RealCommit {
  id: string;
  repository: string;
  commit: string;
  message: string;
  language: 'python' | 'javascript';
  /** Files the commit changes (the others are kept for the check). */
  changed: string[];
  /** A check that passes on the commit (run in the sandbox). */
  check: string;
}

export const realCommits = (): RealCommit[] =>
  JSON.parse(readFileSync(path.join(DATA, 'commits.json'), 'utf8')) as RealCommit[];

export const checksOf = (c: RealCommit): CheckStep[] => [{ name: 'check', run: c.check }];

export const fileBefore = (c: RealCommit, rel: string): string =>
  readFileSync(path.join(DATA, c.id, 'before', rel), 'utf8');
export const fileAfter = (c: RealCommit, rel: string): string =>
  readFileSync(path.join(DATA, c.id, 'after', rel), 'utf8');

/** The commit's parent (the kept files) as a git checkout in `dir`, committed as the base. */
export async function checkoutParent(c: RealCommit, dir: string): Promise<string> {
  await cp(path.join(DATA, c.id, 'before'), dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const rel of await readdir(dir, { recursive: true })) {
    if (rel.startsWith('.git') || !fs.statSync(path.join(dir, rel)).isFile()) continue;
    await git.add({ fs, dir, filepath: rel.split(path.sep).join('/') });
  }
  return git.commit({ fs, dir, message: `parent of ${c.commit}`, author: { name: 't', email: 't@t' } });
}

/**
 * How the model writes old_text: `exact` (the changed lines with up to 3 lines of context, copied exactly),
 * `whitespace` (the same, dedented, tabs written as spaces, a trailing space: what real models send),
 * `minimal` (the fewest lines unique in the file, exact), `minimal-whitespace` (those, drifted).
 */
export type Drift = 'exact' | 'whitespace' | 'minimal' | 'minimal-whitespace';
export const DRIFTS: Drift[] = ['exact', 'whitespace', 'minimal', 'minimal-whitespace'];

export interface ScriptedEdit {
  path: string;
  old_text: string;
  new_text: string;
  /** 1-based line of the change in the file as it is when this edit comes (for a read before it). */
  line: number;
  /** What a careful model sends when told the text was not found or not unique: enough exact context. */
  retry: { old_text: string; new_text: string };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** The commit as edit_file calls, hunk by hunk from the top, each old_text written with `drift`. */
export function editsFor(c: RealCommit, drift: Drift): ScriptedEdit[] {
  const edits: ScriptedEdit[] = [];
  for (const rel of c.changed) {
    const before = fileBefore(c, rel);
    const after = fileAfter(c, rel);
    const lines = before.split('\n');
    let delta = 0;
    for (const h of structuredPatch('a', 'b', before, after, '', '', { context: 0 }).hunks) {
      const removed = h.lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1));
      const added = h.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1));
      const at = h.oldStart - 1 + delta;
      const end = at + removed.length;
      const text = lines.join('\n');
      const block = (k: number) => {
        const s = Math.max(0, at - k);
        const e = Math.min(lines.length, end + k);
        return {
          old_text: lines.slice(s, e).join('\n'),
          new_text: [...lines.slice(s, at), ...added, ...lines.slice(end, e)].join('\n'),
        };
      };
      const unique = (k: number) => {
        const b = block(k);
        return b.old_text.trim() !== '' && count(text, b.old_text) === 1;
      };
      let k = drift.startsWith('minimal') ? (removed.length && added.length ? 0 : 1) : 3;
      while (!unique(k) && k < lines.length) k++;
      const retry = block(Math.max(k, 3));
      const chosen = block(k);
      edits.push({
        path: rel,
        ...(drift.endsWith('whitespace') ? drifted(chosen.old_text, chosen.new_text) : chosen),
        line: at + 1,
        retry: unique(Math.max(k, 3)) ? retry : chosen,
      });
      lines.splice(at, removed.length, ...added);
      delta += added.length - removed.length;
    }
    if (lines.join('\n') !== after) throw new Error(`replaying ${c.id} ${rel} does not give the commit`);
  }
  return edits;
}

/** A model's whitespace drift: the block dedented, tabs written as two spaces, a trailing space on a line. */
export function drifted(oldText: string, newText: string): { old_text: string; new_text: string } {
  const indents = oldText
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => /^[ \t]*/.exec(l)![0]);
  const common = indents.reduce((a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  }, indents[0] ?? '');
  const redo = (t: string) =>
    t
      .split('\n')
      .map((l) => (l.startsWith(common) ? l.slice(common.length) : l.trimStart()))
      .map((l) => l.replace(/^\t+/, (tabs) => '  '.repeat(tabs.length)))
      .join('\n');
  const oldLines = redo(oldText).split('\n');
  const first = oldLines.findIndex((l) => l.trim());
  oldLines[first] += ' ';
  return { old_text: oldLines.join('\n'), new_text: redo(newText) };
}

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
  /** For an edit: the call a careful model makes after an error. */
  retry?: Record<string, unknown>;
}

/** What a good model does for the commit: read around each change, edit it, run the checks, finish. */
export function plannedCalls(c: RealCommit, drift: Drift): PlannedCall[] {
  const calls: PlannedCall[] = [];
  for (const e of editsFor(c, drift)) {
    const range = { start_line: Math.max(1, e.line - 20), end_line: e.line + 40 };
    calls.push({ name: 'read_file', args: { path: e.path, ...range } });
    calls.push({
      name: 'edit_file',
      args: { path: e.path, old_text: e.old_text, new_text: e.new_text },
      retry: { path: e.path, ...e.retry },
    });
  }
  calls.push({ name: 'run_checks', args: {} });
  calls.push({ name: 'finish', args: { summary: c.message } });
  return calls;
}
