/**
 * A test double of GitHub's REST API (not GitHub): a local HTTP server holding pulls, issues, comments,
 * statuses and reviews in memory. Every request it receives is checked against GitHub's published description
 * (testing/github/rest-operations.json, trimmed from @octokit/openapi): an undocumented operation, parameter
 * or body is answered 400 and recorded in `violations`, which the tests assert empty. Every answer is built
 * from the documented response schema and validated against it before it is sent.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { OpenApiSlice } from './openapi-slice';
import { fillFromSchema } from './schema-sample';

export interface DoublePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  headSha: string;
  state: 'open' | 'closed';
  merged: boolean;
  author: string;
  diff: string;
  /** GitHub lists a pull request among issues, with its labels. */
  labels?: string[];
}
export interface DoubleIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: 'open' | 'closed';
  author: string;
  updatedAt: string;
}
export interface DoubleReview {
  id: number;
  pull: number;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING' | 'DISMISSED';
  body: string;
  author: string;
  commitId: string;
}
export interface DoubleReviewComment {
  id: number;
  pull: number;
  reviewId: number;
  path: string;
  line: number | null;
  side: 'LEFT' | 'RIGHT';
  body: string;
  author: string;
  diffHunk: string;
}
export interface DoubleStatus {
  sha: string;
  state: string;
  context: string;
  description?: string;
  targetUrl?: string;
}

/** An answer GitHub gives before looking at the request: a rate limit, or a plain refusal. */
export interface DoubleRefusal {
  status: 403 | 429;
  headers: Record<string, string>;
  message: string;
}
const RATE_LIMIT_DOCS = 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api';

/** GitHub's primary rate limit: no calls left until `resetAt` (x-ratelimit-reset, epoch seconds). */
export function primaryRateLimit(resetAt: Date, status: 403 | 429 = 403): DoubleRefusal {
  return {
    status,
    headers: {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '5000',
      'x-ratelimit-reset': String(Math.floor(resetAt.getTime() / 1000)),
      'x-ratelimit-resource': 'core',
    },
    message: 'API rate limit exceeded for user ID 1.',
  };
}

/** A secondary rate limit: with `retry-after` (seconds) when given, else only the message. */
export function secondaryRateLimit(retryAfterS?: number): DoubleRefusal {
  return {
    status: 403,
    headers: retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) },
    message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  };
}

/** A refusal that is no limit: the token may not do this. */
export const forbidden = (): DoubleRefusal => ({
  status: 403,
  headers: {},
  message: 'Resource not accessible by personal access token',
});

export interface GitHubDouble {
  /** The API root to give GitHubForge (`apiUrl`). */
  apiUrl: string;
  /** The token the double accepts. */
  token: string;
  owner: string;
  repo: string;
  /** The repository's default branch (`main` unless a test changes it). */
  defaultBranch: string;
  /** Every request, as `METHOD /path?query`. */
  requests: string[];
  /** What was wrong with a request or an answer; empty in a passing test. */
  violations: string[];
  pulls: DoublePull[];
  issues: DoubleIssue[];
  comments: Array<{ id: number; issue: number; body: string; author: string }>;
  statuses: DoubleStatus[];
  reviews: DoubleReview[];
  reviewComments: DoubleReviewComment[];
  /**
   * Users and their role on the repository (`permission`: admin, write, read or none; `roleName`: the role,
   * maintain and triage included). The owner is an admin; a login in neither is a user GitHub does not know.
   */
  collaborators: Record<string, { permission: 'admin' | 'write' | 'read' | 'none'; roleName?: string }>;
  /** Answers the next requests get, one each, before any routing (rate limits, refusals). */
  refusals: DoubleRefusal[];
  /** The most items a page holds, whatever per_page asks (to exercise pagination). */
  maxPageSize: number;
  nextId(): number;
  /** A pull request someone else opened. */
  addPull(p: Partial<DoublePull> & { head: string }): DoublePull;
  addIssue(i: Partial<DoubleIssue> & { title: string }): DoubleIssue;
  close(): Promise<void>;
}

