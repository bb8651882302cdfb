/**
 * GitLab's webhook deliveries. GitLab does not sign the body: its scheme is a shared secret token, sent as
 * is in `X-Gitlab-Token`, which the reader compares with the configured secret in constant time (so the
 * delivery must come over TLS for the secret to stay one). The delivery id is `Idempotency-Key` (the same
 * across GitLab's retries of one delivery), else `X-Gitlab-Event-UUID`; the event is `X-Gitlab-Event`.
 *
 * Parsed: Issue Hook (an issue opened with the farm's label, or the label added), Note Hook (a comment on an
 * issue or a merge request; one with a diff position is a review comment), Merge Request Hook (an approval:
 * a review whose id is the approver's user id, see gitlab.ts for the review mapping).
 */
import { z } from '@farm/runtime';

import {
  type ForgeEvent,
  type Issue,
  type WebhookDelivery,
  type WebhookHeaders,
  type WebhookReader,
  WebhookRejected,
} from './forge';
import { read, type WebhookReaderOptions } from './github-webhooks';
import { constantTimeEqual, headerValue, requiredHeader } from './webhook-signature';

const user = z.object({ id: z.number(), username: z.string() }).passthrough();
const projectSchema = z.object({ path_with_namespace: z.string() }).passthrough();
const label = z.object({ title: z.string() }).passthrough();
const base = { user, project: projectSchema };

const issueHook = z.object({
  ...base,
  object_attributes: z
    .object({
      iid: z.number(),
      title: z.string(),
      description: z.string().nullish(),
      state: z.string(),
      url: z.string(),
      action: z.string().optional(),
    })
    .passthrough(),
  labels: z.array(label).default([]),
  changes: z
    .object({ labels: z.object({ previous: z.array(label), current: z.array(label) }).optional() })
    .passthrough()
    .optional(),
});

const position = z
  .object({
    new_path: z.string().nullish(),
    old_path: z.string().nullish(),
    new_line: z.number().nullish(),
  })
  .passthrough();
const noteHook = z.object({
  ...base,
  object_attributes: z
    .object({
      id: z.number(),
      note: z.string(),
      noteable_type: z.string(),
      url: z.string(),
      action: z.string().optional(),
      system: z.boolean().optional(),
      type: z.string().nullish(),
      position: position.nullish(),
    })
    .passthrough(),
  issue: z
    .object({
      iid: z.number(),
      title: z.string(),
      description: z.string().nullish(),
      state: z.string(),
      labels: z.array(label).default([]),
    })
    .passthrough()
    .optional(),
  merge_request: z
    .object({
      iid: z.number(),
      title: z.string(),
      description: z.string().nullish(),
      state: z.string(),
      source_branch: z.string(),
      last_commit: z.object({ id: z.string() }).passthrough(),
      url: z.string().optional(),
      labels: z.array(label).default([]),
    })
    .passthrough()
    .optional(),
});

const mergeRequestHook = z.object({
  ...base,
  object_attributes: z
    .object({
      iid: z.number(),
      source_branch: z.string(),
      url: z.string(),
      action: z.string().optional(),
      last_commit: z.object({ id: z.string() }).passthrough(),
    })
    .passthrough(),
});

export class GitLabWebhooks implements WebhookReader {
  readonly kind = 'gitlab' as const;
  constructor(private readonly opts: WebhookReaderOptions = {}) {}

  verify(headers: WebhookHeaders, _rawBody: Buffer, secret: string): WebhookDelivery {
    if (!secret) throw new WebhookRejected('no webhook secret is configured: deliveries cannot be verified');
    const token = requiredHeader(headers, 'x-gitlab-token');
    if (!constantTimeEqual(token, secret)) throw new WebhookRejected('X-Gitlab-Token is not the webhook secret');
    const deliveryId = headerValue(headers, 'idempotency-key') ?? headerValue(headers, 'x-gitlab-event-uuid');
    if (!deliveryId) throw new WebhookRejected('missing idempotency-key and x-gitlab-event-uuid headers');
    return { deliveryId, event: requiredHeader(headers, 'x-gitlab-event') };
  }

