// Pure validation of what the HTTP API is given: every refusal is an ApiError naming the field to fix.
import { createHash } from 'node:crypto';
import { badRequest } from './api-error';

/** A ChangeRequest as submitted, defaults applied; the id is absent when the server is to choose it. */
export interface ChangeRequestInput {
  changeRequestId?: string;
  title: string;
  description: string;
  requestedBy: string;
  checkCommand: string;
  repo: { url: string; baseRef: string; baseCommit: string };
  createdAtMs?: number;
}

export const DEFAULT_BASE_REF = 'main';

/**
 * The longest value of each text field, in characters (Unicode code points, as JSON Schema's maxLength
 * counts them). openapi.yaml states the same limits; a test holds the two together.
 */
export const MAX_CHARS = {
  changeRequestId: 128,
  title: 500,
  description: 100_000,
  requestedBy: 200,
  checkCommand: 10_000,
  repoUrl: 2048,
  baseRef: 255,
  reason: 2000,
} as const;
export const MAX_TITLE_CHARS = MAX_CHARS.title;
export const MAX_TEXT_CHARS = MAX_CHARS.description;
/** createdAtMs: at most 15 digits, so that every accepted value is exact as a JavaScript number. */
export const MAX_CREATED_AT_MS = 999_999_999_999_999;

// The patterns openapi.yaml gives the fields, in the subset that ECMAScript, Python and Rust regular
// expressions read alike (explicit classes: no `.`, `\s` or `\d`), so that fuzzers agree with this code.
const IPV4_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const PORT = '(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
// DNS-style labels, none `xn--` (punycode to decode), the last one not like a number (WHATWG URL would read
// the host as IPv4): every host this admits parses as a URL.
const LABEL = '(?![Xx][Nn]--)[A-Za-z0-9-]+';
const LAST_LABEL = '(?![Xx][Nn]--)[A-Za-z][A-Za-z0-9-]*';
const HOST = `(?:(?:${LABEL}\\.)*${LAST_LABEL}|(?:${IPV4_OCTET}\\.){3}${IPV4_OCTET})`;

/** The `pattern` of each field in openapi.yaml, character for character (a test compares them). */
export const INPUT_PATTERN_SOURCES = {
  /** No NUL: PostgreSQL text cannot hold it, and the texts of a request end up in text columns. */
  text: '^[^\\x00]*$',
  /** Some character other than a space, tab or line break; no NUL. */
  title: '^[^\\x00]*[^\\x00\\t\\n\\r ][^\\x00]*$',
  // Part of git branch names (farm/<id>, agt/<id>-...) and URLs: safe characters only. Empty means absent.
  changeRequestId: '^(?![A-Za-z0-9._-]*\\.lock$)(?:[A-Za-z0-9](?:[A-Za-z0-9_-]|\\.(?=[A-Za-z0-9_-]))*)?$',
  /**
   * http(s)://host[:port][/path][?query][#fragment], without spaces or control characters; no user info:
   * credentials belong to the farm's configuration (`farm up` alone takes them off a URL, see urlCredentials).
   */
  repoUrl: `^https?://${HOST}(?::${PORT}?)?(?:[/?#][^\\x00-\\x20\\x7f]*)?$`,
  /** The rules of `git check-ref-format` that matter for a name on a command line. Empty means main. */
  baseRef: '^(?![-/.])(?![^\\x00]*(?:\\.\\.|@\\{|//|\\.lock$|[/.]$))[^\\x00-\\x20\\x7f~^:?*\\[\\\\]*$',
  /** Empty means not pinned: the code-planner resolves baseRef. */
  baseCommit: '^(?:[0-9a-f]{7,64})?$',
  /** An int64 as proto3 JSON writes it, a decimal string; 15 digits keep it exact as a JavaScript number. */
  int64String: '^[0-9]{1,15}$',
} as const;
const PATTERNS = Object.fromEntries(
  Object.entries(INPUT_PATTERN_SOURCES).map(([name, source]) => [name, new RegExp(source, 'u')]),
) as Record<keyof typeof INPUT_PATTERN_SOURCES, RegExp>;
/** repo.url with user info, for a server that splits credentials off at intake (`urlCredentials`). */
const REPO_URL_WITH_USERINFO = new RegExp(
  `^https?://(?:[^\\x00-\\x20\\x7f/?#@\\\\]*@)?${HOST}(?::${PORT}?)?(?:[/?#][^\\x00-\\x20\\x7f]*)?$`,
  'u',
);

