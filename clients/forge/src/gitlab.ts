/**
 * GitLab (gitlab.com or self-managed) through its REST API v4, authenticated with `PRIVATE-TOKEN`. A
 * repository is a project, addressed by its URL-encoded full path; a pull request is a merge request (its
 * `iid`); comments are notes; the farm's status is a commit status.
 *
 * Reviews: GitLab has no review object with a state. The adapter maps what it has, per reviewer:
 * - an approval (`/approvals`, `approved_by`) is an `approved` review;
 * - a reviewer with unresolved diff notes (a discussion note with a `position`, resolvable, not resolved)
 *   and no approval has `changes_requested`; one whose diff notes are all resolved has `commented`.
 * A review's id is the reviewer's user id, so `resolveReview` and `listReviewComments(reviewId)` answer that
 * reviewer's diff notes (unresolved ones for `changes_requested`). A diff note's line is `position.new_line`
 * (undefined on a removed line).
 */
import {
  type CommitState,
  type CommitStatusInput,
  type ConversationKind,
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

export interface GitLabForgeOptions {
  /** The web origin (default https://gitlab.com; a self-managed one may have a path, e.g. https://h/gitlab). */
  webUrl?: string;
  /** The API root (default `<webUrl>/api/v4`). */
  apiUrl?: string;
  token: string;
  fetch?: typeof fetch;
  retries?: number;
}

/** The parts of GitLab's answers the adapter reads. */
interface GlUser {
  id: number;
  username: string;
}
interface GlMergeRequest {
  iid: number;
  title: string;
  state: 'opened' | 'closed' | 'locked' | 'merged';
  source_branch: string;
  target_branch: string;
  sha: string | null;
  web_url: string;
  author: GlUser | null;
}
interface GlIssue {
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  labels: string[];
  web_url: string;
  author: GlUser | null;
}
interface GlNote {
  id: number;
  body: string;
  author: GlUser;
  system: boolean;
  type?: string | null;
  resolvable?: boolean;
  resolved?: boolean;
  position?: GlPosition | null;
}
interface GlPosition {
  new_path?: string | null;
  old_path?: string | null;
  new_line?: number | null;
  old_line?: number | null;
}
interface GlDiscussion {
  id: string;
  notes: GlNote[];
}
interface GlDiff {
  old_path: string;
  new_path: string;
  diff: string;
  new_file: boolean;
  deleted_file: boolean;
  renamed_file: boolean;
}

/** GitLab's access level of a Developer: the lowest that may push to the project's (unprotected) branches. */
const DEVELOPER = 30;

/** GitLab's commit status states for the farm's: pending while the farm works is shown as running. */
const GITLAB_STATE: Record<CommitState, string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

export class GitLabForge implements Forge {
  readonly kind = 'gitlab' as const;
  readonly webUrl: string;
  private readonly http: ForgeHttp;

  constructor(opts: GitLabForgeOptions) {
    this.webUrl = (opts.webUrl ?? 'https://gitlab.com').replace(/\/+$/, '');
    this.http = new ForgeHttp({
      apiUrl: opts.apiUrl ?? `${this.webUrl}/api/v4`,
      authHeaders: { 'private-token': opts.token },
      fetch: opts.fetch,
      retries: opts.retries,
    });
  }

  repoFor(remoteUrl: string): ForgeRepo | undefined {
    const path = repoPathOnForge(remoteUrl, this.webUrl);
    // GitLab's own routes (`/-/...`) are not projects.
    return path && !path.includes('-') ? { fullName: path.join('/') } : undefined;
  }

  async repository(repo: ForgeRepo): Promise<{ cloneUrl: string; defaultBranch: string; webUrl: string }> {
    const p = await this.http.json<{ http_url_to_repo: string; default_branch: string | null; web_url: string }>(
      'GET',
      project(repo),
    );
    return { cloneUrl: p.http_url_to_repo, defaultBranch: p.default_branch || 'main', webUrl: p.web_url };
  }

  async findPullRequest(repo: ForgeRepo, head: string, base?: string): Promise<PullRequest | undefined> {
    const mrs = await this.http.json<GlMergeRequest[]>('GET', `${project(repo)}/merge_requests`, {
      query: { source_branch: head, target_branch: base, state: 'opened' },
    });
    const mr = mrs.find((m) => m.source_branch === head && (base === undefined || m.target_branch === base));
    return mr && toPullRequest(mr);
  }

  async openOrUpdatePullRequest(input: PullRequestInput): Promise<{ pull: PullRequest; created: boolean }> {
    return openOrUpdate({
      find: () => this.findPullRequest(input.repo, input.head, input.base),
      create: async () =>
        toPullRequest(
          await this.http.json<GlMergeRequest>('POST', `${project(input.repo)}/merge_requests`, {
            body: { source_branch: input.head, target_branch: input.base, title: input.title, description: input.body },
          }),
        ),
      update: (existing) => this.updateMergeRequest(input, existing.number),
      // "Another open merge request already exists for this source branch" (a concurrent delivery).
      conflictStatus: 409,
    });
  }

  private async updateMergeRequest(input: PullRequestInput, iid: number): Promise<PullRequest> {
    const mr = await this.http.json<GlMergeRequest>('PUT', `${project(input.repo)}/merge_requests/${iid}`, {
      body: { title: input.title, description: input.body },
    });
    return toPullRequest(mr);
  }

  async getPullRequest(repo: ForgeRepo, number: number): Promise<PullRequest> {
    return toPullRequest(await this.http.json<GlMergeRequest>('GET', `${project(repo)}/merge_requests/${number}`));
  }

  async pullRequestDiff(repo: ForgeRepo, number: number): Promise<string> {
    const diffs = await followPages<GlDiff>(this.http, `${project(repo)}/merge_requests/${number}/diffs`);
    return diffs.map(unifiedDiff).join('');
  }

  async comment(repo: ForgeRepo, number: number, body: string, on: ConversationKind = 'issue'): Promise<IssueComment> {
    const note = await this.http.json<GlNote>('POST', `${noteable(repo, number, on)}/notes`, { body: { body } });
    return toIssueComment(note);
  }

  async listComments(repo: ForgeRepo, number: number, on: ConversationKind = 'issue'): Promise<IssueComment[]> {
    const notes = await followPages<GlNote>(this.http, `${noteable(repo, number, on)}/notes`, {
      sort: 'asc',
      order_by: 'created_at',
    });
    // System notes ("added label x", "mentioned in ...") are GitLab's, not a person's.
    return notes.filter((n) => !n.system).map(toIssueComment);
  }

  async getIssue(repo: ForgeRepo, number: number): Promise<Issue> {
    return toIssue(await this.http.json<GlIssue>('GET', `${project(repo)}/issues/${number}`));
  }

  async listLabelledIssues(repo: ForgeRepo, label: string, since?: Date): Promise<Issue[]> {
    const issues = await followPages<GlIssue>(this.http, `${project(repo)}/issues`, {
      labels: label,
      state: 'opened',
      updated_after: since?.toISOString(),
    });
    return issues.map(toIssue);
  }

  async setCommitStatus(input: CommitStatusInput): Promise<void> {
    try {
      await this.http.json('POST', `${project(input.repo)}/statuses/${encodeURIComponent(input.sha)}`, {
        body: {
          state: GITLAB_STATE[input.state],
          name: input.context,
          description: cut(input.description, 140),
          ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
        },
      });
    } catch (err) {
      // GitLab refuses a transition to the state the status already has ("Cannot transition status via :run
      // from :running"): a repeated call has nothing left to do.
      if (err instanceof ForgeApiError && err.status === 400 && /cannot transition status/i.test(err.message)) return;
      throw err;
    }
  }

  async mayWrite(repo: ForgeRepo, login: string): Promise<boolean> {
    const users = await this.http.json<GlUser[]>('GET', '/users', { query: { username: login } });
    const user = users.find((u) => u.username.toLowerCase() === login.toLowerCase());
    if (!user) return false;
    let member: { access_level: number; membership_state?: string };
    try {
      // `all`: a member through the project's group (or its parents) counts, at their highest level.
      member = await this.http.json('GET', `${project(repo)}/members/all/${user.id}`);
    } catch (err) {
      if (err instanceof ForgeApiError && err.status === 404) return false; // not a member
      throw err;
    }
    if (member.membership_state !== undefined && member.membership_state !== 'active') return false;
    return member.access_level >= DEVELOPER;
  }

  async listReviews(repo: ForgeRepo, number: number): Promise<Review[]> {
    const [approvals, notes] = await Promise.all([
      this.http.json<{ approved_by?: Array<{ user: GlUser }> }>(
        'GET',
        `${project(repo)}/merge_requests/${number}/approvals`,
      ),
      this.diffNotes(repo, number),
    ]);
    const approvers = new Map((approvals.approved_by ?? []).map((a) => [a.user.id, a.user]));
    const reviews: Review[] = [...approvers.values()].map((u) => ({
      id: u.id,
      state: 'approved',
      body: '',
      author: u.username,
    }));
    const byAuthor = new Map<number, GlNote[]>();
    for (const n of notes) byAuthor.set(n.author.id, [...(byAuthor.get(n.author.id) ?? []), n]);
    for (const [id, own] of byAuthor) {
      if (approvers.has(id)) continue;
      const open = own.filter(isUnresolved);
      reviews.push({
        id,
        state: open.length ? 'changes_requested' : 'commented',
        body: '',
        author: own[0]!.author.username,
      });
    }
    return reviews;
  }

  async listReviewComments(repo: ForgeRepo, number: number, reviewId?: number): Promise<ReviewComment[]> {
    const notes = await this.diffNotes(repo, number);
    return notes.filter((n) => reviewId === undefined || n.author.id === reviewId).map(toReviewComment);
  }

  async resolveReview(
    repo: ForgeRepo,
    pullNumber: number,
    wanted: { id?: number; state: ReviewState; author: string },
  ): Promise<{ review: Review; comments: ReviewComment[] }> {
    const reviews = await this.listReviews(repo, pullNumber);
    const review =
      reviews.find((r) => wanted.id !== undefined && r.id === wanted.id) ??
      reviews.find((r) => r.author === wanted.author);
    if (!review) {
      throw new ForgeApiError(`no review by ${wanted.author} on ${repo.fullName}!${pullNumber}`, 404, {
        retryable: true, // the approval or note may not be visible yet
      });
    }
    const notes = (await this.diffNotes(repo, pullNumber)).filter((n) => n.author.id === review.id);
    const relevant = review.state === 'changes_requested' ? notes.filter(isUnresolved) : notes;
    return { review, comments: relevant.map(toReviewComment) };
  }

  /** The merge request's notes on lines of its diff (discussions' notes with a position). */
  private async diffNotes(repo: ForgeRepo, number: number): Promise<GlNote[]> {
    const discussions = await followPages<GlDiscussion>(
      this.http,
      `${project(repo)}/merge_requests/${number}/discussions`,
    );
    return discussions.flatMap((d) => d.notes).filter((n) => !n.system && n.position);
  }
}

function project(repo: ForgeRepo): string {
  if (!/^[^/]+(\/[^/]+)+$/.test(repo.fullName)) {
    throw new ForgeApiError(`${repo.fullName} is not a GitLab project path (group/name)`, 400, { retryable: false });
  }
  return `/projects/${encodeURIComponent(repo.fullName)}`;
}

function noteable(repo: ForgeRepo, number: number, on: ConversationKind): string {
  return `${project(repo)}/${on === 'pull' ? 'merge_requests' : 'issues'}/${number}`;
}

const isUnresolved = (n: GlNote) => n.resolvable === true && n.resolved !== true;
const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1) + '…');

