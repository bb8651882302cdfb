// The forge bridge's decisions, pure: what an event asks of the farm, what a follow-up request says, what a
// pull request's text is, what to do on the forge when a request reaches a phase, and how a plan waiting for
// approval is shown and decided on in a comment.
import type { ForgeEvent, Issue, Review, ReviewComment } from '@farm/forge';
import type { ChangeRequestInput } from '../change-request-input';
import type { RequestSummary, TaskSummary } from '../request-store';
import type { FollowUpReply, ForgeLink } from './forge-store';

/** Marks the farm's own comments, so that a comment quoting the mention never triggers the farm again. */
export const FARM_MARKER = '<!-- agent-farm -->';

export interface BridgeSettings {
  label: string;
  mention: string;
}

/** What an event asks for, before any I/O: a request from an issue, a follow-up, or nothing (and why). */
export type EventIntent =
  | { kind: 'from-issue'; sourceKey: string; issue: Issue }
  | { kind: 'follow-up-comment'; sourceKey: string; pullNumber: number; comment: ReviewComment }
  /** A review: its comments are read back (Gitea sends none), each becomes a follow-up. */
  | { kind: 'review'; pullNumber: number; review: Extract<ForgeEvent, { kind: 'review' }>['review'] }
  /** `/farm approve` or `/farm reject <reason>` on the conversation of an issue or a pull request. */
  | {
      kind: 'plan-decision';
      sourceKey: string;
      number: number;
      on: 'issue' | 'pull';
      command: PlanCommand;
      author: string;
    }
  | { kind: 'ignore'; reason: string };

export function intentOf(event: ForgeEvent, s: BridgeSettings): EventIntent {
  const repo = event.repo.fullName;
  switch (event.kind) {
    case 'issue_labelled':
      if (event.label !== s.label) return { kind: 'ignore', reason: `label ${event.label} is not ${s.label}` };
      if (event.issue.isPullRequest) return { kind: 'ignore', reason: 'a labelled pull request is not an issue' };
      if (event.issue.state !== 'open') return { kind: 'ignore', reason: 'the issue is closed' };
      return { kind: 'from-issue', sourceKey: issueKey(repo, event.issue.number), issue: event.issue };
    case 'issue_comment': {
      const body = event.comment.body;
      if (body.includes(FARM_MARKER)) return { kind: 'ignore', reason: "the farm's own comment" };
      // A decision on a plan is that only: never a request from the issue nor a follow-up as well.
      const command = planCommand(body);
      if (command) {
        return {
          kind: 'plan-decision',
          sourceKey: `comment:${repo}:${event.comment.id}`,
          number: event.issue.number,
          on: event.issue.isPullRequest ? 'pull' : 'issue',
          command,
          author: event.comment.author,
        };
      }
      if (!mentions(body, s.mention)) return { kind: 'ignore', reason: `no ${s.mention} in the comment` };
      if (!event.issue.isPullRequest) {
        return { kind: 'from-issue', sourceKey: issueKey(repo, event.issue.number), issue: event.issue };
      }
      return {
        kind: 'follow-up-comment',
        sourceKey: `comment:${repo}:${event.comment.id}`,
        pullNumber: event.issue.number,
        comment: { id: event.comment.id, body, author: event.comment.author, path: '' },
      };
    }
    case 'review': {
      const { review } = event;
      if (review.state === 'changes_requested' || (review.state === 'commented' && mentions(review.body, s.mention)))
        return { kind: 'review', pullNumber: event.pull.number, review };
      return { kind: 'ignore', reason: `a review that is ${review.state}` };
    }
    case 'review_comment': {
      if (event.comment.body.includes(FARM_MARKER)) return { kind: 'ignore', reason: "the farm's own comment" };
      const command = planCommand(event.comment.body);
      if (command) {
        return {
          kind: 'plan-decision',
          sourceKey: reviewCommentKey(repo, event.comment.id),
          number: event.pull.number,
          on: 'pull',
          command,
          author: event.comment.author,
        };
      }
      return {
        kind: 'follow-up-comment',
        sourceKey: reviewCommentKey(repo, event.comment.id),
        pullNumber: event.pull.number,
        comment: event.comment,
      };
    }
  }
}

/** A decision on a plan in a comment: what to do, and the rest of what it says (a request's id, the reason). */
export interface PlanCommand {
  decision: 'approve' | 'reject';
  /** After the command: the rest of its line, else the lines below it. */
  text: string;
}