// Proto3 JSON parsers accept the lowerCamelCase name and the .proto field name; the value is the latter.
const CHANGE_REQUEST_FIELDS = {
  changeRequestId: 'change_request_id',
  repo: 'repo',
  title: 'title',
  description: 'description',
  requestedBy: 'requested_by',
  createdAtMs: 'created_at_ms',
  checkCommand: 'check_command',
};
const REPO_FIELDS = { url: 'url', baseRef: 'base_ref', baseCommit: 'base_commit' };
const CANCEL_FIELDS = { reason: 'reason', requestedBy: 'requested_by' };

/**
 * Validates the proto3 JSON of a farm.v1.ChangeRequest; unknown fields are refused by name, null and "" mean
 * the default (proto3). `localRepos`: the server can serve repositories of its own machine, so repo.url may
 * also be an absolute path. `urlCredentials`: repo.url may carry user info, which the caller then takes off
 * (or refuses) before the URL goes anywhere. Pure: the HTTP API and the bus consumer apply the same rules.
 */
export function parseChangeRequestInput(
  body: unknown,
  options: { localRepos?: boolean; urlCredentials?: boolean } = {},
): ChangeRequestInput {
  const fields = readMessage(body, '', CHANGE_REQUEST_FIELDS);
  const id = optionalString(fields.changeRequestId, 'changeRequestId', MAX_CHARS.changeRequestId);
  if (!PATTERNS.changeRequestId.test(id)) {
    throw badRequest(
      'changeRequestId may hold letters, digits, "-", "_" and single dots, start with a letter or digit and not end in .lock, at most 128 characters',
      'changeRequestId',
    );
  }
  const title = optionalText(fields.title, 'title', MAX_CHARS.title);
  if (!PATTERNS.title.test(title)) throw badRequest('title is required (and not only blanks)', 'title');
  if (fields.repo === undefined) throw badRequest('repo is required (at least repo.url)', 'repo');
  const repo = readMessage(fields.repo, 'repo', REPO_FIELDS);
  const createdAtMs = optionalInt64(fields.createdAtMs, 'createdAtMs');
  return {
    ...(id ? { changeRequestId: id } : {}),
    title: title.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ''),
    description: optionalText(fields.description, 'description', MAX_CHARS.description),
    requestedBy: optionalText(fields.requestedBy, 'requestedBy', MAX_CHARS.requestedBy),
    checkCommand: optionalText(fields.checkCommand, 'checkCommand', MAX_CHARS.checkCommand),
    repo: {
      url: repoUrl(repo.url, options.localRepos ?? false, options.urlCredentials ?? false),
      baseRef: gitRef(optionalString(repo.baseRef, 'repo.baseRef', MAX_CHARS.baseRef)) || DEFAULT_BASE_REF,
      baseCommit: commitSha(optionalString(repo.baseCommit, 'repo.baseCommit', 64)),
    },
    ...(createdAtMs === undefined ? {} : { createdAtMs }),
  };
}

/**
 * What "the same submission" means for idempotency: the content the user chose. createdAtMs is left out so
 * that a client retrying with a fresh timestamp is still recognised.
 */
