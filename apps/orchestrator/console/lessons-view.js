// What the agents learned, searchable by text and repository.
import { api } from '/console/api.js';
import { age, h, show } from '/console/dom.js';

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
              h('td', {}, l.goal),
              h('td', {}, l.files.join(', ')),
              h('td', {}, l.firstFailure || '—'),
              h('td', {}, l.fix),
              h('td', {}, l.repoPath ?? l.repoUrl),
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
          ['Goal', 'Files', 'Failed first', 'Fix', 'Repository', 'Age'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      list,
    ),
  );
  render();
}
