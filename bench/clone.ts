/**
 * What a shallow clone costs the farm: a task's clone (cloneAtCommit, depth 1 at the tip) with isomorphic-git
 * and with the git command line, against `git clone --depth 1` measured on the same smart-HTTP server in the
 * same run. The repository is a bare copy of `--repo` (default: this one's history).
 *
 *   node --import tsx bench/clone.ts [--runs 5] [--repo /path/to/a/clone]
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { cloneAtCommit, startGitHttpServer, type GitClient } from '@farm/git';
import { ROOT, median } from './process-timing';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, repo: { type: 'string', default: ROOT } },
});
const runs = Number(values.runs);
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
// The server runs in this process: a clone from it must not block the event loop.
const gitAsync = promisify(execFile);

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-bench-clone-'));
  const server = await startGitHttpServer({ root: path.join(tmp, 'srv') });
  try {
    git('clone', '--quiet', '--bare', '--no-local', values.repo, path.join(tmp, 'srv', 'bench.git'));
    const url = server.repoUrl('bench.git');
    const branch = git('-C', values.repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    const commit = git('-C', path.join(tmp, 'srv', 'bench.git'), 'rev-parse', branch).trim();
    const files = git('-C', path.join(tmp, 'srv', 'bench.git'), 'ls-tree', '-r', '--name-only', commit).split('\n');

    let n = 0;
    const timeRuns = async (clone: (dir: string) => Promise<unknown>) => {
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const dir = path.join(tmp, `c${n++}`);
        const t0 = performance.now();
        await clone(dir);
        ms.push(performance.now() - t0);
        rmSync(dir, { recursive: true, force: true });
      }
      return median(ms);
    };
    const viaClone = (via: GitClient) => (dir: string) => cloneAtCommit({ url, ref: branch, commit, dir, via });
    const nativeMs = await timeRuns((dir) =>
      gitAsync('git', ['clone', '--quiet', '--depth', '1', '-b', branch, url, dir]),
    );
    const isoMs = await timeRuns(viaClone('isomorphic-git'));
    const cliMs = await timeRuns(viaClone('git-cli'));

    console.log(
      `shallow clone of ${branch} (${files.length - 1} files), median of ${runs} runs, git ${git('--version').trim()}`,
    );
    const row = (label: string, ms: number) =>
      console.log(`  ${label.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms   ${(ms / nativeMs).toFixed(2)}x`);
    row('git clone --depth 1', nativeMs);
    row('cloneAtCommit via isomorphic-git', isoMs);
    row('cloneAtCommit via git-cli (default)', cliMs);
    console.log(`isomorphic-git / native git: ${(isoMs / nativeMs).toFixed(2)}x`);
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