export function submissionDigest(input: ChangeRequestInput & { changeRequestId: string }): string {
  const content = [
    input.changeRequestId,
    input.title,
    input.description,
    input.requestedBy,
    input.checkCommand,
    input.repo.url,
    input.repo.baseRef,
    input.repo.baseCommit,
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** The optional body of POST .../cancel: `{"reason": "...", "requestedBy": "..."}` (absent means `{}`). */
export function parseCancelInput(body: unknown): { reason: string; requestedBy: string } {
  if (body === undefined) return { reason: '', requestedBy: '' };
  const fields = readMessage(body, '', CANCEL_FIELDS);
  return {
    reason: optionalText(fields.reason, 'reason', MAX_CHARS.reason),
    requestedBy: optionalText(fields.requestedBy, 'requestedBy', MAX_CHARS.requestedBy),
  };
}

/** `?limit=` of the lists: 1..500, 50 when absent; given but empty is a 400 like any other non-integer. */
export function parseLimit(raw: string | null): number {
  if (raw === null) return 50;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < 1 || n > 500) throw badRequest('limit must be an integer from 1 to 500', 'limit');
  return n;
}

/**
 * Where an event stream resumes: after the sequence in the Last-Event-ID header (what an EventSource sends
 * on reconnecting, so it wins) or in `?after=`; 0 streams from the first event. Both are checked when both
 * are given. An empty header is no header (EventSource sends none before its first event); an empty
 * `?after=` is not a number. Numbers beyond any sequence are fine: nothing follows them.
 */
export function parseResumeAfter(lastEventId: string | undefined, after: string | null): number {
  const fromQuery = after === null ? 0 : sequenceNumber(after, 'after');
  return lastEventId ? sequenceNumber(lastEventId, 'Last-Event-ID') : fromQuery;
}

function sequenceNumber(raw: string, field: string): number {
  if (!/^[0-9]+$/.test(raw)) throw badRequest(`${field} must be an event sequence number`, field);
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

/** The given object's fields by their camelCase names; an unknown or doubly given field is refused. */
function readMessage<K extends string>(
  value: unknown,
  path: string,
  known: Record<K, string>,
): Partial<Record<K, unknown>> {
  const where = path || 'body';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`${where} must be a JSON object`, path || undefined);
  }
  const byAnyName = new Map<string, K>();
  for (const [camel, proto] of Object.entries(known) as [K, string][]) {
    byAnyName.set(camel, camel);
    byAnyName.set(proto, camel);
  }
  const out: Partial<Record<K, unknown>> = {};
  const given = new Set<K>();
  for (const [name, v] of Object.entries(value)) {
    const field = path ? `${path}.${name}` : name;
    const camel = byAnyName.get(name);
    if (!camel) throw badRequest(`unknown field ${field}`, field);
    if (given.has(camel)) throw badRequest(`field ${field} is given twice (under both of its names)`, field);
    given.add(camel);
    if (v !== null) out[camel] = v; // proto3 JSON: null means the default value
  }
  return out;
}

function optionalString(value: unknown, field: string, max: number): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`, field);
  // Code points, as JSON Schema's maxLength counts (String.length counts UTF-16 units).
  if (value.length > max && [...value].length > max) {
    throw badRequest(`${field} is longer than ${max} characters`, field);
  }
  return value;
}

/** Free text: any characters but NUL. */
function optionalText(value: unknown, field: string, max: number): string {
  const text = optionalString(value, field, max);
  if (!PATTERNS.text.test(text)) throw badRequest(`${field} must not contain NUL characters`, field);
  return text;
}

function optionalInt64(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  // proto3 JSON writes int64 as a decimal string; numbers are accepted too.
  const n = typeof value === 'string' && PATTERNS.int64String.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_CREATED_AT_MS) {
    throw badRequest(`${field} must be an integer from 0 to ${MAX_CREATED_AT_MS} (epoch milliseconds)`, field);
  }
  return n;
}

function repoUrl(value: unknown, localRepos: boolean, urlCredentials: boolean): string {
  const url = optionalString(value, 'repo.url', MAX_CHARS.repoUrl);
  if (!url) throw badRequest('repo.url is required', 'repo.url');
  if (localRepos && (url.startsWith('/') || url.startsWith('file:///')) && PATTERNS.text.test(url)) return url;
  if (!(urlCredentials ? REPO_URL_WITH_USERINFO : PATTERNS.repoUrl).test(url)) {
    throw badRequest(
      `repo.url must be an http(s) git remote (smart HTTP), e.g. https://git.example.com/app.git${localRepos ? ', or the absolute path of a repository on the farm’s machine' : ''}; got ${JSON.stringify(url.slice(0, 100))}`,
      'repo.url',
    );
  }
  return url;
}

function gitRef(ref: string): string {
  if (!PATTERNS.baseRef.test(ref)) {
    throw badRequest(`repo.baseRef is not a valid git branch, tag or commit: ${JSON.stringify(ref)}`, 'repo.baseRef');
  }
  return ref;
}

function commitSha(sha: string): string {
  if (!PATTERNS.baseCommit.test(sha)) throw badRequest('repo.baseCommit must be a hex commit id', 'repo.baseCommit');
  return sha;
}
