import { readFileSync } from 'node:fs';
import { ConfigError, z } from '@farm/runtime';

/** Git credentials, kept out of URLs (and so out of clones' .git/config, logs and the checks' environment). */
export const gitCredentialsConfigSchema = z.object({
  /** A token (or password) for every HTTPS remote, sent with FARM_GIT_USERNAME (default `x-access-token`). */
  FARM_GIT_TOKEN: z.string().optional(),
  FARM_GIT_USERNAME: z.string().default('x-access-token'),
  /** A file of `https://user:token@host[/path]` lines (git's credential-store format), matched by host and path. */
  FARM_GIT_CREDENTIALS_FILE: z.string().optional(),
});
export type GitCredentialsConfig = z.infer<typeof gitCredentialsConfigSchema>;

export interface GitAuth {
  username: string;
  password: string;
}

interface StoredCredential extends GitAuth {
  protocol: string;
  host: string;
  path: string;
}

let stored: StoredCredential[] = [];
let fallback: GitAuth | undefined;

/** Sets the credentials every git operation of this process uses; called once by each entry point. */
export function configureGitCredentials(c: GitCredentialsConfig): void {
  fallback = c.FARM_GIT_TOKEN ? { username: c.FARM_GIT_USERNAME, password: c.FARM_GIT_TOKEN } : undefined;
  stored = c.FARM_GIT_CREDENTIALS_FILE ? readCredentialsFile(c.FARM_GIT_CREDENTIALS_FILE) : [];
}

function readCredentialsFile(file: string): StoredCredential[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`FARM_GIT_CREDENTIALS_FILE: cannot read ${file}: ${(err as Error).message}`);
  }
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((line, i) => {
      let u: URL;
      try {
        u = new URL(line);
      } catch {
        throw new ConfigError(`FARM_GIT_CREDENTIALS_FILE: line ${i + 1} is not a URL like https://user:token@host`);
      }
      return {
        protocol: u.protocol,
        host: u.host,
        path: u.pathname.replace(/\/+$/, ''),
        username: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
      };
    });
}

/**
 * The URL without its user info, and the credentials to send for it: those written in the URL, else the
 * credentials file's most specific match, else the token from the environment.
 */
export function splitCredentials(url: string): { url: string; auth?: GitAuth } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url };
  }
  if (u.username || u.password) {
    const auth = { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
    u.username = '';
    u.password = '';
    return { url: u.toString(), auth };
  }
  const match = stored
    .filter((c) => c.protocol === u.protocol && c.host === u.host && (c.path === '' || u.pathname.startsWith(c.path)))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return { url, auth: match ? { username: match.username, password: match.password } : fallback };
}

/** A URL fit for logs and error messages: no user info. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/)[^/@\s]*@/, '$1');
}

/**
 * For the git command line: the bare URL, and environment that sends its credentials as an HTTP header for
 * that one process (GIT_CONFIG_* variables: nothing is written to .git/config or shown in `ps`).
 */
export function gitCliAuth(url: string): { url: string; env: Record<string, string> } {
  const { url: bare, auth } = splitCredentials(url);
  if (!auth) return { url: bare, env: {} };
  const basic = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
  return {
    url: bare,
    env: {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    },
  };
}
