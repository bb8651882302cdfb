// What the agents learned, searchable by text and repository.
import { api } from '/console/api.js';
import { age, h, show } from '/console/dom.js';

// Task ids are `<request id>-<plan item id>` (the code planner's bundlePlan). Request ids may hold '-' too, so
// the request is told only where its id is a UUID (what the API, the console and the forge give a request).
const TASK_OF_REQUEST = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-./i;

/** The task's page when its request is known from its id, else its id as text. */
export function taskLink(taskId) {
  const request = TASK_OF_REQUEST.exec(taskId)?.[1];
  if (!request) return h('span', { class: 'muted' }, taskId);
  return h('a', { href: `#/requests/${encodeURIComponent(request)}/tasks/${encodeURIComponent(taskId)}` }, taskId);
}

export async function lessonsView({ main, signal }) {
  const { lessons } = await api('GET', '/v1/lessons?limit=500', undefined, { signal });
  const search = h('input', { id: 'lesson-search', type: 'search', placeholder: 'goal, file, failure or fix' });
  const list = h('tbody');
  const render = () => {
    const q = search.value.trim().toLowerCase();
    const shown = lessons.filter(
      (l) =>
        !q ||
        [l.goal, l.repoPath ?? l.repoUrl, l.firstFailure, l.fix, ...l.files].some((f) => f.toLowerCase().includes(q)),
    );
    show(
      list,
      shown.length
        ? shown.map((l) =>
            h(
              'tr',
              {},
              h('td', { class: 'wrap' }, l.goal, h('div', {}, taskLink(l.taskId))),
              h('td', { class: 'wrap' }, l.files.join(', ')),
              h('td', { class: 'wrap' }, l.firstFailure || '—'),
              h('td', { class: 'wrap' }, l.fix),
              h('td', { class: 'wrap' }, l.repoPath ?? l.repoUrl),
              h('td', {}, age(l.createdAt)),
            ),
          )
        : h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No lesson matches.')),
    );
  };
  search.addEventListener('input', render);
  show(
    main,
    h('h1', {}, 'Lessons'),
    h('div', { class: 'filters', role: 'search' }, h('label', { for: 'lesson-search' }, 'Search', search)),
    h(
      'table',
      { 'aria-label': 'Lessons' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Goal and task', 'Files', 'Failed first', 'Fix', 'Repository', 'Age'].map((c) =>
            h('th', { scope: 'col' }, c),
          ),
        ),
      ),
      list,
    ),
  );
  render();
}
