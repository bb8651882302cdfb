/**
 * GitHub (and GitHub Enterprise Server) through its REST API v3: pull requests, issue comments, commit
 * statuses, reviews and their line comments, labelled issues. Every call is safe to repeat.
 */
import {
  type CommitStatusInput,
  type Forge,
  ForgeApiError,
  type ForgeRepo,
  type Issue,
  type IssueComment,
  type PullRequest,
  type PullRequestInput,
  type Review,
  type ReviewComment,
  type ReviewState,
} from './forge';
import { openOrUpdate } from './open-or-update';
import { ForgeHttp } from './forge-http';
import { followPages } from './forge-pages';
import { repoPathOnForge } from './forge-remote-url';

export interface GitHubForgeOptions {
  /** The web origin (default https://github.com). */
  webUrl?: string;
  /** The API root (default https://api.github.com for github.com, `<webUrl>/api/v3` for Enterprise Server). */
  apiUrl?: string;
  token: string;
  fetch?: typeof fetch;
  /** Retries of 429/5xx (ForgeHttp's default when unset). */
  retries?: number;
  /** The longest one call waits out rate limits (ForgeHttp's default, 60 s, when unset). */
  maxRateLimitWaitMs?: number;
}

export const GITHUB_API_VERSION = '2022-11-28';
const PER_PAGE = 100;
/** The roles that may push to a repository. */
const GITHUB_WRITERS = new Set(['admin', 'maintain', 'write']);
const MAX_PAGES = 20;

/** The parts of GitHub's answers the adapter reads (the documented schemas have many more). */
interface GhUser {
  login: string;
}
interface GhPull {
  number: number;
  html_url: string;
  title: string;
  state: 'open' | 'closed';
  merged_at: string | null;
  user: GhUser | null;
  head: { ref: string; sha: string };
  base: { ref: string };
}
interface GhIssue {
  number: number;
  title: string;
  body?: string | null;
  html_url: string;
  state: string;
  user: GhUser | null;
  labels: Array<string | { name?: string }>;
  pull_request?: unknown;
}
interface GhIssueComment {
  id: number;
  body?: string;
  html_url: string;
  user: GhUser | null;
}
interface GhReview {
  id: number;
  state: string;
  body: string;
  user: GhUser | null;
  commit_id: string | null;
}
interface GhReviewComment {
  id: number;
  body: string;
  path: string;
  user: GhUser | null;
  line?: number | null;
  side?: 'LEFT' | 'RIGHT';
  pull_request_review_id: number | null;
  diff_hunk: string;
}

export class GitHubForge implements Forge {
  readonly kind = 'github' as const;
  readonly webUrl: string;
  private readonly http: ForgeHttp;

  constructor(opts: GitHubForgeOptions) {
    this.webUrl = (opts.webUrl ?? 'https://github.com').replace(/\/+$/, '');
    this.http = new ForgeHttp({
      apiUrl: opts.apiUrl ?? defaultGitHubApiUrl(this.webUrl),
      authHeaders: { authorization: `Bearer ${opts.token}` },
      headers: { 'x-github-api-version': GITHUB_API_VERSION },
      fetch: opts.fetch,
      retries: opts.retries,
      maxRateLimitWaitMs: opts.maxRateLimitWaitMs,
    });
  }

  repoFor(remoteUrl: string): ForgeRepo | undefined {
    const path = repoPathOnForge(remoteUrl, this.webUrl);
    return path?.length === 2 ? { fullName: path.join('/') } : undefined;
  }

  async repository(repo: ForgeRepo): Promise<{ cloneUrl: string; defaultBranch: string; webUrl: string }> {
    const r = await this.http.json<{ clone_url: string; default_branch: string; html_url: string }>(
      'GET',
      repoPath(repo),
    );
    return { cloneUrl: r.clone_url, defaultBranch: r.default_branch || 'main', webUrl: r.html_url };
  }

