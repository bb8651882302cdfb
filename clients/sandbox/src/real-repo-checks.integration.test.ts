// A real repository's test suite that needs loopback sockets, run as the farm runs a check: boltons' own
// tests/test_socketutils.py (servers and clients on 127.0.0.1), from its source distribution on PyPI (the
// registry the test command installs pytest from), in the sandbox with the default network: none but its own
// loopback (its conftest.py predates pytest 9's hook signature and is not needed: --noconftest). Before the
// sandbox brought `lo` up, 2 of its 11 tests failed with "Network is unreachable" on 127.0.0.1.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runChecks } from './checks';

const exec = promisify(execFile);
const BOLTONS = 'boltons==25.0.0';
const CACHE = path.resolve(__dirname, '../../../.cache/real-repos');

/** The sdist, downloaded once into the clone's cache (pip checks it against PyPI's hashes). */
async function boltonsSource(into: string): Promise<string> {
  const archive = path.join(CACHE, 'boltons-25.0.0.tar.gz');
  if (!existsSync(archive)) {
    mkdirSync(CACHE, { recursive: true });
    await exec('python3', ['-m', 'pip', 'download', BOLTONS, '--no-deps', '--no-binary', ':all:', '-q', '-d', CACHE], {
      timeout: 120_000,
    });
  }
  await exec('tar', ['xzf', archive, '-C', into]);
  return path.join(into, 'boltons-25.0.0');
}

test("boltons' socket tests pass inside the sandbox: the check has its own loopback and no other network", async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'real-repo-'));
  try {
    const repo = await boltonsSource(work);
    const result = await runChecks(repo, [
      {
        name: 'socket tests',
        run: 'python3 -m pytest -q -p no:cacheprovider --noconftest tests/test_socketutils.py',
        timeoutSeconds: 120,
      },
    ]);
    const step = result.steps[0];
    expect(result.isolation?.network).toBe('namespace'); // no host network: the check is contained
    expect(step.timedOut).toBe(false);
    expect(step.output).toMatch(/\d+ passed/);
    expect(step.output).not.toMatch(/Network is unreachable|failed|error/i);
    expect(result.ok).toBe(true);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
