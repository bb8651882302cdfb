// The farm on the team's forge: deliveries in the inbox become change requests (an issue) or follow-ups (a
// review comment on a farm pull request), or decide a plan waiting for approval (`/farm approve`); a linked
// request's phases become comments (its plan, while it waits), commit statuses and, at the end, a pull
// request. Rows first, forge calls after: a forge that is away delays, never loses, an effect.
import { randomUUID } from 'node:crypto';
import { ForgeApiError, type Forge, type ForgeRepo, type ReviewComment } from '@farm/forge';
import { errorMessage, FarmError, type Logger } from '@farm/runtime';
import type { SqlExecutor, SqlStore } from '@farm/store';
import { ApiError } from '../api-error';
import type { ChangeRequestInput, PlanDecisionInput } from '../change-request-input';
import { orchestratorMetrics } from '../metrics';
import { getRequest, requestContext } from '../request-store';
import {
  commentText,
  decisionAnswer,
  decisionTarget,
  effectKey,
  effectFailure,
  effectsFor,
  followUpRequest,
  giveUpDelivery,
  intentOf,
  noLongerWanted,
  issueRequest,
  planText,
  pullRequestText,
  unverifiedNote,
  retryDelayMs,
  reviewFollowUps,
  type BridgeSettings,
  type DecisionOutcome,
  type EventIntent,
  type ForgeEffect,
} from './forge-decisions';
import {
  decisionEffect,
  decisionOf,
  dueDeliveries,
  effectDone,
  finishDelivery,
  insertLink,
  linkBySource,
  linkFor,
  linksToSync,
  markEffect,
  markSynced,
  postponeDelivery,
  postponeSync,
  requestOfPull,
  requestsOnConversation,
  setPullRequest,
  takeDelivery,
  unlinkedDoneRequests,
  type ForgeLink,
  type InboxItem,
  type LinkOrigin,
} from './forge-store';

export interface ForgeBridgeSettings extends BridgeSettings {
  statusContext: string;
  pullRequests: 'request' | 'task' | 'off';
  /** The farm's address for people (the console's links); none: comments carry the id only. */
  publicUrl?: string;
  /** Repositories polled for labelled issues (for a farm the forge cannot reach). */
  pollRepos: string[];
  pollIntervalMs: number;
}

export interface ForgeBridgeDeps {
  store: SqlStore;
  forge: Forge;
  /** Records a change request (and its link, in the same transaction): the API's own submission path. */
  submit: (
    input: ChangeRequestInput & { changeRequestId: string },
    alsoInTx: (tx: SqlExecutor) => Promise<void>,
  ) => Promise<{ created: boolean }>;
  /**
   * Records a person's decision on a plan waiting for approval (recordPlanDecision: audited, sent as a control
   * command), with what belongs with it in the same transaction. Throws ApiError 404/409 when no plan waits.
   */
  decide: (
    changeRequestId: string,
    decision: 'approve' | 'reject',
    input: PlanDecisionInput,
    requestedBy: string,
    alsoInTx: (tx: SqlExecutor) => Promise<void>,
  ) => Promise<void>;
  settings: ForgeBridgeSettings;
  log: Logger;
  /** How often the inbox and the links are looked at. */
  tickMs?: number;
}

const BATCH = 20;
const POLL_OVERLAP_MS = 5 * 60_000;
/** An issue event older than this is checked against the issue as it is now before it makes a request. */
const STALE_EVENT_MS = 60_000;
/** A rate-limited call (ForgeApiError.retryAt) waits for the limit's reset; others back off. */
const backoffMs = (attempts: number, err: unknown) =>
  retryDelayMs(attempts, err instanceof ForgeApiError ? err.retryAt : undefined);

/** The source made a request already (a redelivery, or another event about the same comment). */
class AlreadyLinked extends FarmError {
  constructor(readonly sourceKey: string) {
    super(`${sourceKey} already made a change request`, { retryable: false });
  }
}

export class ForgeBridge {
  private timer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private lastPoll = new Map<string, Date>();
  private readonly log: Logger;

  constructor(private readonly deps: ForgeBridgeDeps) {
    this.log = deps.log.child({ component: 'forge-bridge', forge: deps.forge.kind });
  }

