// Real changes of real files, as test data for edits: excerpts of source files around one commit's hunks, before
// and after the commit, from agent-farm's own history (TypeScript), pallets/itsdangerous and psf/requests
// (Python, licences beside the data) and sindresorhus/ky (TypeScript indented with tabs). Written by
// extract-real-hunks.ts; each file names its repository, commit and lines.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const HUNKS_DIR = path.join(__dirname, 'real-hunks');

export interface RealHunks {
  /** <source>/<file name>: stable, to name a case in a test. */
  id: string;
  source: string;
  commit: string;
  subject: string;
  path: string;
  before: string;
  after: string;
}

/** One fixture: a header (`key: value` lines) and a unified diff whose one hunk holds the whole excerpt. */
export function parseRealHunks(id: string, text: string): RealHunks {
  const header = new Map<string, string>();
  const lines = text.split('\n');
  let i = 0;
  for (; !lines[i].startsWith('--- '); i++) {
    const at = lines[i].indexOf(': ');
    header.set(lines[i].slice(0, at), lines[i].slice(at + 2));
  }
  const before: string[] = [];
  const after: string[] = [];
  for (const line of lines.slice(i + 3, -1)) {
    if (line[0] !== '+') before.push(line.slice(1));
    if (line[0] !== '-') after.push(line.slice(1));
  }
  const field = (k: string) => {
    const v = header.get(k);
    if (v === undefined) throw new Error(`${id}: no "${k}:" line`);
    return v;
  };
  return {
    id,
    source: field('source'),
    commit: field('commit'),
    subject: field('subject'),
    path: field('file').replace(/ \(.*$/, ''),
    before: before.map((l) => `${l}\n`).join(''),
    after: after.map((l) => `${l}\n`).join(''),
  };
}

/** Every fixture, sources and files in name order. */
export function realHunks(): RealHunks[] {
  return readdirSync(HUNKS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((source) =>
      readdirSync(path.join(HUNKS_DIR, source))
        .filter((f) => f.endsWith('.diff'))
        .sort()
        .map((f) => parseRealHunks(`${source}/${f}`, readFileSync(path.join(HUNKS_DIR, source, f), 'utf8'))),
    );
}