/**
 * The decision a comment makes: its first line (blank lines before it aside) is `/farm approve` or `/farm
 * reject <reason>`, `/farm` in any case. Anywhere else (quoted, mid-text) it is no command.
 */
export function planCommand(body: string): PlanCommand | undefined {
  const lines = body.replace(/^\s+/, '').split(/\r?\n/);
  const match = /^\/farm\s+(approve|reject)(?:\s+(.*))?$/i.exec(lines[0]!.trim());
  if (!match) return undefined;
  const rest = (match[2] ?? '').trim() || lines.slice(1).join('\n').trim();
  return { decision: match[1]!.toLowerCase() as PlanCommand['decision'], text: rest };
}

/** What a decision comment is about: the plan it decides and the reason given, or why there is none. */
export type DecisionTarget =
  | { kind: 'decide'; changeRequestId: string; reason: string }
  | { kind: 'nothing-waits'; changeRequestId?: string }
  | { kind: 'which'; waiting: string[] }
  | { kind: 'no-reason' };

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The longest reason the API takes (RejectInput). */
const MAX_REASON = 2000;

/**
 * The plan a decision on a conversation is for: the one waiting there, or (several waiting) the one whose id
 * the command names first (`/farm approve <id>`). A named request that does not wait is not replaced by
 * another. A rejection needs its reason.
 */
export function decisionTarget(command: PlanCommand, requests: { waiting: string[]; known: string[] }): DecisionTarget {
  const [first = '', ...others] = command.text.split(/(\s+)/);
  const named = requests.known.includes(first) || REQUEST_ID.test(first) ? first : undefined;
  let id: string;
  let reason = command.text;
  if (named) {
    if (!requests.waiting.includes(named)) return { kind: 'nothing-waits', changeRequestId: named };
    id = named;
    reason = others.join('');
  } else if (requests.waiting.length === 1) {
    id = requests.waiting[0]!;
  } else if (!requests.waiting.length) {
    return { kind: 'nothing-waits' };
  } else {
    return { kind: 'which', waiting: [...requests.waiting].sort() };
  }
  reason = reason.replace(/\0/g, '').trim();
  if (reason.length > MAX_REASON) reason = `${reason.slice(0, MAX_REASON - 1)}…`;
  if (command.decision === 'reject' && !reason) return { kind: 'no-reason' };
  return { kind: 'decide', changeRequestId: id, reason };
}

/** How a decision comment was answered (the farm's reply to it). */
export type DecisionOutcome =
  | { kind: 'approved' | 'rejected'; changeRequestId: string; reason: string; requestUrl?: string }
  | { kind: 'not-a-writer' }
  /** The forge would not say whether the author may write (Gitea: the farm's account is no repository admin). */
  | { kind: 'cannot-check'; why: string }
  | { kind: 'nothing-waits'; changeRequestId?: string }
  | { kind: 'which'; waiting: string[] }
  | { kind: 'no-reason' };

/** The farm's answer to a decision comment, addressed to its author, marked as the farm's own. */
export function decisionAnswer(o: DecisionOutcome, c: { author: string; command: PlanCommand }): string {
  const who = c.author ? `@${c.author}` : 'The commenter';
  const verb = c.command.decision;
  const id = (changeRequestId: string, url?: string) =>
    `change request \`${changeRequestId}\`${url ? ` (${url})` : ''}`;
  let text: string;
  switch (o.kind) {
    case 'approved':
      text = `Plan approved by ${who}: ${id(o.changeRequestId, o.requestUrl)} goes on.`;
      break;
    case 'rejected':
      text = `Plan rejected by ${who}: ${id(o.changeRequestId, o.requestUrl)} is cancelled (${firstLine(o.reason, 300)}).`;
      break;
    case 'not-a-writer':
      text = `${who}: refused, only someone who may write to the repository can ${verb} the plan. Nothing was changed.`;
      break;
    case 'cannot-check':
      text = `${who}: refused, the farm cannot tell whether you may write to the repository (${firstLine(o.why, 300)}). Nothing was changed; decide in the farm's console or with \`farm ${verb}\`.`;
      break;
    case 'nothing-waits':
      text = `${who}: nothing waits for approval${o.changeRequestId ? ` as ${id(o.changeRequestId)}` : ' here'}. Nothing was changed.`;
      break;
    case 'which':
      text = `${who}: several plans wait for approval here (${o.waiting.map((w) => `\`${w}\``).join(', ')}): name one, e.g. \`/farm ${verb} ${o.waiting[0]}${verb === 'reject' ? ' <reason>' : ''}\`. Nothing was changed.`;
      break;
    case 'no-reason':
      text = `${who}: a plan is rejected with a reason: \`/farm reject <reason>\`. Nothing was changed.`;
      break;
  }
  return `${text}\n\n${FARM_MARKER}`;
}

