// One request: its facts, the timeline of its transitions (live over the event stream, resumed after a
// reconnect), the task graph with dependencies and states, each task's numbers, the change its build merged into
// the integration branch for review (diff-review.js), and cancel.
import { api, followTransitions, may, ApiFailure } from '/console/api.js';
import { diffReview } from '/console/diff-review.js';
import { age, badge, h, notFoundView, notify, outLink, show, time, usd } from '/console/dom.js';
import { forgeRef, forgeUrls, repoOnForge } from '/console/forge.js';
import { approvalPanel } from '/console/approval-panel.js';

const FINAL = new Set(['DONE', 'FAILED', 'CANCELLED']);

/** Tasks by level: a task sits one column right of the last task it depends on. */
export function taskLevels(tasks) {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const level = new Map();
  const depth = (t, seen = new Set()) => {
    if (level.has(t.id)) return level.get(t.id);
    if (seen.has(t.id)) return 0; // a cycle (the planner refuses them): drawn flat
    seen.add(t.id);
    const deps = t.dependsOn.map((d) => byId.get(d)).filter(Boolean);
    const d = deps.length ? 1 + Math.max(...deps.map((x) => depth(x, seen))) : 0;
    level.set(t.id, d);
    return d;
  };
  const columns = [];
  for (const t of tasks) (columns[depth(t)] ??= []).push(t);
  return columns.filter(Boolean);
}

function transitionLine(t) {
  const what = t.taskId
    ? [
        h('span', {}, 'task '),
        h(
          'a',
          { href: `#/requests/${encodeURIComponent(t.changeRequestId)}/tasks/${encodeURIComponent(t.taskId)}` },
          t.taskId,
        ),
        ' ',
        badge(t.taskState),
      ]
    : [badge(t.toPhase)];
  return h(
    'li',
    { 'data-sequence': t.sequence },
    time(Number(t.atMs)),
    ...what,
    ' ',
    h('span', { class: 'muted' }, t.reason),
  );
}

const taskHref = (id, taskId, dispatch) =>
  `#/requests/${encodeURIComponent(id)}/tasks/${encodeURIComponent(taskId)}${dispatch ? `/dispatches/${dispatch}` : ''}`;

