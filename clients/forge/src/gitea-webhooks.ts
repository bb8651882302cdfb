/**
 * Gitea's (and Forgejo's) webhook deliveries: the HMAC-SHA256 of the raw body under the hook's secret, hex, in
 * `X-Gitea-Signature` (also sent GitHub-style as `X-Hub-Signature-256: sha256=<hex>`). The events differ
 * from GitHub's: a label change is `issues` with action `label_updated` and the issue's labels after it (not
 * the one added); reviews are `pull_request_approved` / `pull_request_rejected` / `pull_request_comment`
 * with action `reviewed`, without the review's id or comments.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  WebhookRejected,
  type ForgeEvent,
  type ReviewState,
  type WebhookDelivery,
  type WebhookHeaders,
  type WebhookReader,
} from './forge';
import {
  toGiteaComment,
  toGiteaIssue,
  type GiteaComment,
  type GiteaIssue,
  type GiteaPull,
  type GiteaUser,
} from './gitea';

export interface GiteaWebhooksOptions {
  /**
   * The label the farm watches (FARM_FORGE_LABEL). A label change names no label, only the issue's labels
   * after it: with this set, it parses to `issue_labelled` with this label when the issue carries it (and to
   * nothing otherwise); without it, to its first label.
   */
  label?: string;
}

/** The review webhook events, by their X-Gitea-Event name and by their `review.type`. */
const REVIEW_STATES: Record<string, ReviewState> = {
  pull_request_approved: 'approved',
  pull_request_rejected: 'changes_requested',
  pull_request_comment: 'commented',
  pull_request_review_approved: 'approved',
  pull_request_review_rejected: 'changes_requested',
  pull_request_review_comment: 'commented',
};

interface GiteaPayload {
  action?: string;
  repository?: { full_name?: string };
  sender?: GiteaUser | null;
  issue?: GiteaIssue;
  comment?: GiteaComment;
  is_pull?: boolean;
  pull_request?: GiteaPull;
  review?: { type?: string; content?: string } | null;
}

export class GiteaWebhooks implements WebhookReader {
  readonly kind = 'gitea' as const;
  constructor(private readonly opts: GiteaWebhooksOptions = {}) {}

  verify(headers: WebhookHeaders, rawBody: Buffer, secret: string): WebhookDelivery {
    if (!secret) throw new WebhookRejected('no webhook secret is configured: every delivery is refused');
    const given = giteaSignature(headers);
    if (!given) throw new WebhookRejected('the delivery carries no X-Gitea-Signature nor X-Hub-Signature-256');
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    const actual = /^[0-9a-f]{64}$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
      throw new WebhookRejected('the delivery signature does not match the webhook secret');
    const deliveryId =
      header(headers, 'x-gitea-delivery') ??
      header(headers, 'x-forgejo-delivery') ??
      header(headers, 'x-github-delivery');
    const event =
      header(headers, 'x-gitea-event') ?? header(headers, 'x-forgejo-event') ?? header(headers, 'x-github-event');
    if (!deliveryId || !event) throw new WebhookRejected('the delivery carries no delivery id or event name');
    return { deliveryId, event };
  }

  parse(delivery: WebhookDelivery, payload: unknown): ForgeEvent | undefined {
    const p = (payload ?? {}) as GiteaPayload;
    const fullName = p.repository?.full_name;
    if (!fullName) return undefined;
    const repo = { fullName };
    const sender = p.sender?.login ?? '';
    switch (delivery.event) {
      case 'issues': {
        if (!p.issue || !['label_updated', 'labeled', 'opened', 'reopened'].includes(p.action ?? '')) return undefined;
        const issue = toGiteaIssue(p.issue);
        if (issue.isPullRequest) return undefined;
        const label = this.opts.label ? issue.labels.find((l) => l === this.opts.label) : issue.labels[0];
        return label === undefined ? undefined : { kind: 'issue_labelled', repo, issue, label, sender };
      }
      case 'issue_comment': {
        if (p.action !== 'created' || !p.issue || !p.comment) return undefined;
        const issue = toGiteaIssue(p.issue);
        return {
          kind: 'issue_comment',
          repo,
          issue: { ...issue, isPullRequest: issue.isPullRequest || p.is_pull === true },
          comment: toGiteaComment(p.comment),
          sender,
        };
      }
      case 'pull_request_approved':
      case 'pull_request_rejected':
      case 'pull_request_comment': {
        if (p.action !== 'reviewed' || !p.pull_request) return undefined;
        const state = REVIEW_STATES[p.review?.type ?? ''] ?? REVIEW_STATES[delivery.event];
        const pr = p.pull_request;
        return {
          kind: 'review',
          repo,
          pull: { number: pr.number, headBranch: pr.head.ref, headSha: pr.head.sha, url: pr.html_url },
          review: { state, body: p.review?.content ?? '', author: sender },
          sender,
        };
      }
      default:
        return undefined;
    }
  }
}

/** The hex signature of a delivery: Gitea's own header, else the GitHub-style one. */
function giteaSignature(headers: WebhookHeaders): string | undefined {
  const own = header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature');
  if (own) return own.trim();
  const hub = header(headers, 'x-hub-signature-256');
  return hub?.startsWith('sha256=') ? hub.slice('sha256='.length).trim() : undefined;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s ? s : undefined;
}
