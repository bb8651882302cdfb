import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { ConfigError, holdSecrets, z } from '@farm/runtime';

/** Git credentials, kept out of URLs (and so out of clones' .git/config, logs and the checks' environment). */
export const gitCredentialsConfigSchema = z.object({
  /** A token (or password) for every HTTPS remote, sent with FARM_GIT_USERNAME (default `x-access-token`). */
  FARM_GIT_TOKEN: z.string().optional(),
  FARM_GIT_USERNAME: z.string().default('x-access-token'),
  /**
   * Files (separated by `:`) of `https://user:token@host[/path]` lines (git's credential-store format), matched
   * by host and path; read again when they change.
   */
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

let files: { path: string; mtimeMs: number; size: number; entries: StoredCredential[] }[] = [];
let fallback: GitAuth | undefined;

/** Sets the credentials every git operation of this process uses; called once by each entry point. */
export function configureGitCredentials(c: GitCredentialsConfig): void {
  fallback = c.FARM_GIT_TOKEN ? { username: c.FARM_GIT_USERNAME, password: c.FARM_GIT_TOKEN } : undefined;
  files = (c.FARM_GIT_CREDENTIALS_FILE ?? '')
    .split(':')
    .filter(Boolean)
    .map((path) => ({ path, mtimeMs: -1, size: -1, entries: [] }));
  storedCredentials(); // a file that cannot be read is a configuration error at start-up
  // Whatever this process writes is redacted of them (logs, and every text redacted by environmentRedactor).
  holdSecrets({ secrets: [c.FARM_GIT_TOKEN], credentialsFiles: files.map((f) => f.path) });
}

/** Every configured file's entries; a file is read again when it changed (the intake appends to one). */
function storedCredentials(): StoredCredential[] {
  for (const f of files) {
    const st = existsSync(f.path) ? statSync(f.path) : undefined;
    if (!st && f.mtimeMs === -1) readCredentialsFile(f.path); // throws the ConfigError naming the file
    if (st && (st.mtimeMs !== f.mtimeMs || st.size !== f.size)) {
      f.entries = readCredentialsFile(f.path);
      f.mtimeMs = st.mtimeMs;
      f.size = st.size;
    }
  }
  return files.flatMap((f) => f.entries);
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
  const match = storedCredentials()
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

/**
 * Splits credentials off a repository URL where a change request enters the farm: they are kept in the intake
 * file (git's credential-store format, mode 600, one of FARM_GIT_CREDENTIALS_FILE's files, so every git
 * client of the farm finds them by host and path) and the bare URL travels on: they must not reach a message,
 * a row, a prompt or a log. (A farm without such a file refuses the URL: the orchestrator's default intake.)
 */
export function takeCredentialsFromUrl(url: string, intakeFile: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url; // not a URL: the validator says so
  }
  if (!u.username && !u.password) return url;
  const bare = new URL(u.toString());
  bare.username = '';
  bare.password = '';
  const where = `@${u.host}${u.pathname.replace(/\/+$/, '')}`;
  const line = `${u.protocol}//${u.username}:${u.password}${where}`;
  const known = existsSync(intakeFile) ? readFileSync(intakeFile, 'utf8').split('\n').filter(Boolean) : [];
  if (!known.includes(line)) {
    // The newest credentials for a repository replace older ones (a rotated token).
    const others = known.filter((l) => !(l.startsWith(u.protocol) && l.endsWith(where)));
    writeFileSync(intakeFile, [...others, line].map((l) => `${l}\n`).join(''), { mode: 0o600 });
    chmodSync(intakeFile, 0o600);
  }
  return bare.toString();
}
