/**
 * The Forge of a Gitea (Forgejo too) server, over its REST API (/api/v1). What it hides: PRs are found by
 * branch with `GET /pulls/{base}/{head}` (which also answers closed ones) or the open list; there is no draft;
 * review states are APPROVED / REQUEST_CHANGES / COMMENT; line comments are listed per review; review webhooks
 * carry no review id, so `resolveReview` reads back the latest review of that author and state.
 */
import {
  ForgeApiError,
  type CommitStatusInput,
  type Forge,
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

export interface GiteaForgeOptions {
  /** The web origin (and sub-path, if Gitea is served under one), e.g. http://127.0.0.1:3000. */
  webUrl: string;
  /** Default `${webUrl}/api/v1`. */
  apiUrl?: string;
  token: string;
  fetch?: typeof fetch;
}

/** The permissions (Gitea's access modes) that may push to the repository. */
const GITEA_WRITERS = new Set(['write', 'admin', 'owner']);

/** GitHub's limit; Gitea stores longer ones, but the farm's statuses read the same on every forge. */
const STATUS_DESCRIPTION_MAX = 140;

export interface GiteaUser {
  login: string;
}
export interface GiteaPull {
  number: number;
  html_url: string;
  title: string;
  state: 'open' | 'closed';
  merged?: boolean;
  head: { ref: string; sha: string; repo_id?: number };
  base: { ref: string; repo_id?: number };
  user?: GiteaUser | null;
}
export interface GiteaIssue {
  number: number;
  title: string;
  body: string | null;
  labels?: { name: string }[] | null;
  html_url: string;
  user?: GiteaUser | null;
  state: 'open' | 'closed';
  pull_request?: unknown;
}
export interface GiteaComment {
  id: number;
  body: string;
  user?: GiteaUser | null;
  html_url?: string;
}
interface GiteaReview {
  id: number;
  state: string;
  body: string | null;
  user?: GiteaUser | null;
  commit_id?: string;
  dismissed?: boolean;
  comments_count?: number;
}
interface GiteaReviewComment {
  id: number;
  body: string;
  user?: GiteaUser | null;
  path: string;
  position?: number;
  pull_request_review_id?: number;
  diff_hunk?: string;
}

export class GiteaForge implements Forge {
  readonly kind = 'gitea' as const;
  readonly webUrl: string;
  private readonly http: ForgeHttp;

  constructor(opts: GiteaForgeOptions) {
    this.webUrl = opts.webUrl.replace(/\/+$/, '');
    this.http = new ForgeHttp({
      apiUrl: opts.apiUrl ?? `${this.webUrl}/api/v1`,
      authHeaders: { authorization: `token ${opts.token}` },
      fetch: opts.fetch,
    });
  }

  repoFor(remoteUrl: string): ForgeRepo | undefined {
    return giteaRepoFor(this.webUrl, remoteUrl);
  }

  async repository(repo: ForgeRepo): Promise<{ cloneUrl: string; defaultBranch: string; webUrl: string }> {
    const r = await this.http.json<{ clone_url: string; default_branch: string; html_url: string }>(
      'GET',
      this.repoPath(repo),
    );
    return { cloneUrl: r.clone_url, defaultBranch: r.default_branch || 'main', webUrl: r.html_url };
  }

  async findPullRequest(repo: ForgeRepo, head: string, base?: string): Promise<PullRequest | undefined> {
    if (base && !base.includes('/')) {
      // The direct route answers the first PR of that pair, open or not: only an open one counts.
      try {
        const pull = await this.http.json<GiteaPull>('GET', `${this.repoPath(repo)}/pulls/${seg(base)}/${seg(head)}`);
        if (pull.state === 'open') return toPull(pull);
      } catch (err) {
        if (!(err instanceof ForgeApiError && err.status === 404)) throw err;
        return undefined;
      }
      // A closed one of the same pair: a newer open one may exist beside it.
    }
    const open = await this.http.all<GiteaPull>(`${this.repoPath(repo)}/pulls`, { state: 'open' });
    const found = open.find((p) => p.head.ref === head && (!base || p.base.ref === base));
    return found && toPull(found);
  }

  async openOrUpdatePullRequest(input: PullRequestInput): Promise<{ pull: PullRequest; created: boolean }> {
    return openOrUpdate({
      find: () => this.findPullRequest(input.repo, input.head, input.base),
      create: async () =>
        toPull(
          await this.http.json<GiteaPull>('POST', `${this.repoPath(input.repo)}/pulls`, {
            body: { head: input.head, base: input.base, title: input.title, body: input.body },
          }),
        ),
      update: (existing) => this.updatePull(input, existing),
      conflictStatus: 409,
    });
  }

  private async updatePull(input: PullRequestInput, pull: PullRequest): Promise<PullRequest> {
    const updated = await this.http.json<GiteaPull>('PATCH', `${this.repoPath(input.repo)}/pulls/${pull.number}`, {
      body: { title: input.title, body: input.body },
    });
    return toPull(updated);
  }

  async getPullRequest(repo: ForgeRepo, number: number): Promise<PullRequest> {
    return toPull(await this.http.json<GiteaPull>('GET', `${this.repoPath(repo)}/pulls/${number}`));
  }

  async pullRequestDiff(repo: ForgeRepo, number: number): Promise<string> {
    const res = await this.http.request<string>('GET', `${this.repoPath(repo)}/pulls/${number}.diff`, {
      accept: 'text/plain',
    });
    return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  }

  async comment(repo: ForgeRepo, number: number, body: string): Promise<IssueComment> {
    return toGiteaComment(
      await this.http.json<GiteaComment>('POST', `${this.repoPath(repo)}/issues/${number}/comments`, {
        body: { body },
      }),
    );
  }

  async listComments(repo: ForgeRepo, number: number): Promise<IssueComment[]> {
    // This route is not paginated (it answers every comment): `all` would fetch them again page after page.
    const comments = await this.http.json<GiteaComment[]>('GET', `${this.repoPath(repo)}/issues/${number}/comments`);
    return comments.map(toGiteaComment);
  }

  async getIssue(repo: ForgeRepo, number: number): Promise<Issue> {
    return toGiteaIssue(await this.http.json<GiteaIssue>('GET', `${this.repoPath(repo)}/issues/${number}`));
  }

  async listLabelledIssues(repo: ForgeRepo, label: string, since?: Date): Promise<Issue[]> {
    const issues = await this.http.all<GiteaIssue>(`${this.repoPath(repo)}/issues`, {
      state: 'open',
      type: 'issues',
      labels: label,
      since: since?.toISOString(),
    });
    return issues.map(toGiteaIssue).filter((i) => i.labels.includes(label));
  }

  async setCommitStatus(input: CommitStatusInput): Promise<void> {
    await this.http.json('POST', `${this.repoPath(input.repo)}/statuses/${encodeURIComponent(input.sha)}`, {
      body: {
        state: input.state,
        context: input.context,
        description: cut(input.description, STATUS_DESCRIPTION_MAX),
        target_url: input.targetUrl,
      },
    });
  }

  async mayWrite(repo: ForgeRepo, login: string): Promise<boolean> {
    let found: { permission: string };
    try {
      found = await this.http.json<{ permission: string; role_name?: string }>(
        'GET',
        `${this.repoPath(repo)}/collaborators/${seg(login)}/permission`,
      );
    } catch (err) {
      if (err instanceof ForgeApiError && err.status === 404) return false; // no such user
      if (err instanceof ForgeApiError && err.status === 403) {
        throw new ForgeApiError(
          `Gitea shows ${login}'s permission on ${repo.fullName} to the repository's admins only, and the farm's account is not one: ${err.message}`,
          403,
          { retryable: false, cause: err },
        );
      }
      throw err;
    }
    // none, read, write, admin, owner: the owner's, an admin's and a writer's pushes are taken.
    return GITEA_WRITERS.has(found.permission);
  }

  async listReviews(repo: ForgeRepo, number: number): Promise<Review[]> {
    const reviews = await this.http.all<GiteaReview>(`${this.repoPath(repo)}/pulls/${number}/reviews`);
    return reviews.map(toReview);
  }

  async listReviewComments(repo: ForgeRepo, number: number, reviewId?: number): Promise<ReviewComment[]> {
    if (reviewId !== undefined) return this.reviewComments(repo, number, reviewId);
    const reviews = await this.http.all<GiteaReview>(`${this.repoPath(repo)}/pulls/${number}/reviews`);
    const withComments = reviews.filter((r) => (r.comments_count ?? 1) > 0);
    return (await Promise.all(withComments.map((r) => this.reviewComments(repo, number, r.id)))).flat();
  }

  private async reviewComments(repo: ForgeRepo, number: number, reviewId: number): Promise<ReviewComment[]> {
    const comments = await this.http.json<GiteaReviewComment[]>(
      'GET',
      `${this.repoPath(repo)}/pulls/${number}/reviews/${reviewId}/comments`,
    );
    return comments.map((c) => toReviewComment(c, reviewId));
  }

  async resolveReview(
    repo: ForgeRepo,
    pullNumber: number,
    review: { id?: number; state: ReviewState; author: string },
  ): Promise<{ review: Review; comments: ReviewComment[] }> {
    let found: Review | undefined;
    if (review.id !== undefined) {
      found = toReview(
        await this.http.json<GiteaReview>('GET', `${this.repoPath(repo)}/pulls/${pullNumber}/reviews/${review.id}`),
      );
    } else {
      // The webhook names neither the review nor its comments: the newest of that author and state is the one.
      const candidates = (await this.listReviews(repo, pullNumber)).filter(
        (r) => r.author === review.author && r.state === review.state,
      );
      found = candidates.sort((a, b) => b.id - a.id)[0];
    }
    if (!found)
      throw new ForgeApiError(
        `no ${review.state} review by ${review.author} on pull request ${repo.fullName}#${pullNumber}`,
        404,
        { retryable: true }, // the delivery may have overtaken what the API reads
      );
    return { review: found, comments: await this.reviewComments(repo, pullNumber, found.id) };
  }

  private repoPath(repo: ForgeRepo): string {
    const [owner, name, ...rest] = repo.fullName.split('/');
    if (!owner || !name || rest.length) throw new ForgeApiError(`not a Gitea repository: ${repo.fullName}`, 400);
    return `/repos/${seg(owner)}/${seg(name)}`;
  }
}

/** The `owner/name` a remote URL (http(s), ssh:// or scp-like) names on the Gitea at `webUrl`. */
export function giteaRepoFor(webUrl: string, remoteUrl: string): ForgeRepo | undefined {
  let web: URL;
  try {
    web = new URL(webUrl);
  } catch {
    return undefined;
  }
  const prefix = web.pathname.replace(/\/+$/, '');
  let rest: string | undefined;
  const scp = /^[^/@:]+@([^/:]+):(?!\/)(.+)$/.exec(remoteUrl); // git@host:owner/name.git
  if (scp) {
    if (scp[1].toLowerCase() === web.hostname.toLowerCase()) rest = scp[2];
  } else {
    let remote: URL;
    try {
      remote = new URL(remoteUrl);
    } catch {
      return undefined;
    }
    const path = decodeURIComponent(remote.pathname);
    if (remote.protocol === 'ssh:') {
      if (remote.hostname.toLowerCase() === web.hostname.toLowerCase()) rest = path;
    } else if (remote.protocol === web.protocol && remote.host.toLowerCase() === web.host.toLowerCase()) {
      // The credentials in the URL are ignored: origin + path prefix decide.
      if (path === prefix || path.startsWith(`${prefix}/`)) rest = path.slice(prefix.length);
    }
  }
  const parts = rest
    ?.replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (!parts || parts.length !== 2 || parts.some((p) => !p)) return undefined;
  return { fullName: parts.join('/') };
}

/** Gitea's review state as the farm's. */
export function giteaReviewState(state: string, dismissed = false): ReviewState {
  if (dismissed) return 'dismissed';
  switch (state.toUpperCase()) {
    case 'APPROVED':
      return 'approved';
    case 'REQUEST_CHANGES':
      return 'changes_requested';
    case 'COMMENT':
      return 'commented';
    default:
      return 'pending'; // PENDING, REQUEST_REVIEW
  }
}

function toPull(p: GiteaPull): PullRequest {
  return {
    number: p.number,
    url: p.html_url,
    title: p.title,
    headBranch: p.head.ref,
    baseBranch: p.base.ref,
    headSha: p.head.sha,
    state: p.merged ? 'merged' : p.state,
    author: p.user?.login,
  };
}

/** An issue (or a PR's conversation) of Gitea's API and webhook payloads, as the farm's. */
export function toGiteaIssue(i: GiteaIssue): Issue {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    labels: (i.labels ?? []).map((l) => l.name),
    url: i.html_url,
    author: i.user?.login ?? '',
    state: i.state,
    isPullRequest: i.pull_request !== undefined && i.pull_request !== null,
  };
}

export function toGiteaComment(c: GiteaComment): IssueComment {
  return { id: c.id, body: c.body, author: c.user?.login ?? '', url: c.html_url };
}

function toReview(r: GiteaReview): Review {
  return {
    id: r.id,
    state: giteaReviewState(r.state, r.dismissed),
    body: r.body ?? '',
    author: r.user?.login ?? '',
    commitSha: r.commit_id || undefined,
  };
}

function toReviewComment(c: GiteaReviewComment, reviewId: number): ReviewComment {
  return {
    id: c.id,
    body: c.body,
    author: c.user?.login ?? '',
    path: c.path,
    // 0: the comment is on the old side (original_position) or outdated.
    line: c.position ? c.position : undefined,
    reviewId: c.pull_request_review_id ?? reviewId,
    diffHunk: c.diff_hunk || undefined,
  };
}

const seg = (s: string) => encodeURIComponent(s);
const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
