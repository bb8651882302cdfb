/**
 * The one interface the farm talks to a forge through (GitHub, GitLab, Gitea/Forgejo). Each adapter hides its
 * forge's differences (Gitea's merge route and review webhooks, GitLab's merge requests and notes), so the
 * orchestrator's forge bridge never asks which forge it has.
 */
import { FarmError } from '@farm/runtime';

export type ForgeKind = 'github' | 'gitlab' | 'gitea';

/** A repository on a forge: `owner/name` (GitLab: the project's full path, groups included). */
export interface ForgeRepo {
  /** `owner/name`, or a GitLab project's `group/subgroup/name`. */
  fullName: string;
}

export interface PullRequest {
  number: number;
  /** The page a person opens (html_url / web_url). */
  url: string;
  title: string;
  headBranch: string;
  baseBranch: string;
  headSha: string;
  state: 'open' | 'closed' | 'merged';
  author?: string;
}

export interface PullRequestInput {
  repo: ForgeRepo;
  /** The branch with the change, e.g. `farm/<request id>`. */
  head: string;
  /** The branch it goes into. */
  base: string;
  title: string;
  body: string;
}

/** The farm's commit status, one per context; `pending` while CODING/BUILD, then success or failure. */
export type CommitState = 'pending' | 'success' | 'failure' | 'error';

export interface CommitStatusInput {
  repo: ForgeRepo;
  sha: string;
  state: CommitState;
  /** The status's name on the forge (default `agent-farm`). */
  context: string;
  /** At most 140 characters (GitHub's limit); adapters cut longer ones. */
  description: string;
  targetUrl?: string;
}

export type ReviewState = 'approved' | 'changes_requested' | 'commented' | 'pending' | 'dismissed';

export interface Review {
  id: number;
  state: ReviewState;
  body: string;
  author: string;
  /** The head the review was written against, where the forge says. */
  commitSha?: string;
}

/** A comment on a line of a pull request's diff (GitHub review comment, GitLab diff note, Gitea review comment). */
export interface ReviewComment {
  id: number;
  body: string;
  author: string;
  path: string;
  /** The line in the new file the comment is on; undefined when it is on a removed line or outdated. */
  line?: number;
  reviewId?: number;
  /** The diff hunk the comment was made on, where the forge gives it. */
  diffHunk?: string;
}

/** Whose conversation a number names: an issue's or a pull (merge) request's. */
export type ConversationKind = 'issue' | 'pull';

/** A comment on an issue's or pull request's conversation. */
export interface IssueComment {
  id: number;
  body: string;
  author: string;
  url?: string;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  url: string;
  author: string;
  state: 'open' | 'closed';
  /** True when the "issue" is a pull request's conversation (GitHub and Gitea share the numbering). */
  isPullRequest: boolean;
}

/** What a forge call answers when it fails: the HTTP status and the forge's message, never the token. */
export class ForgeApiError extends FarmError {
  /** Not before this may the call be tried again (a rate limit that resets then). */
  readonly retryAt?: Date;
  constructor(
    message: string,
    readonly status: number,
    options: { retryable?: boolean; retryAt?: Date; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, {
      retryable: options.retryable ?? (status === 0 || status === 429 || status >= 500),
      details: {
        status,
        ...(options.retryAt ? { retryAt: options.retryAt.toISOString() } : {}),
        ...options.details,
      },
      cause: options.cause,
    });
    this.retryAt = options.retryAt;
  }
}

/** One forge's API, for one configured account. Every call is safe to repeat. */
export interface Forge {
  readonly kind: ForgeKind;
  /** The forge's web origin, e.g. https://github.com, http://127.0.0.1:3000 (used to tell which repos are on it). */
  readonly webUrl: string;

  /**
   * The repository a git remote URL names on this forge, or undefined when the URL is not this forge's
   * (credentials in the URL are ignored).
   */
  repoFor(remoteUrl: string): ForgeRepo | undefined;

