// One task: its numbers, its change for review (diff-review.js) beside its verification, the checks with their
// output, and the agent's trajectory per dispatch, step by step (trajectory-view.js); resubmit. A task that runs
// is followed live: its steps appear as its agent takes them, and the page is read again once the task ended.
import { api, followTaskSteps, may, ApiFailure } from '/console/api.js';
import { diffReview } from '/console/diff-review.js';
import { badge, h, notFoundView, notify, show, usd } from '/console/dom.js';
import { forgeRef, forgeUrls, repoOnForge } from '/console/forge.js';
import { stepLog } from '/console/step-log.js';
import { dispatchSection, liveTrajectory } from '/console/trajectory-view.js';

const num = (n) => Number(n ?? 0).toLocaleString('en-US');
const FAILED = new Set(['SOFT_FAIL', 'HARD_FAIL']);
/** A task in these states may still have an agent working on it: its page follows it live. */
const RUNNING = new Set(['PENDING', 'DISPATCHED']);

function checksSection(checks) {
  if (!checks.length) return h('p', { class: 'muted' }, 'No checks ran.');
  return checks.map((c) =>
    h(
      'section',
      {},
      h('h3', {}, `Dispatch ${c.dispatch}, attempt ${c.attempt}: `, badge(c.ok ? 'SUCCESS' : 'FAILED')),
      c.steps.map((s) =>
        h(
          'details',
          { open: !s.ok },
          h(
            'summary',
            {},
            `${s.name}: ${s.run} — ${s.ok ? 'ok' : s.timedOut ? 'timed out' : `exit ${s.exitCode}`} (${s.durationMs} ms)`,
          ),
          s.output ? stepLog(s.name, { text: s.output }).element : h('pre', {}, '(no output)'),
        ),
      ),
    ),
  );
}

/** Whether a test shows the change works: said first, and plainly, when none does (FARM_UNVERIFIED_CHANGES). */
export function verificationFact(v) {
  if (!v) return '—';
  if (v.unverifiedReason)
    return h(
      'strong',
      { class: 'unverified', 'data-testid': 'unverified' },
      v.acceptedByReviewer
        ? `Unverified, accepted by the reviewer: ${v.unverifiedReason}`
        : `NOT VERIFIED: ${v.unverifiedReason}`,
    );
  const d = v.differential;
  if (d && d.base === 'TEST_RUN_FAILED' && d.branch === 'TEST_RUN_PASSED')
    return `Verified: ${d.testFiles.join(', ')} fail without the change and pass with it`;
  return 'Checked: its checks pass (no test is asked of this kind of task)';
}