/** A task of a plan as the plan comment shows it (GET /v1/change-requests/{id}'s `tasks`). */
export type PlannedTask = Pick<
  TaskSummary,
  'id' | 'goal' | 'dependsOn' | 'kind' | 'path' | 'symbols' | 'estimatedChangedLines'
>;

const MAX_PLAN_TASKS = 30;
const MAX_SYMBOLS = 8;

/**
 * The plan of a request waiting for approval, posted where the request came from: why it waits, each task in
 * the order it runs (its id, kind, goal, main file, symbols, what it waits for), and how to decide.
 */
export function planText(c: {
  link: Pick<ForgeLink, 'origin' | 'changeRequestId' | 'reply'>;
  requestUrl?: string;
  /** The transition's reason (`2 task(s) at 1a2b wait for approval: <why>`). */
  reason: string;
  tasks: PlannedTask[];
  /** False on a repository the farm polls: it hears no comments there, the plan is decided elsewhere. */
  hearsComments?: boolean;
}): string {
  const id = c.link.changeRequestId;
  const ref = `\`${id}\`${c.requestUrl ? ` (${c.requestUrl})` : ''}`;
  const about = c.link.origin === 'follow-up' ? ` for ${replyTarget(c.link.reply)}` : '';
  const why =
    /wait for approval: (.+)$/s.exec(c.reason)?.[1]?.trim() || c.reason.trim() || "the farm's approval policy";
  const ordered = runOrder(c.tasks);
  const shown = ordered.slice(0, MAX_PLAN_TASKS);
  const lines = [
    `The plan of change request ${ref}${about} waits for approval before any agent starts: ${why}.`,
    '',
    `**Plan: ${c.tasks.length} task${c.tasks.length === 1 ? '' : 's'}**, in the order they run:`,
    '',
    ...shown.flatMap((t, n) => {
      const kind = kindName(t.kind);
      const symbols = t.symbols ?? [];
      const details = [
        t.path ? `file ${code(t.path)}` : '',
        symbols.length
          ? `symbols ${symbols.slice(0, MAX_SYMBOLS).map(code).join(', ')}${symbols.length > MAX_SYMBOLS ? ` and ${symbols.length - MAX_SYMBOLS} more` : ''}`
          : '',
        t.estimatedChangedLines ? `about ${t.estimatedChangedLines} changed lines` : '',
        t.dependsOn.length ? `after ${t.dependsOn.map(code).join(', ')}` : '',
      ].filter(Boolean);
      return [
        `${n + 1}. ${code(t.id)}${kind ? ` (${kind})` : ''}: ${firstLine(t.goal, 300) || '—'}`,
        ...(details.length ? [`   ${details.join(' · ')}`] : []),
      ];
    }),
    ...(ordered.length > shown.length ? [`… and ${ordered.length - shown.length} more tasks (see the console).`] : []),
    '',
    ...(c.hearsComments === false
      ? [
          `The farm does not hear comments on this repository (it polls it): decide ${
            c.requestUrl ? `in the console (${c.requestUrl}) or ` : ''
          }with \`farm approve ${id}\` or \`farm reject ${id} --reason <why>\`.`,
        ]
      : [
          'To decide, answer with a comment that starts with:',
          '- `/farm approve` to run the plan as it is;',
          '- `/farm reject <reason>` to cancel the request.',
          '',
          `Only someone who may write to the repository can decide. To leave tasks out or reword their goals, ${
            c.requestUrl ? `use the console (${c.requestUrl}) or` : 'use'
          } \`farm approve ${id} --remove <task> --goal <task>=<text>\`.`,
        ]),
  ];
  return `${lines.join('\n')}\n\n${FARM_MARKER}`;
}

