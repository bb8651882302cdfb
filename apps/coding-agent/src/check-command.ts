import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The command that checks a patch: the task's, else what the repo's toolchain implies. */
export function detectCheckCommand(repoDir: string, configured?: string | null): string | undefined {
  if (configured) return configured;
  const pkgPath = join(repoDir, 'package.json');
  if (existsSync(pkgPath)) {
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { scripts?: Record<string, string> };
    if (pkg.scripts?.test) return 'npm test --silent';
  }
  if (['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini'].some((f) => existsSync(join(repoDir, f)))) {
    return 'python3 -m pytest -q';
  }
  return undefined;
}

export interface CheckResult {
  ok: boolean;
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  /** Output trimmed to what explains a failure: the start and, mostly, the end. */
  output: string;
}

/** Only what a build needs: the repo's code must not see the agent's model key or git credentials. */
export function scrubbedEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    CI: 'true',
    NO_COLOR: '1',
  };
}

/**
 * Runs the check in its own process group with a timeout (the whole group is killed), a scrubbed
 * environment and ulimits on CPU seconds, file size and processes.
 */
export function runCheck(
  repoDir: string,
  command: string,
  opts: { timeoutMs: number; home: string; maxOutputChars?: number },
): Promise<CheckResult> {
  const limits = 'ulimit -t 600 -f 1048576 -u 512 2>/dev/null || true';
  const child = spawn('bash', ['-c', `${limits}; ${command}`], {
    cwd: repoDir,
    env: scrubbedEnv(opts.home),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (b: Buffer) => {
    output += b.toString('utf8');
    if (output.length > 4_000_000) output = output.slice(-2_000_000); // bounded memory for chatty tests
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL'); // group already gone; make sure the leader is too
    }
  }, opts.timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const trimmed = trimOutput(output, opts.maxOutputChars ?? 6000);
      resolve({
        ok: code === 0 && !timedOut,
        command,
        exitCode: code,
        timedOut,
        output: timedOut ? `${trimmed}\n[killed after ${opts.timeoutMs} ms timeout]` : trimmed,
      });
    });
  });
}

export function trimOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.25);
  return `${text.slice(0, head)}\n[... ${text.length - max} chars cut ...]\n${text.slice(-(max - head))}`;
}
