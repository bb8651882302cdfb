import { spawn } from 'node:child_process';
import { planInputs, snapshotFiles, type RepoFiles } from '@farm/sandbox';

/** A commit as the in-place build needs it: its tree, parents and committer time, and its tree's top-level names. */
export interface CommitAndTop {
  tree: string;
  parents: string[];
  /** The committer's timestamp (seconds since the epoch). */
  committedAt: number;
  topLevel: string[];
}

/** `commit` and the names at the top of its tree, in one `git cat-file --batch`; undefined when it is not a commit. */
export async function readCommitAndTop(gitDir: string, commit: string): Promise<CommitAndTop | undefined> {
  const [object, treeObject] = await catFileBatch(gitDir, [`${commit}^{commit}`, `${commit}^{tree}`]);
  if (object?.type !== 'commit' || treeObject?.type !== 'tree') return undefined;
  const text = object.data.toString('utf8');
  const end = text.indexOf('\n\n');
  const header = end < 0 ? text : text.slice(0, end);
  const field = (name: string) =>
    header
      .split('\n')
      .filter((line) => line.startsWith(`${name} `))
      .map((line) => line.slice(name.length + 1));
  const committer = /(\d+) [+-]\d{4}$/.exec(field('committer')[0] ?? '');
  const [tree] = field('tree');
  if (!tree || !committer) return undefined;
  // A SHA-256 repository's object ids are 32 bytes in a tree object, 64 hex digits in a commit's.
  const idBytes = tree.length / 2;
  return {
    tree,
    parents: field('parent'),
    committedAt: Number(committer[1]),
    topLevel: treeNames(treeObject.data, idBytes),
  };
}

/** The entry names of a raw tree object: `<mode> <name>\0<binary object id>` each. */
export function treeNames(tree: Buffer, idBytes = 20): string[] {
  const names: string[] = [];
  for (let at = 0; at < tree.length;) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space);
    if (space < 0 || nul < 0) throw new Error('git tree object: malformed entry');
    names.push(tree.subarray(space + 1, nul).toString('utf8'));
    at = nul + 1 + idBytes;
  }
  return names;
}

/**
 * What the check planner reads of `tree` in the (bare) repository `gitDir`, without a checkout: its top-level
 * names (given) and the blobs of the paths `planInputs` names (one `git cat-file --batch`).
 */
export async function treeFiles(gitDir: string, tree: string, topLevel: string[]): Promise<RepoFiles> {
  // cat-file --batch reads one object name per line: a name with a newline cannot be asked (nor planned on).
  const asked = planInputs(topLevel).filter((p) => !p.includes('\n'));
  const blobs = await catFileBatch(
    gitDir,
    asked.map((p) => `${tree}:${p}`),
  );
  const files = new Map<string, string>();
  asked.forEach((p, i) => {
    const object = blobs[i];
    if (object?.type === 'blob') files.set(p, object.data.toString('utf8'));
  });
  return snapshotFiles(topLevel, asked, files);
}

interface GitObject {
  type: string;
  data: Buffer;
}

/** `git cat-file --batch` over `specs`: each one's object, or undefined when missing. */
function catFileBatch(gitDir: string, specs: string[]): Promise<(GitObject | undefined)[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch exited ${code}: ${err.trim()}`));
      try {
        resolve(parseBatch(Buffer.concat(out), specs.length));
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.end(specs.map((s) => `${s}\n`).join(''));
  });
}

/** Answers of `git cat-file --batch`: `<oid> <type> <size>\n<data>\n`, or `<name> missing\n` (or ambiguous). */
export function parseBatch(buf: Buffer, count: number): (GitObject | undefined)[] {
  const objects: (GitObject | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const eol = buf.indexOf(0x0a, at);
    if (eol < 0) throw new Error('git cat-file --batch: answer cut short');
    const header = buf.subarray(at, eol).toString('utf8');
    at = eol + 1;
    const m = /^[0-9a-f]{40,64} (\S+) (\d+)$/.exec(header);
    if (!m) {
      objects.push(undefined); // missing or ambiguous
      continue;
    }
    const size = Number(m[2]);
    objects.push({ type: m[1], data: buf.subarray(at, at + size) });
    at += size + 1;
  }
  return objects;
}
