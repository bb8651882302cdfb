// One task: its numbers, the diff of its branch, the checks with their output, and the agent's trajectory per
// dispatch (tool calls with arguments and results, steps with tokens and cost, review verdicts); resubmit.
import { api, may, ApiFailure } from '/console/api.js';
import { badge, h, notFoundView, notify, show, usd } from '/console/dom.js';
import { forgeRef, forgeUrls, repoOnForge } from '/console/forge.js';

const FAILED = new Set(['SOFT_FAIL', 'HARD_FAIL']);
const json = (v) => JSON.stringify(v, null, 2);

export function diffView(diff) {
  if (!diff) return h('p', { class: 'muted' }, 'Nothing committed.');
  return h(
    'pre',
    { class: 'diff', 'data-testid': 'diff', 'aria-label': 'Diff' },
    diff.split('\n').map((line) => {
      const cls = /^(---|\+\+\+) /.test(line)
        ? 'file'
        : line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'add'
            : line.startsWith('-')
              ? 'del'
              : null;
      return [cls ? h('span', { class: cls }, line) : line, '\n'];
    }),
  );
}

function eventSummary(e) {
  switch (e.event) {
    case 'tool':
      return [
        h('strong', {}, e.tool),
        ` ${e.ok ? 'ok' : 'failed'}`,
        h('span', { class: 'muted' }, ` ${e.durationMs ?? 0} ms, ${e.outputChars ?? 0} chars`),
      ];
    case 'step':
      return [
        h('strong', {}, `step ${e.step}`),
        ` ${e.model ?? ''}`,
        e.tokens ? ` ${e.tokens.totalTokens} tokens` : '',
        e.costUsd ? `, ${usd(e.costUsd)}` : '',
        e.error ? ` — ${e.error}` : '',
      ];
    case 'check':
      return [h('strong', {}, `checks, attempt ${e.attempt}`), ` ${e.ok ? 'passed' : 'failed'}`];
    case 'review':
      return [
        h('strong', {}, `review round ${e.round}`),
        ` ${e.approved ? 'approved' : 'objected'}`,
        e.objections?.length ? `: ${e.objections.join('; ')}` : '',
      ];
    case 'reward':
      return [h('strong', {}, `reward ${e.reward}`), ` attempt ${e.attempt}`, e.reason ? ` (${e.reason})` : ''];
    default:
      return [h('strong', {}, e.event)];
  }
}

function eventDetail(e) {
  if (e.event === 'tool') {
    return [
      h('div', {}, 'Arguments'),
      h('pre', {}, json(e.arguments)),
      h('div', {}, 'Result'),
      h('pre', {}, e.result ?? ''),
    ];
  }
  const { ts: _ts, event: _e, taskId: _t, dispatch: _d, ...rest } = e;
  return h('pre', {}, json(rest));
}

function dispatchSection(d) {
  return h(
    'section',
    { 'data-dispatch': d.dispatch, id: `dispatch-${d.dispatch}`, tabindex: -1, 'aria-label': `Dispatch ${d.dispatch}` },
    h('h3', {}, `Dispatch ${d.dispatch} `, badge(d.status), d.failedStep ? ` at ${d.failedStep}` : ''),
    h(
      'p',
      {},
      `${d.attempts} attempts, ${d.steps} model calls, ${d.tokens.total} tokens (${d.tokens.prompt} prompt, ${d.tokens.completion} completion), ${usd(d.costUsd)}${d.model ? `, ${d.model}` : ''}`,
    ),
    d.reviews.length
      ? h(
          'ul',
          {},
          d.reviews.map((r) =>
            h('li', {}, `review ${r.round}: ${r.approved ? 'approved' : `objected: ${r.objections.join('; ')}`}`),
          ),
        )
      : null,
    d.notes.length ? h('pre', {}, d.notes.join('\n')) : null,
    h(
      'div',
      { 'data-testid': 'trajectory' },
      d.events.map((e) =>
        h('details', { class: 'event', 'data-event': e.event }, h('summary', {}, eventSummary(e)), eventDetail(e)),
      ),
    ),
    d.eventsOmitted
      ? h('p', { class: 'muted' }, `${d.eventsOmitted} lines in the middle left out (size bound).`)
      : null,
  );
}

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
          h('pre', {}, s.output || '(no output)'),
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

export async function taskView({ main, signal, refusal, caller, forge: site }, id, taskId, dispatch) {
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
      h('dd', {}, `${task.tokens.total} (${task.tokens.prompt} prompt, ${task.tokens.completion} completion)`),
      h('dt', {}, 'Cost'),
      h('dd', {}, usd(task.costUsd)),
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
    h('h2', { id: 'diff' }, 'Diff', diff.truncated ? ' (cut)' : ''),
    diffView(diff.diff),
    h('h2', { id: 'checks' }, 'Checks'),
    checksSection(checks.checks),
    h('h2', { id: 'trajectory' }, 'Trajectory'),
    trajectory.dispatches.length
      ? trajectory.dispatches.map(dispatchSection)
      : h('p', { class: 'muted' }, 'No result reported yet.'),
  );
  // A dispatch's address (…/dispatches/2) shows the task at that dispatch, focused for the keyboard.
  const target = dispatch && document.getElementById(`dispatch-${dispatch}`);
  if (target) {
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }
}
