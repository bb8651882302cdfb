// Validation of what the HTTP API is given, against openapi.yaml: every refusal is an ApiError naming the field
// to fix. Pure but for reading the document once.
import { createHash } from 'node:crypto';
import type { SchemaViolation } from '@farm/http-edge';
import { badRequest, type ApiError } from './api-error';
import { apiDocument } from './api-document';

/** A ChangeRequest as submitted, defaults applied; the id is absent when the server is to choose it. */
export interface ChangeRequestInput {
  changeRequestId?: string;
  title: string;
  description: string;
  requestedBy: string;
  checkCommand: string;
  repo: { url: string; baseRef: string; baseCommit: string };
  createdAtMs?: number;
  /** A farm/ branch to push the result to instead of farm/<id> (a follow-up's pull request branch). */
  integrationBranch?: string;
  /** The plan waits for a person's approval whatever the farm's policy. */
  requireApproval?: boolean;
}

export const DEFAULT_BASE_REF = 'main';

/** What the API accepts and refuses is openapi.yaml's ChangeRequestInput and CancelInput; these are its words. */
const REFUSALS: Record<string, (value: unknown) => string> = {
  changeRequestId: () =>
    'changeRequestId may hold letters, digits, "-", "_" and single dots, start with a letter or digit and not end in .lock, at most 128 characters',
  title: () => 'title is required (and not only blanks)',
  repo: () => 'repo is required (at least repo.url)',
  'repo.baseRef': (ref) => `repo.baseRef is not a valid git branch, tag or commit: ${JSON.stringify(ref)}`,
  'repo.baseCommit': () => 'repo.baseCommit must be a hex commit id',
  integrationBranch: (b) =>
    `integrationBranch must be one of the farm's own branches (farm/...), a valid git branch name: ${JSON.stringify(b)}`,
  createdAtMs: () => 'createdAtMs must be an integer from 0 to 999999999999999 (epoch milliseconds)',
};
const repoUrlRefusal = (url: unknown, localRepos: boolean) =>
  `repo.url must be an http(s) git remote (smart HTTP), e.g. https://git.example.com/app.git${localRepos ? ', or the absolute path of a repository on the farm’s machine' : ''}; got ${JSON.stringify(String(url ?? '').slice(0, 100))}`;

/** The proto3 JSON names a field may be given under: lowerCamelCase and the .proto name. */
const protoName = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camelName = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * repo.url with user info, for a server that splits credentials off at intake (`urlCredentials`): the
 * document's rule with `user:password@` allowed before the host.
 */
function repoUrlWithUserInfo(): RegExp {
  const schemas = (
    apiDocument().document.components as {
      schemas: Record<string, { properties: Record<string, { pattern: string }> }>;
    }
  ).schemas;
  const pattern = schemas.RepoRefInput.properties.url.pattern;
  const widened = pattern.replace('^https?://', '^https?://(?:[^\\x00-\\x20\\x7f/?#@\\\\]*@)?');
  if (widened === pattern) throw new Error('openapi.yaml: repo.url no longer starts with ^https?://');
  return new RegExp(widened, 'u');
}
let userInfoUrl: RegExp | undefined;
/** A repository on the server's own machine (`localRepos`): an absolute path, without NUL. */
const isLocalRepo = (url: string) => (url.startsWith('/') || url.startsWith('file:///')) && !url.includes('\0');

/**
 * Validates the proto3 JSON of a farm.v1.ChangeRequest against openapi.yaml's ChangeRequestInput: unknown
 * fields are refused by name, null and "" mean the default (proto3). `localRepos`: the server can serve
 * repositories of its own machine, so repo.url may also be an absolute path. `urlCredentials`: repo.url may
 * carry user info, which the caller then takes off (or refuses) before the URL goes anywhere. Pure: the
 * HTTP API and the bus consumer apply the same rules.
 */
export function parseChangeRequestInput(
  body: unknown,
  options: { localRepos?: boolean; urlCredentials?: boolean } = {},
): ChangeRequestInput {
  const url = (body as { repo?: { url?: unknown } } | null)?.repo?.url;
  const widenedUrl =
    typeof url === 'string' &&
    ((options.localRepos && isLocalRepo(url)) ||
      (options.urlCredentials && (userInfoUrl ??= repoUrlWithUserInfo()).test(url)));
  const problems = apiDocument()
    .schema('ChangeRequestInput')(body)
    // The document's rule for repo.url, widened by the server's options.
    .filter((v) => !(widenedUrl && v.field === 'repo.url' && v.keyword === 'pattern'));
  // The id first: a request refused for anything else is recorded under it, which needs a usable one.
  const problem = problems.find((v) => v.field && camelName(v.field) === 'changeRequestId') ?? problems[0];
  if (problem) {
    throw problem.field === 'repo.url' && ['pattern', 'required'].includes(problem.keyword)
      ? badRequest(
          problem.keyword === 'required' ? 'repo.url is required' : repoUrlRefusal(url, !!options.localRepos),
          'repo.url',
        )
      : refusal(problem, body);
  }
  const fields = body as Record<string, unknown>;
  const repo = fields.repo as Record<string, unknown>;
  const id = given(fields, 'changeRequestId');
  const createdAtMs = given(fields, 'createdAtMs');
  const integrationBranch = given(fields, 'integrationBranch');
  const requireApproval = given(fields, 'requireApproval') === true;
  // A title is one line: what a multi-line one says after its first line leads the description, not lost.
  const [title, ...more] = String(fields.title)
    .replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
    .split(/\r?\n/);
  const description = [more.join('\n').trim(), String(given(fields, 'description') ?? '')].filter(Boolean);
  return {
    ...(id ? { changeRequestId: String(id) } : {}),
    title: title.trimEnd(),
    description: description.join('\n\n'),
    requestedBy: String(given(fields, 'requestedBy') ?? ''),
    checkCommand: String(given(fields, 'checkCommand') ?? ''),
    repo: {
      url: String(repo.url),
      baseRef: String(given(repo, 'baseRef') || DEFAULT_BASE_REF),
      baseCommit: String(given(repo, 'baseCommit') ?? ''),
    },
    ...(createdAtMs === undefined ? {} : { createdAtMs: Number(createdAtMs) }),
    ...(integrationBranch ? { integrationBranch: String(integrationBranch) } : {}),
    ...(requireApproval ? { requireApproval } : {}),
  };
}

