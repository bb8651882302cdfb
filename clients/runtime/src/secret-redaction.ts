/**
 * Keeps the farm's credentials out of every byte it writes or serves: trajectories, task steps, exports, logs,
 * notes, pull request bodies. Every redactor works two ways:
 * - by value: the secrets a process was given (the settings that hold credentials, the passwords of URLs in its
 *   environment, every line of its git credentials files, where the credentials taken off `--repo` URLs are
 *   kept), in each form text carries them (as written, JSON-escaped, percent-encoded, as HTTP Basic);
 * - by shape: the user info of any `scheme://user:token@host` URL, an Authorization header's value and the
 *   well-known token formats, so a credential is removed even by a process that never held it (an export made
 *   from a shell without the farm's settings).
 */
import { readFileSync, statSync } from 'node:fs';

export type Redactor = (text: string) => string;

/** What a secret is replaced with, everywhere. */
export const SECRET_REDACTED = '[secret redacted]';

/** Values shorter than this are too generic to redact without mangling ordinary text (e.g. "k", "none"). */
export const MIN_SECRET_LENGTH = 8;

/**
 * User info without a password is a token only when this long (`https://<token>@github.com`); shorter, it names
 * an account (`ssh://git@host`, `postgres://postgres@db`), which is no secret and would mangle ordinary text.
 */
const MIN_TOKEN_AS_USER_LENGTH = 20;

/** The farm's settings whose values are credentials (as their configuration schemas declare them). */
export const SECRET_SETTINGS = [
  'OPENAI_API_KEY',
  'FARM_GIT_TOKEN',
  'FARM_FORGE_TOKEN',
  'FARM_FORGE_WEBHOOK_SECRET',
  'FARM_COMPONENT_TOKEN',
  'FARM_ADMIN_TOKEN',
  'FARM_TOKEN',
  'QDRANT_API_KEY',
] as const;

/** Settings naming files (`:`-separated) of `https://user:token@host` lines: git's credential-store format. */
export const CREDENTIALS_FILE_SETTINGS = ['FARM_GIT_CREDENTIALS_FILE'] as const;

/** An operator's own variables named as credentials (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY) are secrets too... */
const CREDENTIAL_NAME = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|SECRET_KEY|ACCESS_KEY|PRIVATE_KEY)$/i;
/** ...but these name a Kubernetes Secret; they do not hold one. */
const NAMES_OF_SECRETS = new Set(['FARM_AGENT_SECRET', 'FARM_BUILD_SECRET']);

/** `scheme://userinfo@`: the characters RFC 3986 allows in user info, less quotes (they end a JSON string). */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)([A-Za-z0-9\-._~%!$&*+,;=:]+)@/gi;
/** An Authorization header's credentials, as HTTP, a log or a JSON object writes it. */
const AUTHORIZATION = /\b(authorization["']?\s*[:=]\s*["']?\s*(?:basic|bearer|token)\s+)[A-Za-z0-9+/=._~-]{8,}/gi;
/** Token formats no ordinary text has: GitHub's, GitLab's personal tokens, OpenAI's and Anthropic's keys. */
const KNOWN_TOKEN =
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,}|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,})/g;

/** Removes credentials by their shape alone. */
export function redactSecretShapes(text: string): string {
  return text
    .replace(URL_USER_INFO, (whole, scheme: string, userInfo: string) =>
      userInfo.includes(':') || userInfo.length >= MIN_TOKEN_AS_USER_LENGTH ? `${scheme}${SECRET_REDACTED}@` : whole,
    )
    .replace(AUTHORIZATION, `$1${SECRET_REDACTED}`)
    .replace(KNOWN_TOKEN, SECRET_REDACTED);
}

/** A redactor of `secrets` (each in the forms text carries it) and of every credential's shape. */
export function secretRedactor(secrets: Iterable<string | undefined>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH) for (const form of formsOf(secret)) forms.add(form);
  }
  // The longest first: a secret containing another is replaced whole.
  const values = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const v of values) if (out.includes(v)) out = out.split(v).join(SECRET_REDACTED);
    return redactSecretShapes(out);
  };
}

/** How a secret appears in text: as written, JSON-escaped (once, and again in JSON held in a JSON string), percent-encoded. */
function formsOf(secret: string): string[] {
  const jsonOnce = JSON.stringify(secret).slice(1, -1);
  const jsonTwice = JSON.stringify(jsonOnce).slice(1, -1);
  const forms = [secret, jsonOnce, jsonTwice];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // a lone surrogate cannot be percent-encoded, so no URL carries it in that form
  }
  return forms;
}

/**
 * The secrets written in the URLs of `text`: each user info's password (or a user name long enough to be a
 * token given as the user), and the HTTP Basic value git and the forge clients send for it.
 */