export async function taskView(ctx, id, taskId, dispatch) {
  const { main, signal, refusal, caller, forge: site } = ctx;
  const enc = `/v1/change-requests/${encodeURIComponent(id)}`;
  const base = `${enc}/tasks/${encodeURIComponent(taskId)}`;
  const request = h('a', { href: `#/requests/${encodeURIComponent(id)}` }, `Request ${id}`);
  let detail, trajectory, checks, diff;
  try {
    [detail, trajectory, checks, diff] = await Promise.all([
      api('GET', enc, undefined, { signal }),
      api('GET', `${base}/trajectory`, undefined, { signal }),
      api('GET', `${base}/checks`, undefined, { signal }),
      api('GET', `${base}/diff`, undefined, { signal }),
    ]);
  } catch (err) {
    if (!(err instanceof ApiFailure && err.status === 404)) throw err;
    const known = await api('GET', enc, undefined, { signal }).then(
      () => true,
      () => false,
    );
    return show(
      main,
      known
        ? notFoundView('Task not found', `Request ${id} has no task ${taskId}.`, request)
        : notFoundView('Request not found', `The farm has no change request ${id}.`),
    );
  }
  const task = detail.tasks.find((t) => t.id === taskId);
  if (!task) return show(main, notFoundView('Task not found', `Request ${id} has no task ${taskId}.`, request));
  const urls = forgeUrls(site, repoOnForge(site, detail.request.repoUrl, detail.forge?.repo));
  const dispatchHref = (n) =>
    `#/requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}/dispatches/${n}`;
  const resubmitted = h('div', { role: 'status' });
  const resubmit =
    FAILED.has(task.status) && may(caller, 'submit')
      ? h(
          'button',
          {
            type: 'button',
            class: 'primary',
            async onclick() {
              try {
                const r = await api('POST', `${base}/resubmit`);
                notify(r.created ? 'Resubmitted as a new request' : 'Already resubmitted');
                show(
                  resubmitted,
                  r.created ? 'Resubmitted as ' : 'Resubmitted before as ',
                  h('a', { href: `#/requests/${encodeURIComponent(r.changeRequestId)}` }, r.changeRequestId),
                );
              } catch (err) {
                show(resubmitted, refusal(err));
              }
            },
          },
          'Resubmit this task as a new request',
        )
      : null;
  const live = RUNNING.has(task.status) ? liveTrajectory() : null;
  // The header's totals count the running dispatch's model turns as they come (the task's own totals grow only
  // when a dispatch reports): never "Tokens 0" above steps that already spent thousands.
  const tokensFact = h('dd', { 'data-testid': 'task-tokens' });
  const costFact = h('dd', { 'data-testid': 'task-cost' });
  const spent = { ...task.tokens, costUsd: task.costUsd };
  const showTotals = () => {
    show(tokensFact, `${num(spent.total)} (${num(spent.prompt)} prompt, ${num(spent.completion)} completion)`);
    show(costFact, usd(spent.costUsd));
  };
  showTotals();
  const reported = trajectory.dispatches.length;
  const countLive = ({ dispatch: n, step }) => {
    if (step.event !== 'step' || n <= reported) return;
    const t = step.tokens ?? {};
    spent.total += Number(t.totalTokens ?? 0);
    spent.prompt += Number(t.promptTokens ?? 0);
    spent.completion += Number(t.completionTokens ?? 0);
    spent.costUsd += Number(step.costUsd ?? 0);
    showTotals();
  };
  const liveStatus = h('p', { class: 'muted', role: 'status', 'data-testid': 'live-status' }, 'Following the agent…');
  show(
    main,
    h('p', {}, '← ', request),
    h('h1', {}, 'Task ', h('code', {}, taskId), ' ', badge(task.status)),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Goal'),
      h('dd', {}, h('pre', {}, task.goal)),
      h('dt', {}, 'Verification'),
      h('dd', {}, verificationFact(task.verification)),
      h('dt', {}, 'Attempts'),
      h('dd', {}, `${task.attempts} over ${task.dispatch} dispatch(es)`),
      h('dt', {}, 'Tokens'),
      tokensFact,
      h('dt', {}, 'Cost'),
      costFact,
      h('dt', {}, 'Depends on'),
      h('dd', {}, task.dependsOn.join(', ') || '—'),
      h('dt', {}, 'Branch'),
      h(
        'dd',
        {},
        forgeRef(urls, 'branch', task.branch),
        task.commitSha ? [' @ ', forgeRef(urls, 'commit', task.commitSha, task.commitSha.slice(0, 12))] : null,
      ),
      h('dt', {}, 'Dispatches'),
      h(
        'dd',
        {},
        trajectory.dispatches.length
          ? h(
              'ul',
              { class: 'inline', 'aria-label': 'Dispatches' },
              trajectory.dispatches.map((d) =>
                h('li', {}, h('a', { href: dispatchHref(d.dispatch) }, `dispatch ${d.dispatch}`), ' ', badge(d.status)),
              ),
            )
          : '—',
      ),
      h('dt', {}, 'Notes'),
      h('dd', {}, task.notes ? h('pre', {}, task.notes) : '—'),
    ),
    resubmit,
    resubmitted,
    live ? [h('h2', { id: 'live' }, 'Live steps'), liveStatus, live.element] : null,
    h('h2', { id: 'diff' }, 'Diff', diff.truncated ? ' (cut)' : ''),
    diffReview({
      diff: diff.diff,
      truncated: diff.truncated,
      verification: task.verification,
      verificationLine: verificationFact(task.verification),
    }),
    h('h2', { id: 'checks' }, 'Checks'),
    checksSection(checks.checks),
    h('h2', { id: 'trajectory' }, 'Trajectory'),
    trajectory.dispatches.length
      ? trajectory.dispatches.map(dispatchSection)
      : h('p', { class: 'muted' }, 'No result reported yet.'),
  );
  if (live)
    followTaskSteps(id, taskId, {
      signal,
      onStep: (s) => {
        live.add(s);
        countLive(s);
      },
      onEnd: ({ status }) => show(liveStatus, `The task ended: ${status}. Reading its report…`),
    }).then(
      // Its report, diff and checks are in now: the page as for any ended task.
      () => signal.aborted || taskView(ctx, id, taskId, dispatch),
      (err) => signal.aborted || show(liveStatus, refusal(err)),
    );
  // A dispatch's address (…/dispatches/2) shows the task at that dispatch, focused for the keyboard.
  const target = dispatch && document.getElementById(`dispatch-${dispatch}`);
  if (target) {
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }
}