  /** Where a change request for the repository starts: its clone URL (no credentials) and default branch. */
  repository(repo: ForgeRepo): Promise<{ cloneUrl: string; defaultBranch: string; webUrl: string }>;
  /** The open pull request from `head` into `base`, if any. */
  findPullRequest(repo: ForgeRepo, head: string, base?: string): Promise<PullRequest | undefined>;
  /**
   * Opens a pull request from `input.head`, or updates the open one's title and body: a repeated call (a
   * redelivered build result) never opens a second.
   */
  openOrUpdatePullRequest(input: PullRequestInput): Promise<{ pull: PullRequest; created: boolean }>;
  getPullRequest(repo: ForgeRepo, number: number): Promise<PullRequest>;
  /** The pull request's unified diff. */
  pullRequestDiff(repo: ForgeRepo, number: number): Promise<string>;

  /**
   * A comment on an issue's or a pull request's conversation. `on` says which the number is: GitLab numbers
   * issues and merge requests apart (default `issue`); GitHub and Gitea share the numbering and ignore it.
   */
  comment(repo: ForgeRepo, number: number, body: string, on?: ConversationKind): Promise<IssueComment>;
  listComments(repo: ForgeRepo, number: number, on?: ConversationKind): Promise<IssueComment[]>;
  getIssue(repo: ForgeRepo, number: number): Promise<Issue>;
  /** Open issues carrying `label`, updated since `since` (the poller's question). */
  listLabelledIssues(repo: ForgeRepo, label: string, since?: Date): Promise<Issue[]>;

  setCommitStatus(input: CommitStatusInput): Promise<void>;

  /**
   * Whether the forge says `login` may write to the repository (push to its branches): Gitea's and GitHub's
   * collaborator permission write or admin (the owner too), GitLab's Developer or above. False for a user the
   * forge does not know. Who may approve a plan from a comment. Throws when the forge will not say (Gitea shows
   * another user's permission to repository admins only).
   */
  mayWrite(repo: ForgeRepo, login: string): Promise<boolean>;

  listReviews(repo: ForgeRepo, number: number): Promise<Review[]>;
  /** Line comments of a pull request; of one review when `reviewId` is given (Gitea lists them per review only). */
  listReviewComments(repo: ForgeRepo, number: number, reviewId?: number): Promise<ReviewComment[]>;
  /**
   * A review event as the farm needs it: with its id and its line comments. Gitea's review webhooks carry
   * neither, so its adapter reads back the latest review of that author and state; the others fetch the
   * review's comments.
   */
  resolveReview(
    repo: ForgeRepo,
    pullNumber: number,
    review: { id?: number; state: ReviewState; author: string },
  ): Promise<{ review: Review; comments: ReviewComment[] }>;
}

/** Headers as node's http gives them (lower-case names). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** A verified delivery: its id (for replay detection) and the forge's event name. */
export interface WebhookDelivery {
  deliveryId: string;
  event: string;
}

/** Why a delivery is refused; the body is never part of it. */
export class WebhookRejected extends FarmError {
  constructor(message: string) {
    super(message, { retryable: false });
  }
}

/**
 * What the farm acts on, whatever forge sent it. Deliveries of other events parse to `undefined`.
 * `review` events of Gitea carry no review id nor comments: `resolveReview` reads them back.
 */
export type ForgeEvent =
  | { kind: 'issue_labelled'; repo: ForgeRepo; issue: Issue; label: string; sender: string }
  | { kind: 'issue_comment'; repo: ForgeRepo; issue: Issue; comment: IssueComment; sender: string }
  | {
      kind: 'review';
      repo: ForgeRepo;
      pull: { number: number; headBranch: string; headSha: string; url: string };
      review: { id?: number; state: ReviewState; body: string; author: string };
      sender: string;
    }
  | {
      kind: 'review_comment';
      repo: ForgeRepo;
      pull: { number: number; headBranch: string; headSha: string; url: string };
      comment: ReviewComment;
      sender: string;
    };

/** Verifies and reads one forge's webhook deliveries. */
export interface WebhookReader {
  readonly kind: ForgeKind;
  /**
   * Checks the delivery's signature (the forge's own scheme: HMAC-SHA256 for GitHub and Gitea, the secret
   * token header for GitLab) against the raw body, in constant time; throws WebhookRejected.
   */
  verify(headers: WebhookHeaders, rawBody: Buffer, secret: string): WebhookDelivery;
  /** The event the delivery carries, if the farm acts on it. */
  parse(delivery: WebhookDelivery, payload: unknown): ForgeEvent | undefined;
}