/** One file of `/diffs` as git's unified diff (GitLab gives the hunks only). */
export function unifiedDiff(d: GlDiff): string {
  const from = d.new_file ? '/dev/null' : `a/${d.old_path}`;
  const to = d.deleted_file ? '/dev/null' : `b/${d.new_path}`;
  const hunks = d.diff && !d.diff.endsWith('\n') ? d.diff + '\n' : d.diff;
  return `diff --git a/${d.old_path} b/${d.new_path}\n--- ${from}\n+++ ${to}\n${hunks}`;
}

function toPullRequest(mr: GlMergeRequest): PullRequest {
  return {
    number: mr.iid,
    url: mr.web_url,
    title: mr.title,
    headBranch: mr.source_branch,
    baseBranch: mr.target_branch,
    headSha: mr.sha ?? '',
    state: mr.state === 'merged' ? 'merged' : mr.state === 'closed' ? 'closed' : 'open',
    author: mr.author?.username,
  };
}

function toIssue(i: GlIssue): Issue {
  return {
    number: i.iid,
    title: i.title,
    body: i.description ?? '',
    labels: i.labels,
    url: i.web_url,
    author: i.author?.username ?? '',
    state: i.state === 'closed' ? 'closed' : 'open',
    isPullRequest: false,
  };
}

function toIssueComment(n: GlNote): IssueComment {
  return { id: n.id, body: n.body, author: n.author.username };
}

function toReviewComment(n: GlNote): ReviewComment {
  return {
    id: n.id,
    body: n.body,
    author: n.author.username,
    path: n.position?.new_path ?? n.position?.old_path ?? '',
    line: n.position?.new_line ?? undefined,
    reviewId: n.author.id,
  };
}