export async function requestView({ main, signal, refusal, caller, forge: site }, id) {
  // An id the farm does not know has a page of its own, not a stream that never connects.
  let first;
  try {
    first = await api('GET', `/v1/change-requests/${encodeURIComponent(id)}`, undefined, { signal });
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 404) {
      return show(
        main,
        notFoundView(
          'Request not found',
          `The farm has no change request ${id}. Check the id, or find it in the list.`,
        ),
      );
    }
    throw err;
  }
  const facts = h('div');
  const graph = h('div', { class: 'graph', role: 'group', 'aria-label': 'Task graph' });
  const tasks = h('tbody');
  const timeline = h('ol', {
    class: 'timeline',
    'aria-live': 'polite',
    'aria-label': 'Timeline',
    'data-testid': 'timeline',
  });
  const streamState = h('p', { class: 'muted', 'data-testid': 'stream-state' }, 'connecting…');
  const problem = h('div');
  const actions = h('div', { class: 'actions' });
  const approval = h('div', { 'data-testid': 'approval' });
  const phaseNow = h('span', { 'data-testid': 'phase' });
  const change = h('div', { 'data-testid': 'request-diff' });

  show(
    main,
    h('p', {}, h('a', { href: '#/requests' }, '← Requests')),
    h('h1', {}, 'Request ', h('code', {}, id), ' ', phaseNow),
    problem,
    facts,
    actions,
    approval,
    h('h2', {}, 'Tasks'),
    graph,
    h(
      'table',
      { 'aria-label': 'Tasks' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Task', 'Status', 'Attempts', 'Tokens', 'Cost', 'Branch', 'Notes'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      tasks,
    ),
    h('h2', {}, 'Timeline'),
    streamState,
    timeline,
    h('h2', { id: 'diff' }, 'Diff of the integration branch'),
    change,
  );

  /** The request's change as its latest build merged it (GET .../diff): read at first, and once it ended. */
  async function loadDiff() {
    try {
      const d = await api('GET', `/v1/change-requests/${encodeURIComponent(id)}/diff`, undefined, { signal });
      show(
        change,
        d.buildStatus
          ? diffReview({
              diff: d.diff,
              truncated: d.truncated,
              verificationLine: `${d.branch}${d.baseCommit ? ` against ${d.baseCommit.slice(0, 12)}` : ''}: ${d.buildStatus}${d.truncated ? ' (diff cut)' : ''}`,
            })
          : h('p', { class: 'muted' }, 'No build has merged the tasks yet.'),
      );
    } catch (err) {
      if (!signal.aborted) show(change, refusal(err));
    }
  }

  let source;
  let refreshing;
  // The plan's panel is made when the request starts waiting, not again on each refresh (a person may be editing).
  let panelFor;
  async function refresh() {
    try {
      const detail = await api('GET', `/v1/change-requests/${encodeURIComponent(id)}`, undefined, { signal });
      render(detail);
    } catch (err) {
      if (!signal.aborted) show(problem, refusal(err));
    }
  }
  // Many events in a burst: one read of the request after them.
  const refreshSoon = () =>
    (refreshing ??= setTimeout(() => void refresh().finally(() => (refreshing = undefined)), 250));

  function render({ request: r, tasks: list, forge }) {
    const urls = forgeUrls(site, repoOnForge(site, r.repoUrl, forge?.repo));
    show(phaseNow, badge(r.phase));
    if (panelFor !== r.phase) {
      panelFor = r.phase;
      show(
        approval,
        r.phase === 'AWAITING_APPROVAL'
          ? approvalPanel(r, list, { mayDecide: may(caller, 'approve'), refusal, refreshSoon, notify })
          : null,
      );
    }
    show(
      facts,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Title'),
        h('dd', {}, r.title),
        h('dt', {}, 'Repository'),
        h(
          'dd',
          {},
          urls ? outLink(urls.repo(), r.repoPath ?? r.repoUrl) : (r.repoPath ?? r.repoUrl),
          r.repoPath ? h('div', { class: 'muted' }, `served as ${r.repoUrl}`) : null,
        ),
        h('dt', {}, 'Base'),
        h(
          'dd',
          {},
          forgeRef(urls, 'branch', r.baseRef),
          r.baseCommit ? [' @ ', forgeRef(urls, 'commit', r.baseCommit, r.baseCommit.slice(0, 12))] : null,
        ),
        ...(source
          ? [
              h('dt', {}, 'Submitted'),
              h(
                'dd',
                {},
                { forge: 'from the forge', api: 'over the API', bus: 'on the bus' }[source.origin] ?? source.origin,
                source.submittedBy ? ` by ${source.submittedBy}` : '',
              ),
            ]
          : []),
        h('dt', {}, 'Reason'),
        h('dd', {}, r.reason || '—'),
        h('dt', {}, 'Integration branch'),
        h('dd', {}, forgeRef(urls, 'branch', r.integrationBranch)),
        ...(forge ? [h('dt', {}, 'On the forge'), h('dd', {}, forgeFacts(forge, urls))] : []),
        h('dt', {}, 'Progress'),
        h('dd', {}, `${r.tasksDone}/${r.tasksTotal} tasks done, ${r.attempts} attempts`),
        h('dt', {}, 'Tokens, cost'),
        h('dd', {}, `${r.tokens.total} tokens, ${usd(r.costUsd)}`),
        h('dt', {}, 'Age'),
        h('dd', {}, age(r.createdAt)),
      ),
    );
    // Cancel is offered only to a token that may cancel (the API would refuse the others).
    show(actions, FINAL.has(r.phase) || !may(caller, 'cancel') ? null : cancelForm(id, refusal, refreshSoon));
    show(
      graph,
      taskLevels(list).map((column, i) =>
        h(
          'ol',
          { 'aria-label': `Level ${i + 1}` },
          column.map((t) =>
            h(
              'li',
              { 'data-task': t.id },
              h('a', { href: taskHref(id, t.id) }, t.id),
              ' ',
              badge(t.status),
              h('div', {}, t.goal.split('\n')[0]),
              t.dependsOn.length ? h('div', { class: 'after' }, `after ${t.dependsOn.join(', ')}`) : null,
            ),
          ),
        ),
      ),
    );
    show(
      tasks,
      list.map((t) =>
        h(
          'tr',
          {},
          h('td', { class: 'wrap' }, h('a', { href: taskHref(id, t.id) }, t.id)),
          h(
            'td',
            {},
            badge(t.status),
            t.dispatch > 0
              ? h('div', {}, h('a', { href: taskHref(id, t.id, t.dispatch) }, `dispatch ${t.dispatch}`))
              : null,
          ),
          h('td', {}, t.attempts),
          h('td', {}, t.tokens.total),
          h('td', {}, usd(t.costUsd)),
          h(
            'td',
            { class: 'wrap' },
            forgeRef(urls, 'branch', t.branch),
            t.commitSha ? h('div', {}, forgeRef(urls, 'commit', t.commitSha, t.commitSha.slice(0, 12))) : null,
          ),
          h('td', { class: 'wrap' }, t.notes.split('\n')[0]),
        ),
      ),
    );
  }

  // Where it came from and who submitted it: the list's answer for this one request.
  const listed = await api('GET', `/v1/change-requests?${new URLSearchParams({ q: id, limit: '20' })}`, undefined, {
    signal,
  }).catch(() => undefined);
  source = listed?.sources?.[id];
  render(first);
  void loadDiff();
  try {
    await followTransitions(id, {
      signal,
      onTransition(t) {
        timeline.append(transitionLine(t));
        timeline.scrollTop = timeline.scrollHeight;
        show(streamState, `live (last event ${t.sequence})`);
        refreshSoon();
      },
      onReconnect: (lastId) => notify(`Event stream reconnected after event ${lastId || 'none'}`),
    });
    show(streamState, 'The request ended; the timeline is complete.');
    streamState.setAttribute('data-ended', 'true');
    await Promise.all([refresh(), loadDiff()]);
  } catch (err) {
    if (!signal.aborted) show(problem, refusal(err));
  }
}

