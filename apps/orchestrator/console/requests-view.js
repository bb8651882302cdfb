// The list of change requests: phase, progress, age, cost, repo; filtered by text and phase; refreshed live.
import { api } from '/console/api.js';
import { age, badge, h, show, usd } from '/console/dom.js';

const PHASES = ['', 'SUBMITTED', 'RECEIVED', 'PLANNING', 'CODING', 'BUILD', 'DONE', 'FAILED', 'CANCELLED'];

export async function requestsView({ main, signal, refusal }) {
  const params = new URLSearchParams(sessionStorage.getItem('farm.console.filters') ?? '');
  const text = h('input', {
    id: 'filter-text',
    type: 'search',
    value: params.get('q') ?? '',
    placeholder: 'title, repo or id',
  });
  const phase = h(
    'select',
    { id: 'filter-phase' },
    PHASES.map((p) => h('option', { value: p }, p || 'any')),
  );
  phase.value = params.get('phase') ?? '';
  const body = h('tbody');
  const problem = h('div');
  let requests = [];

  function render() {
    sessionStorage.setItem(
      'farm.console.filters',
      new URLSearchParams({ q: text.value, phase: phase.value }).toString(),
    );
    const q = text.value.trim().toLowerCase();
    const shown = requests.filter(
      (r) =>
        (!phase.value || r.phase === phase.value) &&
        (!q || [r.title, r.repoPath ?? r.repoUrl, r.id].some((f) => f.toLowerCase().includes(q))),
    );
    show(
      body,
      shown.length
        ? shown.map((r) =>
            h(
              'tr',
              { 'data-request': r.id },
              h(
                'td',
                {},
                h('a', { href: `#/requests/${encodeURIComponent(r.id)}` }, r.title),
                h('div', { class: 'muted' }, r.id),
              ),
              h('td', {}, badge(r.phase)),
              h(
                'td',
                {},
                h('progress', {
                  max: r.tasksTotal || 1,
                  value: r.tasksDone,
                  'aria-label': `${r.tasksDone} of ${r.tasksTotal} tasks done`,
                }),
                ` ${r.tasksDone}/${r.tasksTotal}`,
              ),
              h('td', {}, age(r.createdAt)),
              h('td', {}, usd(r.costUsd)),
              h(
                'td',
                {},
                r.repoPath ?? r.repoUrl,
                r.integrationBranch ? h('div', { class: 'muted' }, r.integrationBranch) : null,
              ),
            ),
          )
        : h(
            'tr',
            {},
            h('td', { colspan: 6, class: 'muted' }, requests.length ? 'No request matches.' : 'No requests yet.'),
          ),
    );
  }
  text.addEventListener('input', render);
  phase.addEventListener('change', render);

  show(
    main,
    h('h1', {}, 'Change requests'),
    h(
      'div',
      { class: 'filters', role: 'search' },
      h('label', { for: 'filter-text' }, 'Filter', text),
      h('label', { for: 'filter-phase' }, 'Phase', phase),
      h('a', { href: '#/submit' }, 'Submit a request'),
    ),
    problem,
    h(
      'table',
      { 'aria-label': 'Change requests' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Request', 'Phase', 'Progress', 'Age', 'Cost', 'Repository'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      body,
    ),
  );

  // Live: the list is read again every two seconds while the page is shown.
  while (!signal.aborted) {
    try {
      requests = (await api('GET', '/v1/change-requests?limit=200', undefined, { signal })).changeRequests;
      show(problem);
      render();
    } catch (err) {
      if (signal.aborted) return;
      show(problem, refusal(err));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
