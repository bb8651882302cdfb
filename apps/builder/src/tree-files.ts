import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { planInputs, snapshotFiles, type RepoFiles } from '@farm/sandbox';

const exec = promisify(execFile);

/**
 * What the check planner reads of `tree` in the (bare) repository `gitDir`, without a checkout: its top-level
 * names (`git ls-tree`) and the blobs of the paths `planInputs` names (one `git cat-file --batch`).
 */
export async function treeFiles(gitDir: string, tree: string): Promise<RepoFiles> {
  const { stdout } = await exec('git', ['-C', gitDir, 'ls-tree', '--name-only', '-z', tree], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const top = stdout.split('\0').filter(Boolean);
  // cat-file --batch reads one object name per line: a name with a newline cannot be asked (nor planned on).
  const asked = planInputs(top).filter((p) => !p.includes('\n'));
  const blobs = await catFileBatch(
    gitDir,
    asked.map((p) => `${tree}:${p}`),
  );
  const files = new Map<string, string>();
  asked.forEach((p, i) => {
    const object = blobs[i];
    if (object?.type === 'blob') files.set(p, object.data.toString('utf8'));
  });
  return snapshotFiles(top, asked, files);
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