function cancelForm(id, refusal, refreshSoon) {
  const reason = h('input', { id: 'cancel-reason', placeholder: 'why (optional)', maxlength: 2000 });
  const outcome = h('span', { role: 'status' });
  return h(
    'form',
    {
      class: 'actions',
      'aria-label': 'Cancel this request',
      async onsubmit(e) {
        e.preventDefault();
        try {
          await api(
            'POST',
            `/v1/change-requests/${encodeURIComponent(id)}/cancel`,
            reason.value ? { reason: reason.value } : undefined,
          );
          show(outcome, 'Cancel requested.');
          notify('Cancel requested');
          refreshSoon();
        } catch (err) {
          show(outcome, refusal(err));
        }
      },
    },
    h('label', { for: 'cancel-reason' }, 'Reason', reason),
    h('button', { class: 'danger', type: 'submit' }, 'Cancel request'),
    outcome,
  );
}

/**
 * Where the request is on the forge: its pull request, the issue it came from (links only to http(s): the forge's
 * answers are not trusted to be), a pending error.
 */
function forgeFacts(forge, urls) {
  const pull = forge.pullRequest;
  return h(
    'span',
    { 'data-testid': 'forge' },
    pull ? outLink(pull.url, `pull request #${pull.number}`) : 'no pull request yet',
    forge.issue ? [' · ', forgeRef(urls, 'issue', forge.issue, `issue #${forge.issue}`)] : '',
    ` · ${forge.repo} (${forge.origin})`,
    forge.lastError ? h('div', { class: 'muted' }, `forge not updated yet: ${forge.lastError}`) : null,
  );
}