/** The tasks in an order they can run in: each after what it depends on, otherwise by id. */
export function runOrder<T extends { id: string; dependsOn: string[] }>(tasks: T[]): T[] {
  const left = [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Set(left.map((t) => t.id));
  const done = new Set<string>();
  const out: T[] = [];
  while (left.length) {
    const at = left.findIndex((t) => t.dependsOn.every((d) => done.has(d) || !ids.has(d)));
    // A cycle (the planner never makes one): the rest as they are.
    const [next] = left.splice(at < 0 ? 0 : at, 1);
    out.push(next!);
    done.add(next!.id);
  }
  return out;
}

const kindName = (kind?: string) => (kind ?? '').replace(/^TASK_KIND_.*$/, '').toLowerCase();
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

/**
 * Why an issue event that waited (the forge was away, the inbox was behind) no longer asks for a request, read
 * against the issue as it is now: closed meanwhile, or the farm's label taken off again. Undefined: still wanted.
 */
export function noLongerWanted(event: ForgeEvent, now: Issue, s: BridgeSettings): string | undefined {
  if (now.state !== 'open') return 'the issue was closed meanwhile';
  if (event.kind === 'issue_labelled' && !now.labels.includes(s.label)) return `the label ${s.label} was taken off`;
  return undefined;
}

export const issueKey = (repo: string, n: number) => `issue:${repo}#${n}`;
export const reviewCommentKey = (repo: string, id: number) => `review-comment:${repo}:${id}`;
export const reviewKey = (repo: string, id: number) => `review:${repo}:${id}`;

function mentions(body: string, mention: string): boolean {
  const at = body.toLowerCase().indexOf(mention.toLowerCase());
  if (at < 0) return false;
  const next = body[at + mention.length];
  return next === undefined || !/[\w-]/.test(next); // @agent-farm, not @agent-farmer
}

/** A review's follow-ups: one per line comment, several at once; a review without any is one for its body. */
export function reviewFollowUps(
  repo: string,
  review: Review,
  comments: ReviewComment[],
): { sourceKey: string; comment: ReviewComment }[] {
  const own = comments.filter((c) => !c.body.includes(FARM_MARKER));
  if (own.length) return own.map((c) => ({ sourceKey: reviewCommentKey(repo, c.id), comment: c }));
  if (!review.body.trim()) return [];
  return [
    {
      sourceKey: reviewKey(repo, review.id),
      comment: { id: review.id, body: review.body, author: review.author, path: '', reviewId: review.id },
    },
  ];
}

const MAX_DIFF_CHARS = 30_000;
const firstLine = (s: string, max = 120) => {
  const line = s.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** A change request for an issue: its title and body are the goal. */
export function issueRequest(
  issue: Issue,
  repo: { cloneUrl: string; defaultBranch: string },
  checkCommand = '',
): ChangeRequestInput {
  return {
    title: firstLine(issue.title, 500) || `Issue #${issue.number}`,
    description: `${issue.body.trim()}\n\n(From issue #${issue.number}: ${issue.url})`.slice(0, 100_000),
    requestedBy: `forge:${issue.author}`,
    checkCommand,
    repo: { url: repo.cloneUrl, baseRef: repo.defaultBranch, baseCommit: '' },
  };
}

/**
 * A follow-up on a pull request: the comment (file and line), the pull request's diff as context and the
 * earlier request's notes; started from the pull request's head and pushed back onto its branch.
 */
export function followUpRequest(input: {
  pull: { number: number; url: string; headBranch: string; headSha: string };
  comment: ReviewComment;
  parent: { repoUrl: string; checkCommand: string; title: string; notes: string[] };
  diff: string;
}): ChangeRequestInput {
  const { pull, comment, parent } = input;
  const where = comment.path ? ` on ${comment.path}${comment.line ? `:${comment.line}` : ''}` : '';
  const diff = input.diff.length > MAX_DIFF_CHARS ? `${input.diff.slice(0, MAX_DIFF_CHARS)}\n… (diff cut)` : input.diff;
  const sections = [
    `A reviewer (${comment.author}) asked for a change${where} in pull request #${pull.number} (${pull.url}):`,
    quote(comment.body.replace(FARM_MARKER, '').trim()),
    ...(comment.diffHunk ? ['The lines the comment is on:', fence(comment.diffHunk)] : []),
    `Change only what the comment asks for. The pull request was made for: ${parent.title}`,
    ...(parent.notes.length ? ['Notes of the earlier work:', parent.notes.map((n) => `- ${n}`).join('\n')] : []),
    "The pull request's diff so far:",
    fence(diff),
  ];
  return {
    title: `Review of #${pull.number}${where}: ${firstLine(comment.body, 200)}`.slice(0, 500),
    description: sections.join('\n\n').slice(0, 100_000),
    requestedBy: `forge:${comment.author}`,
    checkCommand: parent.checkCommand,
    repo: { url: parent.repoUrl, baseRef: pull.headBranch, baseCommit: pull.headSha },
    integrationBranch: pull.headBranch,
  };
}

const quote = (s: string) =>
  s
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
const fence = (s: string) => `\`\`\`diff\n${s.replace(/```/g, '`\u200b``')}\n\`\`\``;