/** A field under either of its names (the document allows one); null, the proto3 default, is absent. */
function given(fields: Record<string, unknown>, camel: string): unknown {
  return fields[camel] ?? fields[protoName(camel)] ?? undefined;
}

/** The 400 for the document's first objection, naming the field and saying what it expects. */
function refusal(v: SchemaViolation, body: unknown): ApiError {
  const field = v.field;
  const where = field ?? 'body';
  const value = field?.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], body);
  const own = field ? REFUSALS[camelName(field)] : undefined;
  const limit = v.params.limit;
  let message: string;
  if (own && ['pattern', 'required', 'anyOf', 'minLength'].includes(v.keyword)) message = own(value);
  else if (v.keyword === 'required') message = `${where} is required`;
  else if (v.keyword === 'additionalProperties') message = `unknown field ${where}`;
  else if (v.keyword === 'not') message = `field ${where} is given twice (under both of its names)`;
  else if (v.keyword === 'maxLength') message = `${where} is longer than ${String(limit)} characters`;
  else if (v.keyword === 'type') {
    const type = String(v.params.type)
      .split(',')
      .find((t) => t !== 'null');
    message = `${where} must be ${type === 'object' ? 'a JSON object' : `a ${String(type)}`}`;
  } else if (v.keyword === 'pattern' && v.parentSchema?.pattern === '^[^\\x00]*$') {
    message = `${where} must not contain NUL characters`;
  } else message = `${where} ${v.message}`;
  return badRequest(message, field);
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
    ...(input.integrationBranch ? [input.integrationBranch] : []),
    ...(input.requireApproval ? ['require-approval'] : []),
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** The optional body of POST .../cancel (openapi.yaml's CancelInput): `{"reason", "requestedBy"}`, absent `{}`. */
export function parseCancelInput(body: unknown): { reason: string; requestedBy: string } {
  if (body === undefined) return { reason: '', requestedBy: '' };
  const problem = apiDocument().schema('CancelInput')(body)[0];
  if (problem) throw refusal(problem, body);
  const fields = body as Record<string, unknown>;
  return { reason: String(given(fields, 'reason') ?? ''), requestedBy: String(given(fields, 'requestedBy') ?? '') };
}

/** What a person decided about a waiting plan: POST .../approve (ApproveInput, optional) or .../reject. */
export interface PlanDecisionInput {
  reason: string;
  removeTasks: string[];
  goals: Record<string, string>;
  parallelism?: number;
}

export function parseApproveInput(body: unknown): PlanDecisionInput {
  if (body === undefined) return { reason: '', removeTasks: [], goals: {} };
  const problem = apiDocument().schema('ApproveInput')(body)[0];
  if (problem) throw refusal(problem, body);
  const f = body as {
    reason?: string | null;
    removeTasks?: string[];
    goals?: Record<string, string>;
    parallelism?: number;
  };
  return {
    reason: f.reason ?? '',
    removeTasks: [...new Set(f.removeTasks ?? [])],
    goals: f.goals ?? {},
    ...(f.parallelism === undefined ? {} : { parallelism: f.parallelism }),
  };
}

export function parseRejectInput(body: unknown): PlanDecisionInput {
  const problem = apiDocument().schema('RejectInput')(body)[0];
  if (problem) throw refusal(problem, body);
  return { reason: String((body as { reason: string }).reason).trim(), removeTasks: [], goals: {} };
}

/** `?limit=` of the lists (openapi.yaml: an integer in bounds, a default when absent); given but empty is a 400. */
export function parseLimit(raw: string | null): number {
  const limit = apiDocument().parameter('/v1/change-requests', 'get', 'limit');
  if (raw === null) return Number(limit.schema.default);
  if (limit.check(raw).length) {
    const { minimum, maximum } = limit.schema;
    throw badRequest(`limit must be an integer from ${String(minimum)} to ${String(maximum)}`, 'limit');
  }
  return Number(raw);
}

/**
 * Where an event stream resumes: after the sequence in the Last-Event-ID header (what an EventSource sends
 * on reconnecting, so it wins) or in `?after=`; 0 streams from the first event. Both are checked when both
 * are given, against openapi.yaml. An empty header is no header (EventSource sends none before its first
 * event); an empty `?after=` is not a number. Numbers beyond any sequence are fine: nothing follows them.
 */
export function parseResumeAfter(
  lastEventId: string | undefined,
  after: string | null,
  /** The stream's path in openapi.yaml, whose parameters say what an event id is. */
  path = '/v1/change-requests/{id}/events',
): number {
  const fromQuery = after === null ? 0 : sequenceNumber(after, 'after', path);
  return lastEventId ? sequenceNumber(lastEventId, 'Last-Event-ID', path) : fromQuery;
}

function sequenceNumber(raw: string, name: 'after' | 'Last-Event-ID', path: string): number {
  if (apiDocument().parameter(path, 'get', name).check(raw).length) {
    throw badRequest(`${name} must be an event sequence number`, name);
  }
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}