export function secretsInUrls(text: string): string[] {
  const found: string[] = [];
  for (const [, , userInfo] of text.matchAll(URL_USER_INFO)) {
    const colon = userInfo.indexOf(':');
    const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
    const password = colon < 0 ? '' : userInfo.slice(colon + 1);
    const secret = password || user;
    if (safeDecode(secret).length < (password ? MIN_SECRET_LENGTH : MIN_TOKEN_AS_USER_LENGTH)) continue;
    found.push(secret, safeDecode(secret));
    found.push(Buffer.from(`${safeDecode(user)}:${safeDecode(password)}`).toString('base64'));
  }
  return found;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a variable's value is a credential: a declared setting, or one named as credentials are. */
export function isSecretSetting(name: string): boolean {
  if (NAMES_OF_SECRETS.has(name)) return false;
  return (SECRET_SETTINGS as readonly string[]).includes(name) || CREDENTIAL_NAME.test(name);
}

/**
 * The secrets held in `env`'s values: those of credential settings, and the credentials written in the URL of
 * any setting (DATABASE_URL=postgres://farm:password@db, a proxy). Files are read by secretsOfCredentialsFiles.
 */
export function secretsOfEnvironment(env: NodeJS.ProcessEnv): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (isSecretSetting(name)) found.push(value);
    if (value.includes('@')) found.push(...secretsInUrls(value));
  }
  return found;
}

/** The credentials files `env` names (FARM_GIT_CREDENTIALS_FILE, `:`-separated). */
export function credentialsFilesOf(env: NodeJS.ProcessEnv): string[] {
  return CREDENTIALS_FILE_SETTINGS.flatMap((name) => (env[name] ?? '').split(':')).filter(Boolean);
}

const readFiles = new Map<string, { mtimeMs: number; size: number; secrets: string[] }>();

/**
 * The secrets of git credentials files (one URL a line), each file read again when it changed: the farm's
 * intake adds the credentials of every `--repo` URL to one while the processes run. A file that is absent or
 * unreadable holds none here (the git client's configuration check names it at start-up).
 */
export function secretsOfCredentialsFiles(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      readFiles.delete(file);
      return [];
    }
    const known = readFiles.get(file);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.secrets;
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    const secrets = secretsInUrls(text);
    readFiles.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, secrets });
    return secrets;
  });
}

const held = { secrets: new Set<string>(), credentialsFiles: new Set<string>() };

/**
 * Secrets this process holds that its environment does not show: a token it generated or read from its state
 * directory (`farm up`'s admin and component tokens), the credentials files its git client was configured
 * with (the intake's own). Every environmentRedactor of the process redacts them from then on.
 */
export function holdSecrets(given: {
  secrets?: readonly (string | undefined)[];
  credentialsFiles?: readonly string[];
}): void {
  for (const s of given.secrets ?? []) if (s && s.length >= MIN_SECRET_LENGTH) held.secrets.add(s);
  for (const f of given.credentialsFiles ?? []) if (f) held.credentialsFiles.add(f);
}

let lastEnvironmentRedactor: { key: string; redact: Redactor } | undefined;

/**
 * The redactor of every secret `env` holds now, its credentials files included, of those the process holds
 * (holdSecrets) and of `extra` values (e.g. the tokens a command line read from a state directory). Cheap to
 * ask for again: call it per unit of work (a log line, a stored step, a served report), so credentials added
 * since (a new `--repo` URL's) are redacted too.
 */
export function environmentRedactor(
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly (string | undefined)[] = [],
): Redactor {
  const files = [...new Set([...credentialsFilesOf(env), ...held.credentialsFiles])];
  const secrets = [...secretsOfEnvironment(env), ...secretsOfCredentialsFiles(files), ...held.secrets, ...extra];
  const key = secrets.join('\0');
  if (lastEnvironmentRedactor?.key !== key) lastEnvironmentRedactor = { key, redact: secretRedactor(secrets) };
  return lastEnvironmentRedactor.redact;
}

/**
 * `value` with `redact` applied to every string in it (object keys too), walking plain objects and arrays;
 * other objects (bytes, dates, 64-bit numbers) are kept as they are. For redacting parsed JSON without ever
 * making it invalid.
 */
export function redactStrings<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => redactStrings(v, redact)) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactStrings(v, redact)])) as T;
}

/** A generated protobuf message type (protobufjs static code): what redactMessage needs of it. */
export interface MessageConversion<T> {
  fromObject(object: { [k: string]: unknown }): T;
  toObject(message: T): { [k: string]: unknown };
}

/** `message` with every string field redacted, nested messages and repeated fields included; numbers and bytes kept. */
export function redactMessage<T>(type: MessageConversion<T>, message: T | object, redact: Redactor): T {
  const plain = type.toObject(type.fromObject(message as { [k: string]: unknown }));
  return type.fromObject(redactStrings(plain, redact));
}