  start(): void {
    const tickMs = this.deps.tickMs ?? 1000;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((err) => this.log.error('forge bridge pass failed', { err }))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, tickMs);
        });
    };
    loop();
    if (this.deps.settings.pollRepos.length) {
      const poll = () =>
        void this.poll()
          .catch((err) => this.log.warn('polling the forge failed', { err }))
          .finally(() => {
            if (!this.stopped) this.pollTimer = setTimeout(poll, this.deps.settings.pollIntervalMs);
          });
      poll();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.pollTimer);
    await this.running;
  }

  /** One pass: new deliveries, then requests that ended on the forge's repos unlinked, then phase changes. */
  async tick(): Promise<void> {
    for (const item of await dueDeliveries(this.deps.store, BATCH)) await this.process(item);
    for (const r of await unlinkedDoneRequests(this.deps.store, this.deps.forge.webUrl, BATCH)) {
      const repo = this.deps.forge.repoFor(r.repoUrl);
      if (repo)
        await insertLink(this.deps.store, { changeRequestId: r.id, repo: repo.fullName, origin: 'request', reply: {} });
    }
    for (const { link, phase } of await linksToSync(this.deps.store, BATCH)) await this.sync(link, phase);
  }

  /**
   * Labelled issues of the polled repositories, as deliveries (one id per issue: found again, not taken). A
   * repository that fails (no access, gone, rate limited) is logged and left for the next poll; the others
   * are polled all the same.
   */
  async poll(): Promise<number> {
    let found = 0;
    for (const fullName of this.deps.settings.pollRepos) {
      try {
        found += await this.pollRepo(fullName);
      } catch (err) {
        this.log.warn('polling a repository failed', { err, repo: fullName });
      }
    }
    return found;
  }

  private async pollRepo(fullName: string): Promise<number> {
    const repo = { fullName };
    const last = this.lastPoll.get(fullName);
    // `updated_at` is the forge's clock: overlap the last poll so a skew never hides an issue (ids dedupe).
    const since = last && new Date(last.getTime() - POLL_OVERLAP_MS);
    const started = new Date();
    const issues = await this.deps.forge.listLabelledIssues(repo, this.deps.settings.label, since);
    let found = 0;
    for (const issue of issues) {
      const event = {
        kind: 'issue_labelled' as const,
        repo,
        issue,
        label: this.deps.settings.label,
        sender: issue.author,
      };
      if (
        await takeDelivery(this.deps.store, { deliveryId: `poll:${fullName}#${issue.number}`, repo: fullName, event })
      )
        found++;
    }
    this.lastPoll.set(fullName, started);
    return found;
  }

  private async process(item: InboxItem): Promise<void> {
    const log = this.log.child({ deliveryId: item.deliveryId, event: item.event.kind, repo: item.event.repo.fullName });
    try {
      const outcome = await this.act(item);
      await finishDelivery(this.deps.store, item.deliveryId, outcome);
      orchestratorMetrics.forgeEvents.inc({ forge: this.deps.forge.kind, result: outcome.split(/[: ]/)[0] });
      log.info('forge event handled', { outcome });
    } catch (err) {
      const passing = !(err instanceof FarmError) || err.retryable;
      if (!giveUpDelivery(passing, item.receivedAt)) {
        await postponeDelivery(this.deps.store, item.deliveryId, errorMessage(err), backoffMs(item.attempts, err));
        log.warn('forge event postponed', { err, attempts: item.attempts + 1 });
      } else {
        await finishDelivery(this.deps.store, item.deliveryId, `failed: ${errorMessage(err)}`);
        orchestratorMetrics.forgeEvents.inc({ forge: this.deps.forge.kind, result: 'failed' });
        log.error('forge event given up', { err, attempts: item.attempts + 1 });
      }
    }
  }

  /** What the event made the farm do, in words (kept as the delivery's outcome). */
  private async act({ event, attempts, receivedAt }: InboxItem): Promise<string> {
    const { forge, settings } = this.deps;
    const intent = intentOf(event, settings);
    const repo = event.repo;
    switch (intent.kind) {
      case 'ignore':
        return `ignored: ${intent.reason}`;
      case 'from-issue': {
        const prior = await linkBySource(this.deps.store, intent.sourceKey);
        if (prior) return `already change request ${prior.changeRequestId}`;
        let issue = intent.issue;
        if (attempts > 0 || Date.now() - receivedAt.getTime() > STALE_EVENT_MS) {
          // The event waited: the issue as it is now decides (and gives the latest title and body).
          issue = await forge.getIssue(repo, issue.number);
          const gone = noLongerWanted(event, issue, settings);
          if (gone) return `ignored: ${gone}`;
        }
        const where = await forge.repository(repo);
        const id = randomUUID();
        const made = await this.submitLinked(issueRequest(issue, where), id, {
          sourceKey: intent.sourceKey,
          repo: repo.fullName,
          origin: 'issue',
          issueNumber: intent.issue.number,
          reply: {},
        });
        return made ? `change request ${id}` : `already a change request for ${intent.sourceKey}`;
      }
      case 'follow-up-comment':
        return this.followUps(repo, intent.pullNumber, [{ sourceKey: intent.sourceKey, comment: intent.comment }]);
      case 'review': {
        const { review, comments } = await forge.resolveReview(repo, intent.pullNumber, intent.review);
        const items = reviewFollowUps(repo.fullName, review, comments);
        if (!items.length) return 'ignored: a review without comments';
        return this.followUps(repo, intent.pullNumber, items);
      }
      case 'plan-decision':
        return this.decidePlan(repo, intent);
    }
  }

  /**
   * `/farm approve` or `/farm reject <reason>` in a comment: the plan waiting on that conversation decided as
   * its author, when the forge says they may write to the repository; answered in a comment either way. The
   * decision and the mark that this comment made it are one transaction: a delivery tried again after the
   * answer failed answers, and decides nothing twice.
   */
  private async decidePlan(repo: ForgeRepo, intent: Extract<EventIntent, { kind: 'plan-decision' }>): Promise<string> {
    const { forge, store } = this.deps;
    const { command, author, sourceKey } = intent;
    const answer = async (outcome: DecisionOutcome, said: string) => {
      await forge.comment(repo, intent.number, decisionAnswer(outcome, { author, command }), intent.on);
      return said;
    };
    const made = await decisionOf(store, sourceKey);
    if (made) {
      const target = decisionTarget(command, { waiting: [made.changeRequestId], known: [made.changeRequestId] });
      return answer(
        {
          kind: made.decision === 'approve' ? 'approved' : 'rejected',
          changeRequestId: made.changeRequestId,
          reason: target.kind === 'decide' ? target.reason : '',
          requestUrl: this.requestUrl(made.changeRequestId),
        },
        `${made.decision === 'approve' ? 'approved' : 'rejected'} ${made.changeRequestId}`,
      );
    }
    const requests = await requestsOnConversation(store, repo.fullName, intent.number, intent.on);
    if (!requests.length) return answer({ kind: 'nothing-waits' }, 'refused: no request of the farm here');
    let may: boolean;
    try {
      may = await forge.mayWrite(repo, author);
    } catch (err) {
      // The forge will not say (a token without the right): refused, never guessed.
      if (!(err instanceof ForgeApiError) || err.retryable) throw err;
      this.log.error('the forge does not say who may write: plans cannot be decided in comments', { err });
      return answer({ kind: 'cannot-check', why: errorMessage(err) }, `refused: cannot check ${author}`);
    }
    if (!may) return answer({ kind: 'not-a-writer' }, `refused: ${author} may not write to ${repo.fullName}`);
    const target = decisionTarget(command, {
      waiting: requests.filter((r) => r.phase === 'AWAITING_APPROVAL').map((r) => r.changeRequestId),
      known: requests.map((r) => r.changeRequestId),
    });
    if (target.kind !== 'decide') return answer(target, `refused: ${target.kind}`);
    const id = target.changeRequestId;
    const requestUrl = this.requestUrl(id);
    try {
      await this.deps.decide(
        id,
        command.decision,
        { reason: target.reason, removeTasks: [], goals: {} },
        `forge:${author}`,
        (tx) => markEffect(tx, id, decisionEffect(command.decision, sourceKey)),
      );
    } catch (err) {
      // Decided, cancelled or ended since it was read: nothing waits any more.
      if (err instanceof ApiError && (err.status === 404 || err.status === 409))
        return answer({ kind: 'nothing-waits', changeRequestId: id }, `refused: ${id} does not wait`);
      throw err;
    }
    const kind = command.decision === 'approve' ? 'approved' : 'rejected';
    return answer({ kind, changeRequestId: id, reason: target.reason, requestUrl }, `${kind} ${id}`);
  }

  /** Follow-ups on a farm pull request: one change request per comment, all started from the same head. */
  private async followUps(
    repo: ForgeRepo,
    pullNumber: number,
    items: { sourceKey: string; comment: ReviewComment }[],
  ): Promise<string> {
    const fresh: typeof items = [];
    for (const item of items) if (!(await linkBySource(this.deps.store, item.sourceKey))) fresh.push(item);
    if (!fresh.length) return 'already followed up';
    const pull = await this.deps.forge.getPullRequest(repo, pullNumber);
    const parentId = await this.parentRequest(repo, pull.number, pull.headBranch);
    if (!parentId) return `ignored: #${pullNumber} is not a pull request of the farm`;
    if (pull.state !== 'open') return `ignored: #${pullNumber} is ${pull.state}`;
    const parent = await requestContext(this.deps.store, parentId);
    if (!parent) return `ignored: change request ${parentId} of #${pullNumber} is not recorded`;
    const diff = await this.deps.forge.pullRequestDiff(repo, pullNumber);
    const made: string[] = [];
    for (const { sourceKey, comment } of fresh) {
      const id = randomUUID();
      const input = followUpRequest({ pull, comment, parent, diff });
      const linked = await this.submitLinked(input, id, {
        sourceKey,
        repo: repo.fullName,
        origin: 'follow-up',
        issueNumber: pull.number,
        pullNumber: pull.number,
        pullUrl: pull.url,
        reply: {
          commentId: comment.id,
          ...(comment.reviewId ? { reviewId: comment.reviewId } : {}),
          author: comment.author,
          ...(comment.path ? { path: comment.path } : {}),
          ...(comment.line ? { line: comment.line } : {}),
          headSha: pull.headSha,
          headBranch: pull.headBranch,
          parentRequestId: parentId,
        },
      });
      if (linked) made.push(id);
    }
    return made.length ? `follow-ups ${made.join(', ')}` : 'already followed up';
  }

  /** The farm request whose pull request this is: by its link, else by its farm/<id> branch. */
  private async parentRequest(repo: ForgeRepo, pullNumber: number, headBranch: string): Promise<string | undefined> {
    const link = await requestOfPull(this.deps.store, repo.fullName, pullNumber);
    if (link) return link.changeRequestId;
    const id = headBranch.startsWith('farm/') ? headBranch.slice('farm/'.length) : '';
    if (!id) return undefined;
    return (await requestContext(this.deps.store, id)) ? id : undefined;
  }

  /** Submits and links in one transaction; false when the source had made a request meanwhile. */
  private async submitLinked(
    input: ChangeRequestInput,
    id: string,
    link: { sourceKey: string; repo: string; origin: LinkOrigin } & Partial<ForgeLink>,
  ): Promise<boolean> {
    try {
      await this.deps.submit({ ...input, changeRequestId: id }, async (tx) => {
        const inserted = await insertLink(tx, { changeRequestId: id, reply: {}, ...link });
        if (!inserted) throw new AlreadyLinked(link.sourceKey); // rolls the submission back
      });
      return true;
    } catch (err) {
      if (err instanceof AlreadyLinked) return false;
      throw err;
    }
  }

  /** Does on the forge what the request's phase asks, each effect once; a failure tries again later. */
  private async sync(link: ForgeLink, phase: string): Promise<void> {
    const log = this.log.child({ changeRequestId: link.changeRequestId, phase, origin: link.origin });
    try {
      for (const effect of effectsFor(link, phase)) {
        const key = effectKey(effect);
        if (await effectDone(this.deps.store, link.changeRequestId, key)) continue;
        const outcome = { forge: this.deps.forge.kind, effect: effect.kind };
        try {
          await this.perform(effect, (await linkFor(this.deps.store, link.changeRequestId)) ?? link);
        } catch (err) {
          orchestratorMetrics.forgeCalls.inc({ ...outcome, outcome: 'failed' });
          if (effectFailure(err as ForgeApiError) === 'retry') throw err;
          // Recorded as done: a deleted issue must not keep the pull request from opening.
          log.error('forge update skipped: the forge refuses it for good', { err, effect: effect.kind });
          await markEffect(this.deps.store, link.changeRequestId, key);
          continue;
        }
        orchestratorMetrics.forgeCalls.inc({ ...outcome, outcome: 'done' });
        await markEffect(this.deps.store, link.changeRequestId, key);
      }
      await markSynced(this.deps.store, link.changeRequestId, phase);
    } catch (err) {
      const attempts = link.attempts + 1;
      await postponeSync(this.deps.store, link.changeRequestId, errorMessage(err), backoffMs(link.attempts, err));
      log.warn('forge update postponed', { err, attempts });
    }
  }

  private requestUrl(id: string): string | undefined {
    const base = this.deps.settings.publicUrl?.replace(/\/+$/, '');
    return base ? `${base}/console/#/requests/${encodeURIComponent(id)}` : undefined;
  }

  private async perform(effect: ForgeEffect, link: ForgeLink): Promise<void> {
    const { forge, settings, store } = this.deps;
    const repo = { fullName: link.repo };
    const id = link.changeRequestId;
    const requestUrl = this.requestUrl(id);
    switch (effect.kind) {
      case 'announce':
        if (link.issueNumber)
          await forge.comment(repo, link.issueNumber, commentText(effect, { link, requestUrl }), conversationOf(link));
        return;
      case 'plan': {
        if (!link.issueNumber) return;
        const found = await getRequest(store, id);
        if (!found) throw new FarmError(`change request ${id} is not recorded`, { retryable: true });
        // Decided before the forge heard of it (the API, the console): there is no question to ask any more.
        if (found.request.phase !== 'AWAITING_APPROVAL') return;
        await forge.comment(
          repo,
          link.issueNumber,
          planText({
            link,
            requestUrl,
            reason: found.request.reason,
            tasks: found.tasks,
            hearsComments: !settings.pollRepos.includes(link.repo),
          }),
          conversationOf(link),
        );
        return;
      }
      case 'pending-status':
        if (link.reply.headSha)
          await forge.setCommitStatus({
            repo,
            sha: link.reply.headSha,
            state: 'pending',
            context: settings.statusContext,
            description: `agent-farm: working on a review comment (${id})`,
            targetUrl: requestUrl,
          });
        return;
      case 'open-pull-request': {
        if (settings.pullRequests === 'off') return;
        const found = await getRequest(store, id);
        if (!found) throw new FarmError(`change request ${id} is not recorded`, { retryable: true });
        const described = await requestContext(store, id);
        const issue =
          link.origin === 'issue' && link.issueNumber
            ? { number: link.issueNumber, url: `${forge.webUrl}/${link.repo}/issues/${link.issueNumber}` }
            : undefined;
        const text = pullRequestText({ ...found, description: described?.description ?? '' }, { requestUrl, issue });
        const heads =
          settings.pullRequests === 'task'
            ? found.tasks.map((t) => t.branch).filter(Boolean)
            : [found.request.integrationBranch || `farm/${id}`];
        let first: { number: number; url: string } | undefined;
        for (const head of heads) {
          const { pull } = await forge.openOrUpdatePullRequest({ repo, head, base: found.request.baseRef, ...text });
          first ??= pull;
        }
        if (first) await setPullRequest(store, id, first);
        return;
      }
      case 'final-status': {
        const sha = await this.statusSha(link, effect.state);
        if (!sha) return;
        const reason = (await getRequest(store, id))?.request.reason ?? '';
        await forge.setCommitStatus({
          repo,
          sha,
          state: effect.state,
          context: settings.statusContext,
          description: effect.state === 'success' ? `agent-farm: done (${id})` : `agent-farm: ${reason || 'failed'}`,
          targetUrl: requestUrl,
        });
        return;
      }
      case 'final-comment': {
        if (!link.issueNumber) return;
        const found = await getRequest(store, id);
        const reason = found?.request.reason ?? '';
        const unverified = (found?.tasks ?? []).flatMap((t) => {
          const note = unverifiedNote(t);
          return note ? [note] : [];
        });
        const pull =
          effect.outcome === 'done' && link.origin === 'follow-up' && link.pullNumber
            ? await forge.getPullRequest(repo, link.pullNumber)
            : undefined;
        await forge.comment(
          repo,
          link.issueNumber,
          commentText(effect, {
            link,
            requestUrl,
            pullUrl: link.pullUrl,
            reason,
            headSha: pull?.headSha,
            pullState: pull?.state,
            unverified,
          }),
          conversationOf(link),
        );
        return;
      }
    }
  }

  /** The commit a final status goes on: the pull request's head now, or (a failed follow-up) the one it answered. */
  private async statusSha(link: ForgeLink, state: 'success' | 'failure'): Promise<string | undefined> {
    if (state === 'failure') return link.reply.headSha;
    if (!link.pullNumber) return undefined;
    try {
      const pull = await this.deps.forge.getPullRequest({ fullName: link.repo }, link.pullNumber);
      // A follow-up whose pull request closed while it ran: the head is not its push; a status there would lie.
      if (link.origin === 'follow-up' && pull.state !== 'open') return undefined;
      return pull.headSha;
    } catch (err) {
      if (err instanceof ForgeApiError && err.status === 404) return undefined;
      throw err;
    }
  }
}

/** Where a link's comments go: a follow-up answers on its pull request, the others on their issue. */
const conversationOf = (link: ForgeLink): 'issue' | 'pull' => (link.origin === 'follow-up' ? 'pull' : 'issue');
