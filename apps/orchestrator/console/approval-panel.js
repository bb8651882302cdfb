// The plan of a request waiting for approval, as a person deciding on it reads it: why it waits, each task
// (keep or leave out, its goal editable), how many at once; approve (as shown) or reject with a reason.
import { api } from '/console/api.js';
import { h, show } from '/console/dom.js';

/**
 * The panel for `r` (phase AWAITING_APPROVAL) and its `tasks`; `mayDecide`: the token has the approve scope
 * (without it the plan is shown and the buttons are not).
 */
export function approvalPanel(r, tasks, { mayDecide, refusal, refreshSoon, notify }) {
  const id = r.id;
  const outcome = h('p', { role: 'status', id: 'approval-outcome' });
  const rows = tasks.map((t, i) => {
    const keep = h('input', { type: 'checkbox', id: `keep-${i}`, checked: true, disabled: !mayDecide });
    const goal = h('textarea', { id: `goal-${i}`, rows: 2, maxlength: 10000, disabled: !mayDecide }, t.goal);
    return {
      task: t,
      keep,
      goal,
      row: h(
        'tr',
        { 'data-plan-task': t.id },
        h('td', {}, h('label', { for: `keep-${i}` }, keep, ` keep ${t.id}`)),
        h('td', {}, t.kind ?? '—'),
        h('td', { class: 'wrap' }, h('label', { for: `goal-${i}`, class: 'visually-hidden' }, `Goal of ${t.id}`), goal),
        h(
          'td',
          { class: 'wrap' },
          t.path ?? '—',
          t.symbols?.length ? h('div', { class: 'muted' }, t.symbols.join(', ')) : null,
          t.estimatedChangedLines
            ? h('div', { class: 'muted' }, `about ${t.estimatedChangedLines} changed lines`)
            : null,
        ),
        h('td', {}, t.dependsOn.length ? t.dependsOn.join(', ') : '—'),
      ),
    };
  });
  const parallelism = h('input', {
    id: 'plan-parallelism',
    type: 'number',
    min: 1,
    max: 1000,
    placeholder: "the farm's",
    disabled: !mayDecide,
  });
  const reason = h('input', {
    id: 'plan-reason',
    maxlength: 2000,
    placeholder: 'why (required to reject)',
    disabled: !mayDecide,
  });

  /** The edit the form shows: tasks left out, goals changed, a parallelism. */
  const edit = () => {
    const body = {};
    const removed = rows.filter((x) => !x.keep.checked).map((x) => x.task.id);
    if (removed.length) body.removeTasks = removed;
    const goals = Object.fromEntries(
      rows
        .filter((x) => x.keep.checked && x.goal.value.trim() && x.goal.value.trim() !== x.task.goal.trim())
        .map((x) => [x.task.id, x.goal.value.trim()]),
    );
    if (Object.keys(goals).length) body.goals = goals;
    if (parallelism.value) body.parallelism = Number(parallelism.value);
    if (reason.value.trim()) body.reason = reason.value.trim();
    return body;
  };
  const decide = async (decision) => {
    const body = decision === 'approve' ? edit() : { reason: reason.value.trim() };
    if (decision === 'reject' && !body.reason) {
      show(outcome, 'Say why the plan is rejected.');
      reason.focus();
      return;
    }
    try {
      await api('POST', `/v1/change-requests/${encodeURIComponent(id)}/${decision}`, body);
      const said = decision === 'approve' ? 'Approval sent.' : 'Rejection sent.';
      show(outcome, said);
      notify(said);
      refreshSoon();
    } catch (err) {
      show(outcome, refusal(err));
    }
  };

  return h(
    'section',
    { class: 'approval', 'aria-labelledby': 'approval-heading' },
    h('h2', { id: 'approval-heading' }, 'Waiting for approval'),
    h('p', {}, r.reason),
    h(
      'table',
      { 'aria-label': 'The plan' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Task', 'Kind', 'Goal', 'File, symbols', 'After'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((x) => x.row),
      ),
    ),
    mayDecide
      ? h(
          'form',
          {
            class: 'actions',
            'aria-label': 'Decide on this plan',
            onsubmit: (e) => {
              e.preventDefault();
              void decide('approve');
            },
          },
          h('label', { for: 'plan-parallelism' }, 'At most at once', parallelism),
          h('label', { for: 'plan-reason' }, 'Reason', reason),
          h('button', { type: 'submit', id: 'approve-plan' }, 'Approve'),
          h(
            'button',
            { type: 'button', class: 'danger', id: 'reject-plan', onclick: () => void decide('reject') },
            'Reject',
          ),
          outcome,
        )
      : h('p', { class: 'muted' }, 'Deciding needs a token with the approve scope.'),
  );
}