const API_VERSION = '2022-11-28';
const restSlice = JSON.parse(readFileSync(join(__dirname, 'github', 'rest-operations.json'), 'utf8')) as never;

export async function startGitHubDouble(opts: { owner?: string; repo?: string } = {}): Promise<GitHubDouble> {
  const slice = new OpenApiSlice(restSlice);
  const owner = opts.owner ?? 'acme';
  const repo = opts.repo ?? 'shop';
  let counter = 1000;
  let numbers = 0;
  const double: GitHubDouble = {
    apiUrl: '',
    token: 'ghp_double_token',
    owner,
    repo,
    defaultBranch: 'main',
    requests: [],
    violations: [],
    pulls: [],
    issues: [],
    comments: [],
    statuses: [],
    reviews: [],
    reviewComments: [],
    collaborators: {},
    refusals: [],
    maxPageSize: 100,
    nextId: () => ++counter,
    addPull: (p) => {
      const pull: DoublePull = {
        number: ++numbers,
        title: 'a change',
        body: '',
        base: 'main',
        headSha: 'a'.repeat(40),
        state: 'open',
        merged: false,
        author: 'someone',
        diff: '',
        ...p,
      };
      double.pulls.push(pull);
      return pull;
    },
    addIssue: (i) => {
      const issue: DoubleIssue = {
        number: ++numbers,
        body: '',
        labels: [],
        state: 'open',
        author: 'reporter',
        updatedAt: new Date().toISOString(),
        ...i,
      };
      double.issues.push(issue);
      return issue;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const htmlBase = `https://github.example/${owner}/${repo}`;
  const pullJson = (p: DoublePull) => ({
    number: p.number,
    title: p.title,
    body: p.body,
    state: p.state,
    html_url: `${htmlBase}/pull/${p.number}`,
    merged_at: p.merged ? '2026-11-02T00:00:00Z' : null,
    user: { login: p.author },
    head: { ref: p.head, sha: p.headSha, label: `${owner}:${p.head}` },
    base: { ref: p.base, label: `${owner}:${p.base}` },
  });
  const issueJson = (i: DoubleIssue | DoublePull) => {
    const isPull = 'head' in i;
    return {
      number: i.number,
      title: i.title,
      body: i.body,
      state: i.state,
      html_url: `${htmlBase}/${isPull ? 'pull' : 'issues'}/${i.number}`,
      user: { login: i.author },
      labels: (i.labels ?? []).map((name, n) => ({ id: n + 1, name })),
      updated_at: 'updatedAt' in i ? i.updatedAt : '2026-11-01T00:00:00Z',
      ...(isPull ? { pull_request: { url: `${htmlBase}/pull/${i.number}` } } : {}),
    };
  };
  const reviewJson = (r: DoubleReview) => ({
    id: r.id,
    state: r.state,
    body: r.body,
    user: { login: r.author },
    commit_id: r.commitId,
  });
  const reviewCommentJson = (c: DoubleReviewComment) => ({
    id: c.id,
    pull_request_review_id: c.reviewId,
    path: c.path,
    // GitHub documents `line` as an integer, absent (not null) when the comment is outdated.
    ...(c.line === null ? {} : { line: c.line }),
    side: c.side,
    body: c.body,
    user: { login: c.author },
    diff_hunk: c.diffHunk,
  });

  type Answer = { status: number; body?: unknown; headers?: Record<string, string>; text?: string };
  const notFound: Answer = {
    status: 404,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com' },
  };

  function page<T>(items: T[], url: URL, query: Record<string, unknown>): Answer {
    const perPage = Math.min(Number(query.per_page ?? 30), double.maxPageSize);
    const n = Number(query.page ?? 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number) => {
      const u = new URL(url);
      u.searchParams.set('page', String(p));
      return `<${u}>`;
    };
    const rels = [...(n < last ? [`${link(n + 1)}; rel="next"`, `${link(last)}; rel="last"`] : [])];
    return {
      status: 200,
      body: items.slice((n - 1) * perPage, n * perPage),
      headers: rels.length ? { link: rels.join(', ') } : {},
    };
  }

  function route(
    key: string,
    p: Record<string, string>,
    query: Record<string, unknown>,
    /** Already checked against the documented request body: its required fields are there. */
    body: Record<string, string>,
    url: URL,
    accept: string,
  ): Answer {
    if (p.owner !== owner || p.repo !== repo) return notFound;
    const pull = p.pull_number ? double.pulls.find((x) => x.number === Number(p.pull_number)) : undefined;
    if (p.pull_number && !pull) return notFound;
    switch (key) {
      case 'GET /repos/{owner}/{repo}':
        return {
          status: 200,
          body: {
            name: repo,
            full_name: `${owner}/${repo}`,
            owner: { login: owner },
            html_url: htmlBase,
            clone_url: `${htmlBase}.git`,
            ssh_url: `git@github.example:${owner}/${repo}.git`,
            default_branch: double.defaultBranch,
            private: true,
          },
        };
      case 'GET /repos/{owner}/{repo}/pulls': {
        const state = (query.state as string | undefined) ?? 'open';
        const list = double.pulls.filter(
          (x) =>
            (state === 'all' || x.state === state) &&
            (query.head === undefined || query.head === `${owner}:${x.head}`) &&
            (query.base === undefined || query.base === x.base),
        );
        return page(list.map(pullJson), url, query);
      }
      case 'POST /repos/{owner}/{repo}/pulls': {
        if (double.pulls.some((x) => x.state === 'open' && x.head === body.head && x.base === body.base)) {
          return {
            status: 422,
            body: {
              message: 'Validation Failed',
              documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
              errors: [
                {
                  resource: 'PullRequest',
                  code: 'custom',
                  message: `A pull request already exists for ${owner}:${body.head}.`,
                },
              ],
            },
          };
        }
        const created = double.addPull({
          head: body.head,
          base: body.base,
          title: body.title,
          body: body.body ?? '',
          author: 'farm-bot',
        });
        return { status: 201, body: pullJson(created) };
      }
      case 'GET /repos/{owner}/{repo}/pulls/{pull_number}':
        if (accept.includes('application/vnd.github.diff')) return { status: 200, text: pull!.diff };
        return { status: 200, body: pullJson(pull!) };
      case 'PATCH /repos/{owner}/{repo}/pulls/{pull_number}':
        if (body.title !== undefined) pull!.title = body.title;
        if (body.body !== undefined) pull!.body = body.body;
        return { status: 200, body: pullJson(pull!) };
      case 'GET /repos/{owner}/{repo}/issues': {
        const labels = String(query.labels ?? '')
          .split(',')
          .filter(Boolean);
        const state = (query.state as string | undefined) ?? 'open';
        const since = query.since ? Date.parse(String(query.since)) : 0;
        const all: Array<DoubleIssue | DoublePull> = [...double.issues, ...double.pulls];
        const list = all
          .filter((i) => (state === 'all' || i.state === state) && labels.every((l) => (i.labels ?? []).includes(l)))
          .filter((i) => !since || ('updatedAt' in i && Date.parse(i.updatedAt) >= since))
          .sort((a, b) => a.number - b.number);
        return page(list.map(issueJson), url, query);
      }
      case 'GET /repos/{owner}/{repo}/issues/{issue_number}': {
        const n = Number(p.issue_number);
        const found = double.issues.find((i) => i.number === n) ?? double.pulls.find((x) => x.number === n);
        return found ? { status: 200, body: issueJson(found) } : notFound;
      }
      case 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments': {
        const n = Number(p.issue_number);
        const list = double.comments.filter((c) => c.issue === n);
        return page(
          list.map((c) => ({
            id: c.id,
            body: c.body,
            user: { login: c.author },
            html_url: `${htmlBase}/issues/${n}#issuecomment-${c.id}`,
          })),
          url,
          query,
        );
      }
      case 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': {
        const n = Number(p.issue_number);
        if (!double.issues.some((i) => i.number === n) && !double.pulls.some((x) => x.number === n)) return notFound;
        const c = { id: double.nextId(), issue: n, body: body.body!, author: 'farm-bot' };
        double.comments.push(c);
        return {
          status: 201,
          body: {
            id: c.id,
            body: c.body,
            user: { login: c.author },
            html_url: `${htmlBase}/issues/${n}#issuecomment-${c.id}`,
          },
        };
      }
      case 'POST /repos/{owner}/{repo}/statuses/{sha}': {
        const s: DoubleStatus = {
          sha: p.sha!,
          state: body.state,
          context: body.context ?? 'default',
          description: body.description ?? undefined,
          targetUrl: body.target_url ?? undefined,
        };
        double.statuses.push(s);
        return {
          status: 201,
          body: {
            id: double.nextId(),
            state: s.state,
            context: s.context,
            description: s.description ?? null,
            target_url: s.targetUrl ?? null,
          },
        };
      }
      case 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews':
        return page(double.reviews.filter((r) => r.pull === pull!.number).map(reviewJson), url, query);
      case 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}': {
        const r = double.reviews.find((x) => x.pull === pull!.number && x.id === Number(p.review_id));
        return r ? { status: 200, body: reviewJson(r) } : notFound;
      }
      case 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments': {
        const list = double.reviewComments.filter((c) => c.pull === pull!.number && c.reviewId === Number(p.review_id));
        return page(list.map(reviewCommentJson), url, query);
      }
      case 'GET /repos/{owner}/{repo}/collaborators/{username}/permission': {
        const login = p.username!;
        const role =
          login === owner ? { permission: 'admin' as const, roleName: 'admin' } : double.collaborators[login];
        if (!role) return notFound;
        return {
          status: 200,
          body: {
            permission: role.permission,
            role_name: role.roleName ?? role.permission,
            user: { login, role_name: role.roleName ?? role.permission },
          },
        };
      }
      case 'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments':
        return page(double.reviewComments.filter((c) => c.pull === pull!.number).map(reviewCommentJson), url, query);
      default:
        return { status: 501, body: { message: `the double does not serve ${key}` } };
    }
  }

  function send(res: ServerResponse, a: Answer): void {
    if (a.text !== undefined) {
      res.writeHead(a.status, { 'content-type': 'application/vnd.github.diff; charset=utf-8', ...a.headers });
      res.end(a.text);
      return;
    }
    res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', double.apiUrl);
    const method = req.method ?? 'GET';
    double.requests.push(`${method} ${url.pathname}${url.search}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const problems: string[] = [];
    if (req.headers.authorization !== `Bearer ${double.token}`) {
      send(res, {
        status: 401,
        body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
      });
      return;
    }
    const refusal = double.refusals.shift();
    if (refusal) {
      send(res, {
        status: refusal.status,
        headers: refusal.headers,
        body: { message: refusal.message, documentation_url: RATE_LIMIT_DOCS },
      });
      return;
    }
    if (req.headers['x-github-api-version'] !== API_VERSION)
      problems.push(`missing X-GitHub-Api-Version ${API_VERSION}`);
    let body: unknown;
    if (raw) {
      if (!String(req.headers['content-type']).startsWith('application/json'))
        problems.push('body without JSON content type');
      try {
        body = JSON.parse(raw);
      } catch {
        problems.push('body is not JSON');
      }
    }
    const checked = slice.checkRequest(method, url.pathname, url.searchParams, body);
    problems.push(...checked.problems);
    if (problems.length || !checked.match) {
      double.violations.push(...problems);
      send(res, { status: 400, body: { message: problems.join('; ') } });
      return;
    }
    const { key, params, query } = checked.match;
    const answer = route(
      key,
      params,
      query,
      (body ?? {}) as Record<string, string>,
      url,
      String(req.headers.accept ?? ''),
    );
    if (answer.body !== undefined && answer.status < 300) {
      // Complete the double's values to the documented answer, then check the result is documented.
      answer.body = fillFromSchema(slice.responseSchema(key, answer.status), answer.body, restSlice);
    }
    if (answer.body !== undefined) {
      const wrong = slice.checkResponse(key, answer.status, answer.body);
      if (wrong.length) double.violations.push(...wrong.map((w) => `double's own answer: ${w}`));
    }
    send(res, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      double.violations.push(`double failed: ${(err as Error).stack}`);
      send(res, { status: 500, body: { message: String(err) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return double;
}