  parse(delivery: WebhookDelivery, payload: unknown): ForgeEvent | undefined {
    switch (delivery.event) {
      case 'Issue Hook':
      case 'Confidential Issue Hook':
        return this.issueLabelled(read(issueHook, payload, delivery.event));
      case 'Note Hook':
      case 'Confidential Note Hook':
        return noteEvent(read(noteHook, payload, delivery.event));
      case 'Merge Request Hook':
        return approvalEvent(read(mergeRequestHook, payload, delivery.event));
      default:
        return undefined;
    }
  }

  private issueLabelled(p: z.infer<typeof issueHook>): ForgeEvent | undefined {
    const a = p.object_attributes;
    let candidates: string[];
    if (a.action === 'open') candidates = p.labels.map((l) => l.title);
    else if (a.action === 'update' && p.changes?.labels) {
      const before = new Set(p.changes.labels.previous.map((l) => l.title));
      candidates = p.changes.labels.current.map((l) => l.title).filter((t) => !before.has(t));
    } else return undefined;
    const added = this.opts.label ? candidates.find((l) => l === this.opts.label) : candidates[0];
    if (!added) return undefined;
    const issue: Issue = {
      number: a.iid,
      title: a.title,
      body: a.description ?? '',
      labels: p.labels.map((l) => l.title),
      url: a.url,
      // The hook names the actor only: on `open` that is the author.
      author: a.action === 'open' ? p.user.username : '',
      state: a.state === 'closed' ? 'closed' : 'open',
      isPullRequest: false,
    };
    return { kind: 'issue_labelled', repo: repoOf(p), issue, label: added, sender: p.user.username };
  }
}

function repoOf(p: { project: { path_with_namespace: string } }) {
  return { fullName: p.project.path_with_namespace };
}

/** The page of what a note is on: the note's URL without its anchor. */
const pageOf = (noteUrl: string) => noteUrl.replace(/#note_\d+$/, '');

function noteEvent(p: z.infer<typeof noteHook>): ForgeEvent | undefined {
  const a = p.object_attributes;
  // Edits (`update`, GitLab 16.11+) and GitLab's own notes are not new requests.
  if ((a.action !== undefined && a.action !== 'create') || a.system) return undefined;
  const comment = { id: a.id, body: a.note, author: p.user.username, url: a.url };
  if (a.noteable_type === 'Issue' && p.issue) {
    const i = p.issue;
    const issue: Issue = {
      number: i.iid,
      title: i.title,
      body: i.description ?? '',
      labels: i.labels.map((l) => l.title),
      url: pageOf(a.url),
      author: '',
      state: i.state === 'closed' ? 'closed' : 'open',
      isPullRequest: false,
    };
    return { kind: 'issue_comment', repo: repoOf(p), issue, comment, sender: p.user.username };
  }
  if (a.noteable_type === 'MergeRequest' && p.merge_request) {
    const mr = p.merge_request;
    const pull = {
      number: mr.iid,
      headBranch: mr.source_branch,
      headSha: mr.last_commit.id,
      url: mr.url ?? pageOf(a.url),
    };
    if (a.position) {
      return {
        kind: 'review_comment',
        repo: repoOf(p),
        pull,
        comment: {
          id: a.id,
          body: a.note,
          author: p.user.username,
          path: a.position.new_path ?? a.position.old_path ?? '',
          line: a.position.new_line ?? undefined,
          reviewId: p.user.id,
        },
        sender: p.user.username,
      };
    }
    const issue: Issue = {
      number: mr.iid,
      title: mr.title,
      body: mr.description ?? '',
      labels: mr.labels.map((l) => l.title),
      url: pull.url,
      author: '',
      state: mr.state === 'opened' ? 'open' : 'closed',
      isPullRequest: true,
    };
    return { kind: 'issue_comment', repo: repoOf(p), issue, comment, sender: p.user.username };
  }
  return undefined; // commits and snippets
}

function approvalEvent(p: z.infer<typeof mergeRequestHook>): ForgeEvent | undefined {
  const a = p.object_attributes;
  // `approval`: one user approved; `approved`: the merge request has all the approvals it needs.
  if (a.action !== 'approval' && a.action !== 'approved') return undefined;
  return {
    kind: 'review',
    repo: repoOf(p),
    pull: { number: a.iid, headBranch: a.source_branch, headSha: a.last_commit.id, url: a.url },
    review: { id: p.user.id, state: 'approved', body: '', author: p.user.username },
    sender: p.user.username,
  };
}