/** The pull request's title and body: the goal, the tasks and what checked them, cost and tokens, links. */
export function pullRequestText(
  r: { request: RequestSummary; tasks: TaskSummary[]; description: string },
  links: { requestUrl?: string; issue?: { number: number; url: string } },
): { title: string; body: string } {
  const { request, tasks } = r;
  const checks = [...new Set(tasks.flatMap(checksOf))];
  const lines = [
    FARM_MARKER,
    r.description.trim() ? r.description.trim() : request.title,
    '',
    ...(links.issue ? [`Closes #${links.issue.number}`, ''] : []),
    ...verificationLines(tasks),
    '### Tasks',
    ...tasks.map((t) => `- **${firstLine(t.goal)}** (${t.status.toLowerCase()}): ${firstLine(t.notes, 300) || '—'}`),
    '',
    '### Checks',
    checks.length ? checks.map((c) => `- ${c}`).join('\n') : '- no checks were found in the repository',
    '',
    `Cost: $${request.costUsd.toFixed(4)} · tokens: ${request.tokens.total} (prompt ${request.tokens.prompt}, completion ${request.tokens.completion}) · agent attempts: ${request.attempts}`,
    '',
    `Change request \`${request.id}\`${links.requestUrl ? `: ${links.requestUrl}` : ''}`,
  ];
  return { title: request.title.slice(0, 250), body: lines.join('\n') };
}

/** What the reviewer of the pull request must know first: a task whose change no test shows to work. */
export function unverifiedNote(t: Pick<TaskSummary, 'verification'>): string | undefined {
  const v = t.verification as { unverifiedReason?: string; acceptedByReviewer?: boolean } | undefined;
  if (!v?.unverifiedReason) return undefined;
  return v.acceptedByReviewer
    ? `unverified, accepted by the farm's reviewer: ${v.unverifiedReason}`
    : `NOT VERIFIED: ${v.unverifiedReason}`;
}

function verificationLines(tasks: TaskSummary[]): string[] {
  const unverified = tasks.flatMap((t) => {
    const note = unverifiedNote(t);
    return note ? [`- ⚠️ **${firstLine(t.goal)}**: ${note}`] : [];
  });
  return unverified.length ? ['### Not verified by a test', ...unverified, ''] : [];
}

