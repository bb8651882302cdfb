import { runCommand } from '@farm/runtime';
import { gitCliAuth } from './credentials';
import { executableOnPath } from './executable-on-path';

/** Which git client a clone uses: the `git` command line (faster, ~2.5x on the same server) or isomorphic-git. */
export type GitClient = 'git-cli' | 'isomorphic-git';

let cliAvailable: boolean | undefined;

/** Whether `git` is on PATH (looked up once per process, in the directories: no process started). */
export function gitCliAvailable(): boolean {
  cliAvailable ??= executableOnPath('git', process.env.PATH) !== undefined;
  return cliAvailable;
}

/** The git client clones use unless told: the command line where it is installed. */
export const defaultGitClient = (): GitClient => (gitCliAvailable() ? 'git-cli' : 'isomorphic-git');

/** A failed `git` command: its arguments (never the credentials: those travel in the environment) and stderr. */
export class GitCommandFailed extends Error {
  /** ECONNREFUSED when git could not connect, ECONNRESET when the server went away mid-request: waited for. */
  readonly code?: string;
  constructor(
    readonly args: string[],
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')}: ${stderr.trim() || 'failed'}`);
    if (/Failed to connect|Couldn't connect to server|Connection refused/i.test(stderr)) this.code = 'ECONNREFUSED';
    // The server went away mid-request (a restarting farm): a read may be tried again (isConnectionLost).
    else if (
      /Empty reply from server|Connection reset by peer|Recv failure|transfer closed with outstanding read data|remote end hung up unexpectedly|early EOF/i.test(
        stderr,
      )
    )
      this.code = 'ECONNRESET';
  }
}

/**
 * Runs git in `dir` for `url`'s remote: the credentials go in this process's environment as an HTTP header
 * (never in the URL or .git/config), no prompt ever waits for a terminal, and the machine's config is not read
 * (an operator's global url.insteadOf or credential helper must not change what the farm fetches).
 */
export function gitForRemote(dir: string, url: string) {
  const { env } = gitCliAuth(url);
  return async (...args: string[]): Promise<string> => {
    try {
      const { stdout } = await runCommand('git', args, {
        cwd: dir,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (err) {
      throw new GitCommandFailed(args, String((err as { stderr?: unknown }).stderr ?? (err as Error).message));
    }
  };
}