  async findPullRequest(repo: ForgeRepo, head: string, base?: string): Promise<PullRequest | undefined> {
    const owner = ownerOf(repo);
    // `head` must be `owner:branch`: a bare branch name matches nothing and GitHub answers every open PR.
    const pulls = await this.http.json<GhPull[]>('GET', `${repoPath(repo)}/pulls`, {
      query: { head: `${owner}:${head}`, base, state: 'open', per_page: PER_PAGE },
    });
    const pull = pulls.find((p) => p.head.ref === head && (base === undefined || p.base.ref === base));
    return pull && toPullRequest(pull);
  }

  async openOrUpdatePullRequest(input: PullRequestInput): Promise<{ pull: PullRequest; created: boolean }> {
    return openOrUpdate({
      find: () => this.findPullRequest(input.repo, input.head, input.base),
      create: async () =>
        toPullRequest(
          await this.http.json<GhPull>('POST', `${repoPath(input.repo)}/pulls`, {
            body: { title: input.title, body: input.body, head: input.head, base: input.base },
          }),
        ),
      update: (existing) => this.updatePull(input, existing.number),
      conflictStatus: 422,
    });
  }

  private async updatePull(input: PullRequestInput, number: number): Promise<PullRequest> {
    const pull = await this.http.json<GhPull>('PATCH', `${repoPath(input.repo)}/pulls/${number}`, {
      body: { title: input.title, body: input.body },
    });
    return toPullRequest(pull);
  }

  async getPullRequest(repo: ForgeRepo, number: number): Promise<PullRequest> {
    return toPullRequest(await this.http.json<GhPull>('GET', `${repoPath(repo)}/pulls/${number}`));
  }

  async pullRequestDiff(repo: ForgeRepo, number: number): Promise<string> {
    const res = await this.http.request<string>('GET', `${repoPath(repo)}/pulls/${number}`, {
      accept: 'application/vnd.github.diff',
    });
    return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  }

  async comment(repo: ForgeRepo, number: number, body: string): Promise<IssueComment> {
    const c = await this.http.json<GhIssueComment>('POST', `${repoPath(repo)}/issues/${number}/comments`, {
      body: { body },
    });
    return toIssueComment(c);
  }

  async listComments(repo: ForgeRepo, number: number): Promise<IssueComment[]> {
    return (await this.pages<GhIssueComment>(`${repoPath(repo)}/issues/${number}/comments`)).map(toIssueComment);
  }

  async getIssue(repo: ForgeRepo, number: number): Promise<Issue> {
    return toIssue(await this.http.json<GhIssue>('GET', `${repoPath(repo)}/issues/${number}`));
  }

  async listLabelledIssues(repo: ForgeRepo, label: string, since?: Date): Promise<Issue[]> {
    const issues = await this.pages<GhIssue>(`${repoPath(repo)}/issues`, {
      labels: label,
      state: 'open',
      since: since?.toISOString(),
    });
    // GitHub lists pull requests among issues; the poller wants issues only.
    return issues.filter((i) => !i.pull_request).map(toIssue);
  }

  async setCommitStatus(input: CommitStatusInput): Promise<void> {
    await this.http.json('POST', `${repoPath(input.repo)}/statuses/${encodeURIComponent(input.sha)}`, {
      body: {
        state: input.state,
        context: input.context,
        description: cut(input.description, 140),
        ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
      },
    });
  }

  async mayWrite(repo: ForgeRepo, login: string): Promise<boolean> {
    try {
      const p = await this.http.json<{ permission: string; role_name: string }>(
        'GET',
        `${repoPath(repo)}/collaborators/${encodeURIComponent(login)}/permission`,
      );
      // `permission` is the base role (maintain reads as write); `role_name` names the role, custom ones too.
      return GITHUB_WRITERS.has(p.permission) || GITHUB_WRITERS.has(p.role_name);
    } catch (err) {
      if (err instanceof ForgeApiError && err.status === 404) return false; // no such user
      throw err;
    }
  }

  async listReviews(repo: ForgeRepo, number: number): Promise<Review[]> {
    return (await this.pages<GhReview>(`${repoPath(repo)}/pulls/${number}/reviews`)).map(toReview);
  }

