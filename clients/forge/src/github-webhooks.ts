/**
 * GitHub's webhook deliveries: `X-Hub-Signature-256` (HMAC-SHA256 of the raw body under the hook's secret),
 * `X-GitHub-Delivery` (the delivery's id, kept across redeliveries) and `X-GitHub-Event`. Parses what the farm
 * acts on: labelled issues, conversation comments, submitted reviews and review comments.
 */
import { z } from '@farm/runtime';

import {
  type ForgeEvent,
  type WebhookDelivery,
  type WebhookHeaders,
  type WebhookReader,
  WebhookRejected,
} from './forge';
import { toIssue, toIssueComment, toReviewComment, toReviewState } from './github';
import { requiredHeader, verifyHmacSha256 } from './webhook-signature';

export interface WebhookReaderOptions {
  /**
   * The farm's label. With it, an `opened` issue counts when it carries the label; without it, when it carries
   * any (the event names its first). A `labeled` delivery always names the label just added.
   */
  label?: string;
}

const user = z.object({ login: z.string() }).passthrough();
const repository = z.object({ full_name: z.string() }).passthrough();
const label = z.object({ name: z.string() }).passthrough();
const issue = z
  .object({
    number: z.number(),
    title: z.string(),
    body: z.string().nullish(),
    html_url: z.string(),
    state: z.string(),
    user: user.nullable(),
    labels: z.array(label).default([]),
    pull_request: z.unknown().optional(),
  })
  .passthrough();
const pull = z
  .object({
    number: z.number(),
    html_url: z.string(),
    head: z.object({ ref: z.string(), sha: z.string() }).passthrough(),
  })
  .passthrough();
const base = { repository, sender: user };

const issuesEvent = z.object({ ...base, action: z.string(), issue, label: label.optional() });
const issueCommentEvent = z.object({
  ...base,
  action: z.string(),
  issue,
  comment: z.object({ id: z.number(), body: z.string(), html_url: z.string(), user: user.nullable() }).passthrough(),
});
const reviewEvent = z.object({
  ...base,
  action: z.string(),
  pull_request: pull,
  review: z
    .object({ id: z.number(), state: z.string(), body: z.string().nullish(), user: user.nullable() })
    .passthrough(),
});
const reviewCommentEvent = z.object({
  ...base,
  action: z.string(),
  pull_request: pull,
  comment: z
    .object({
      id: z.number(),
      body: z.string(),
      path: z.string(),
      user: user.nullable(),
      line: z.number().nullish(),
      side: z.enum(['LEFT', 'RIGHT']).nullish(),
      pull_request_review_id: z.number().nullish(),
      diff_hunk: z.string(),
    })
    .passthrough(),
});

export class GitHubWebhooks implements WebhookReader {
  readonly kind = 'github' as const;
  constructor(private readonly opts: WebhookReaderOptions = {}) {}

  verify(headers: WebhookHeaders, rawBody: Buffer, secret: string): WebhookDelivery {
    const signature = requiredHeader(headers, 'x-hub-signature-256');
    verifyHmacSha256(rawBody, secret, signature, 'X-Hub-Signature-256');
    return {
      deliveryId: requiredHeader(headers, 'x-github-delivery'),
      event: requiredHeader(headers, 'x-github-event'),
    };
  }

  parse(delivery: WebhookDelivery, payload: unknown): ForgeEvent | undefined {
    const action = (payload as { action?: unknown } | null)?.action;
    switch (`${delivery.event}.${String(action)}`) {
      case 'issues.labeled':
      case 'issues.opened': {
        const p = read(issuesEvent, payload, delivery.event);
        const labels = p.issue.labels.map((l) => l.name);
        const added =
          p.action === 'labeled'
            ? p.label?.name
            : this.opts.label
              ? labels.find((l) => l === this.opts.label)
              : labels[0];
        if (!added) return undefined;
        return {
          kind: 'issue_labelled',
          repo: { fullName: p.repository.full_name },
          issue: toIssue(p.issue),
          label: added,
          sender: p.sender.login,
        };
      }
      case 'issue_comment.created': {
        const p = read(issueCommentEvent, payload, delivery.event);
        return {
          kind: 'issue_comment',
          repo: { fullName: p.repository.full_name },
          issue: toIssue(p.issue),
          comment: toIssueComment(p.comment),
          sender: p.sender.login,
        };
      }
      case 'pull_request_review.submitted': {
        const p = read(reviewEvent, payload, delivery.event);
        return {
          kind: 'review',
          repo: { fullName: p.repository.full_name },
          pull: pullOf(p.pull_request),
          review: {
            id: p.review.id,
            state: toReviewState(p.review.state),
            body: p.review.body ?? '',
            author: p.review.user?.login ?? '',
          },
          sender: p.sender.login,
        };
      }
      case 'pull_request_review_comment.created': {
        const p = read(reviewCommentEvent, payload, delivery.event);
        return {
          kind: 'review_comment',
          repo: { fullName: p.repository.full_name },
          pull: pullOf(p.pull_request),
          comment: toReviewComment({
            ...p.comment,
            side: p.comment.side ?? undefined,
            pull_request_review_id: p.comment.pull_request_review_id ?? null,
          }),
          sender: p.sender.login,
        };
      }
      default:
        return undefined;
    }
  }
}

function pullOf(p: z.infer<typeof pull>) {
  return { number: p.number, headBranch: p.head.ref, headSha: p.head.sha, url: p.html_url };
}

/** The payload's fields the farm reads, or WebhookRejected naming the missing ones (never their values). */
export function read<S extends z.ZodTypeAny>(schema: S, payload: unknown, event: string): z.infer<S> {
  const r = schema.safeParse(payload);
  if (!r.success) {
    const where = r.error.issues.map((i) => i.path.join('.') || '(root)').slice(0, 5);
    throw new WebhookRejected(`${event} payload lacks or mistypes: ${where.join(', ')}`);
  }
  return r.data;
}
