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
export const MAX_TITLE_CHARS = 500;
export const MAX_TEXT_CHARS = 100_000;

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

// The id becomes part of git branch names (farm/<id>, agt/<id>-...) and URLs: keep it to safe characters.
const ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]|\.(?=[A-Za-z0-9_-])){0,127}$/;

/**
 * Validates the proto3 JSON of a farm.v1.ChangeRequest; unknown fields are refused by name. `localRepos`:
 * the server can serve repositories of its own machine, so repo.url may also be an absolute path.
 */
export function parseChangeRequestInput(body: unknown, options: { localRepos?: boolean } = {}): ChangeRequestInput {
  const fields = readMessage(body, '', CHANGE_REQUEST_FIELDS);
  const id = optionalString(fields.changeRequestId, 'changeRequestId', 128);
  if (id && (!ID_PATTERN.test(id) || id.endsWith('.lock'))) {
    throw badRequest(
      'changeRequestId may hold letters, digits, "-", "_" and single dots, start with a letter or digit, at most 128 characters',
      'changeRequestId',
    );
  }
  const title = optionalString(fields.title, 'title', MAX_TITLE_CHARS).trim();
  if (!title) throw badRequest('title is required', 'title');
  if (fields.repo === undefined) throw badRequest('repo is required (at least repo.url)', 'repo');
  const repo = readMessage(fields.repo, 'repo', REPO_FIELDS);
  const createdAtMs = optionalInt64(fields.createdAtMs, 'createdAtMs');
  return {
    ...(id ? { changeRequestId: id } : {}),
    title,
    description: optionalString(fields.description, 'description', MAX_TEXT_CHARS),
    requestedBy: optionalString(fields.requestedBy, 'requestedBy', 200),
    checkCommand: optionalString(fields.checkCommand, 'checkCommand', 10_000),
    repo: {
      url: repoUrl(repo.url, options.localRepos ?? false),
      baseRef: gitRef(optionalString(repo.baseRef, 'repo.baseRef', 255)) || DEFAULT_BASE_REF,
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
    reason: optionalString(fields.reason, 'reason', 2000),
    requestedBy: optionalString(fields.requestedBy, 'requestedBy', 200),
  };
}

/** `?limit=` of the list: 1..500, 50 when absent. */
export function parseLimit(raw: string | null): number {
  if (raw === null || raw === '') return 50;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 500) throw badRequest('limit must be an integer from 1 to 500', 'limit');
  return n;
}

/**
 * Where an event stream resumes: after the sequence in the Last-Event-ID header (what an EventSource sends
 * on reconnecting, so it wins) or in `?after=`; 0 streams from the first event.
 */
export function parseResumeAfter(lastEventId: string | undefined, after: string | null): number {
  const [raw, field] =
    lastEventId !== undefined && lastEventId !== '' ? [lastEventId, 'Last-Event-ID'] : [after, 'after'];
  if (raw === null || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw.trim())) throw badRequest(`${field} must be an event sequence number`, field);
  return Number(raw.trim());
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
  for (const [name, v] of Object.entries(value)) {
    const field = path ? `${path}.${name}` : name;
    const camel = byAnyName.get(name);
    if (!camel) throw badRequest(`unknown field ${field}`, field);
    if (out[camel] !== undefined) throw badRequest(`field ${field} is given twice`, field);
    if (v !== null) out[camel] = v; // proto3 JSON: null means the default value
  }
  return out;
}

function optionalString(value: unknown, field: string, max: number): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`, field);
  if (value.length > max) throw badRequest(`${field} is longer than ${max} characters`, field);
  return value;
}

function optionalInt64(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  // proto3 JSON writes int64 as a decimal string; numbers are accepted too.
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw badRequest(`${field} must be a non-negative integer (epoch milliseconds)`, field);
  }
  return n;
}

function repoUrl(value: unknown, localRepos: boolean): string {
  const url = optionalString(value, 'repo.url', 2048);
  if (!url) throw badRequest('repo.url is required', 'repo.url');
  if (localRepos && (url.startsWith('/') || url.startsWith('file:///'))) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`repo.url is not a URL: ${JSON.stringify(url.slice(0, 100))}`, 'repo.url');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname || /\s/.test(url)) {
    throw badRequest(
      `repo.url must be an http(s) git remote (smart HTTP), e.g. https://git.example.com/app.git${localRepos ? ', or the absolute path of a repository on the farm’s machine' : ''}`,
      'repo.url',
    );
  }
  return url;
}

/** The rules of `git check-ref-format` that matter for a name given on a command line. */
function gitRef(ref: string): string {
  if (!ref) return ref;
  const bad =
    /[\s~^:?*[\\]/.test(ref) ||
    [...ref].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) ||
    ref.includes('..') ||
    ref.includes('@{') ||
    ref.includes('//') ||
    /^[-/.]/.test(ref) ||
    /[/.]$/.test(ref) ||
    ref.endsWith('.lock');
  if (bad)
    throw badRequest(`repo.baseRef is not a valid git branch, tag or commit: ${JSON.stringify(ref)}`, 'repo.baseRef');
  return ref;
}

function commitSha(sha: string): string {
  if (sha && !/^[0-9a-f]{7,64}$/.test(sha))
    throw badRequest('repo.baseCommit must be a hex commit id', 'repo.baseCommit');
  return sha;
}