  async listReviewComments(repo: ForgeRepo, number: number, reviewId?: number): Promise<ReviewComment[]> {
    const path =
      reviewId === undefined
        ? `${repoPath(repo)}/pulls/${number}/comments`
        : `${repoPath(repo)}/pulls/${number}/reviews/${reviewId}/comments`;
    return (await this.pages<GhReviewComment>(path)).map((c) => toReviewComment(c, reviewId));
  }

  async resolveReview(
    repo: ForgeRepo,
    pullNumber: number,
    wanted: { id?: number; state: ReviewState; author: string },
  ): Promise<{ review: Review; comments: ReviewComment[] }> {
    let review: Review | undefined;
    if (wanted.id !== undefined) {
      review = toReview(
        await this.http.json<GhReview>('GET', `${repoPath(repo)}/pulls/${pullNumber}/reviews/${wanted.id}`),
      );
    } else {
      const reviews = await this.listReviews(repo, pullNumber);
      review = reviews.filter((r) => r.author === wanted.author && r.state === wanted.state).at(-1);
      if (!review) {
        throw new ForgeApiError(
          `no ${wanted.state} review by ${wanted.author} on ${repo.fullName}#${pullNumber}`,
          404,
          { retryable: true }, // the review may not be visible yet
        );
      }
    }
    return { review, comments: await this.listReviewComments(repo, pullNumber, review.id) };
  }

  private pages<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T[]> {
    return followPages<T>(this.http, path, query, { perPage: PER_PAGE, maxPages: MAX_PAGES });
  }
}

export function defaultGitHubApiUrl(webUrl: string): string {
  const host = new URL(webUrl).hostname;
  return host === 'github.com' || host === 'www.github.com' ? 'https://api.github.com' : `${webUrl}/api/v3`;
}

function ownerOf(repo: ForgeRepo): string {
  return splitRepo(repo)[0];
}

function splitRepo(repo: ForgeRepo): [string, string] {
  const parts = repo.fullName.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new ForgeApiError(`${repo.fullName} is not owner/name`, 400, { retryable: false });
  }
  return [parts[0], parts[1]];
}

function repoPath(repo: ForgeRepo): string {
  const [owner, name] = splitRepo(repo);
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}

const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1) + '…');

export function toPullRequest(p: GhPull): PullRequest {
  return {
    number: p.number,
    url: p.html_url,
    title: p.title,
    headBranch: p.head.ref,
    baseBranch: p.base.ref,
    headSha: p.head.sha,
    state: p.merged_at ? 'merged' : p.state,
    author: p.user?.login,
  };
}

export function toIssue(i: GhIssue): Issue {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    labels: i.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    url: i.html_url,
    author: i.user?.login ?? '',
    state: i.state === 'closed' ? 'closed' : 'open',
    isPullRequest: Boolean(i.pull_request),
  };
}

export function toIssueComment(c: GhIssueComment): IssueComment {
  return { id: c.id, body: c.body ?? '', author: c.user?.login ?? '', url: c.html_url };
}

/** GitHub's review states: upper case in the REST API, lower case in webhooks. */
export function toReviewState(state: string): ReviewState {
  switch (state.toLowerCase()) {
    case 'approved':
      return 'approved';
    case 'changes_requested':
      return 'changes_requested';
    case 'pending':
      return 'pending';
    case 'dismissed':
      return 'dismissed';
    default:
      return 'commented';
  }
}

function toReview(r: GhReview): Review {
  return {
    id: r.id,
    state: toReviewState(r.state),
    body: r.body ?? '',
    author: r.user?.login ?? '',
    commitSha: r.commit_id ?? undefined,
  };
}

export function toReviewComment(c: GhReviewComment, reviewId?: number): ReviewComment {
  return {
    id: c.id,
    body: c.body,
    author: c.user?.login ?? '',
    path: c.path,
    // `line` is null when the comment is outdated; on the LEFT side it is a line of the old file.
    line: c.side === 'LEFT' || c.line == null ? undefined : c.line,
    reviewId: c.pull_request_review_id ?? reviewId,
    diffHunk: c.diff_hunk,
  };
}