function checksOf(t: TaskSummary): string[] {
  const checks = (t.verification?.checks ?? []) as { name?: string; run?: string; ok?: boolean; skipped?: boolean }[];
  return checks
    .filter((c) => !c.skipped)
    .map((c) => `${c.ok ? '✅' : '❌'} ${c.name ?? 'check'}${c.run ? `: \`${c.run}\`` : ''}`);
}

/** What to do on the forge when a linked request is seen in `phase`; each effect is done once. */
export type ForgeEffect =
  | { kind: 'announce' }
  /** The plan, on the issue or pull request, while it waits for approval. */
  | { kind: 'plan' }
  | { kind: 'pending-status' }
  | { kind: 'open-pull-request' }
  | { kind: 'final-status'; state: 'success' | 'failure' }
  | { kind: 'final-comment'; outcome: 'done' | 'failed' | 'cancelled' };

export function effectsFor(link: Pick<ForgeLink, 'origin'>, phase: string): ForgeEffect[] {
  const ended = phase === 'DONE' ? 'done' : phase === 'FAILED' ? 'failed' : phase === 'CANCELLED' ? 'cancelled' : '';
  const out: ForgeEffect[] = [];
  if (link.origin !== 'request') out.push({ kind: 'announce' });
  if (phase === 'AWAITING_APPROVAL' && link.origin !== 'request') out.push({ kind: 'plan' });
  // Only a follow-up has a commit to mark while it works: its pull request's head.
  if (link.origin === 'follow-up' && !ended) out.push({ kind: 'pending-status' });
  if (ended === 'done' && link.origin !== 'follow-up') out.push({ kind: 'open-pull-request' });
  if (ended === 'done') out.push({ kind: 'final-status', state: 'success' });
  if (ended && ended !== 'done' && link.origin === 'follow-up') out.push({ kind: 'final-status', state: 'failure' });
  // A plain submission has no conversation to answer in: its pull request says it all.
  if (ended && link.origin !== 'request') out.push({ kind: 'final-comment', outcome: ended });
  return out;
}

/** The key an effect is remembered under (one comment per effect, one final status). */
export const effectKey = (e: ForgeEffect): string =>
  e.kind === 'final-status' ? `status:${e.state}` : e.kind === 'final-comment' ? `comment:${e.outcome}` : e.kind;

/** The farm's comments: short, with the request's id and link, marked as the farm's own. */
export function commentText(
  e: Extract<ForgeEffect, { kind: 'announce' } | { kind: 'final-comment' }>,
  c: {
    link: Pick<ForgeLink, 'origin' | 'changeRequestId' | 'reply'>;
    requestUrl?: string;
    pullUrl?: string;
    reason?: string;
    headSha?: string;
    /** A follow-up's pull request now: closed or merged while the follow-up ran, its head is not the push. */
    pullState?: 'open' | 'closed' | 'merged';
    /** What of a done request no test shows to work (unverifiedNote of its tasks). */
    unverified?: string[];
  },
): string {
  const id = `\`${c.link.changeRequestId}\`${c.requestUrl ? ` (${c.requestUrl})` : ''}`;
  const about = replyTarget(c.link.reply);
  let text: string;
  if (e.kind === 'announce') {
    text =
      c.link.origin === 'follow-up'
        ? `Working on ${about}: change request ${id}.`
        : `Working on this issue: change request ${id}.`;
  } else if (e.outcome === 'done' && c.link.origin === 'follow-up' && c.pullState && c.pullState !== 'open') {
    const branch = c.link.reply.headBranch ? `\`${c.link.reply.headBranch}\`` : 'its branch';
    text = `This pull request was ${c.pullState} while the farm worked on ${about}: the change is on ${branch}, not in the pull request (change request ${id}).`;
  } else if (e.outcome === 'done') {
    text =
      c.link.origin === 'follow-up'
        ? `Pushed ${c.headSha ? c.headSha.slice(0, 12) : 'a commit'} for ${about} (change request ${id}).`
        : `Done: ${c.pullUrl ? `pull request ${c.pullUrl}` : 'the change is on its branch'} (change request ${id}).`;
    if (c.unverified?.length) text += `\n\n⚠️ ${c.unverified.map((u) => firstLine(u, 300)).join('\n⚠️ ')}`;
  } else {
    const why = c.reason ? `: ${c.reason}` : '';
    text =
      c.link.origin === 'follow-up'
        ? `Could not address ${about}, change request ${id} ${e.outcome}${why}`
        : `Change request ${id} ${e.outcome}${why}`;
  }
  return `${text}\n\n${FARM_MARKER}`;
}

function replyTarget(reply: FollowUpReply): string {
  const where = reply.path ? ` on ${reply.path}${reply.line ? `:${reply.line}` : ''}` : '';
  return `the comment${reply.author ? ` of @${reply.author}` : ''}${where}`;
}

/**
 * How long a delivery that keeps failing for a reason that may pass (the forge down, rate limited) is tried
 * again: a day, so an outage of hours delays an issue's request, never loses it.
 */
export const DELIVERY_RETRY_WINDOW_MS = 24 * 3600_000;

/** Whether a failed delivery is given up: its failure is final, or it has been failing for a day. */
export function giveUpDelivery(retryable: boolean, receivedAt: Date, now = Date.now()): boolean {
  return !retryable || now - receivedAt.getTime() >= DELIVERY_RETRY_WINDOW_MS;
}

/**
 * What a failed effect (a comment, a status, a pull request) means for the ones after it. The forge saying the
 * thing is gone or refusing its content (404, 410, 422: a deleted issue, a pull request with no commits) will
 * not pass by retrying: that effect is skipped so the rest still happen. Anything else is tried again later,
 * 401/403 included: a token an operator fixes lets every postponed effect through.
 */
export function effectFailure(err: { retryable?: boolean; status?: number }): 'retry' | 'skip' {
  if (err.retryable !== false) return 'retry';
  return err.status === 404 || err.status === 410 || err.status === 422 ? 'skip' : 'retry';
}

/** A failed forge step's next try: backing off with the attempts (at most 5 min), never before a limit resets. */
export function retryDelayMs(attempts: number, retryAt?: Date, now = Date.now()): number {
  const backoff = Math.min(5 * 60_000, 1000 * 2 ** attempts);
  return Math.max(backoff, retryAt ? retryAt.getTime() - now : 0);
}
