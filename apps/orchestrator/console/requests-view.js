// The list of change requests over the whole history: filtered and searched on the server (phase, repository,
// submitter, origin, time, title), a page at a time (older, newer), with where each came from and its pull request
// and issue on the forge; the page shown is read again every few seconds. The filters and the page live in the
// address (#/requests?phase=FAILED&before=<id>), so a view can be linked and Back returns to the page before.
import { api, may } from '/console/api.js';
import { age, badge, h, outLink, show, usd } from '/console/dom.js';
import { forgeUrls } from '/console/forge.js';

const PHASES = [
  '',
  'SUBMITTED',
  'RECEIVED',
  'PLANNING',
  'AWAITING_APPROVAL',
  'CODING',
  'BUILD',
  'DONE',
  'FAILED',
  'CANCELLED',
];
const ORIGINS = [
  ['', 'any'],
  ['forge', 'the forge'],
  ['api', 'the API'],
  ['bus', 'the bus (Kafka)'],
];
const FILTERS = ['q', 'phase', 'repo', 'submittedBy', 'origin', 'since', 'until'];
const PAGE = 50;

/** A date of <input type=date> as the start of that day here, in RFC 3339; `next`: of the day after. */
function dayStart(date, next = false) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
}

/** The API's query for the view's state: its filters (dates made times) and its page. */
export function listQuery(state) {
  const q = new URLSearchParams({ limit: String(PAGE) });
  for (const name of [...FILTERS, 'before', 'after']) {
    const value = state.get(name);
    if (!value) continue;
    if (name === 'since') q.set('since', dayStart(value));
    else if (name === 'until') q.set('until', dayStart(value, true));
    else q.set(name, value);
  }
  return q;
}

const num = (n) => Number(n ?? 0).toLocaleString('en-US');

/** "51–100 of 10,000 requests, page 2 of 200": where the page is in the whole (filtered) list. */
export function pagePosition({ changeRequests, total, offset }) {
  const n = changeRequests.length;
  if (!n) return `0 of ${num(total)} requests.`;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const at = Math.min(pages, Math.floor(offset / PAGE) + 1);
  return `${num(offset + 1)}–${num(offset + n)} of ${num(total)} request${total === 1 ? '' : 's'}${pages > 1 ? `, page ${at} of ${num(pages)}` : ''}.`;
}

export async function requestsView({ main, signal, refusal, caller, forge }, params) {
  const state = new URLSearchParams(params);
  const input = (name, attrs) => {
    const el = h('input', { id: `filter-${name}`, name, value: state.get(name) ?? '', ...attrs });
    return el;
  };
  const select = (name, options) => {
    const el = h(
      'select',
      { id: `filter-${name}`, name },
      options.map(([value, text]) => h('option', { value }, text)),
    );
    el.value = state.get(name) ?? '';
    return el;
  };
  const fields = {
    q: input('q', { type: 'search', placeholder: 'words of the title, or an id' }),
    phase: select(
      'phase',
      PHASES.map((p) => [p, p || 'any']),
    ),
    repo: input('repo', { type: 'search', placeholder: 'part of the URL or path' }),
    submittedBy: input('submittedBy', { type: 'search', placeholder: 'token name' }),
    origin: select('origin', ORIGINS),
    since: input('since', { type: 'date' }),
    until: input('until', { type: 'date' }),
  };
  const labels = {
    q: 'Search titles',
    phase: 'Phase',
    repo: 'Repository',
    submittedBy: 'Submitted by',
    origin: 'Origin',
    since: 'From',
    until: 'To',
  };
  const body = h('tbody');
  const problem = h('div');
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  const count = h('p', { class: 'muted', role: 'status', 'data-testid': 'list-count' });

  /** The address of a state of the view. */
  const hashOf = (s) => {
    const kept = new URLSearchParams([...s].filter(([, v]) => v));
    return kept.size ? `#/requests?${kept}` : '#/requests';
  };
  // Typing filters replaces the address (no history entry per key); paging adds one, so Back goes back.
  function applyFilters() {
    for (const name of FILTERS) state.set(name, fields[name].value.trim());
    state.delete('before');
    state.delete('after');
    history.replaceState(null, '', hashOf(state));
    void load();
  }
  let typing;
  for (const name of FILTERS) {
    fields[name].addEventListener(
      fields[name].tagName === 'SELECT' || name === 'since' || name === 'until' ? 'change' : 'input',
      () => {
        clearTimeout(typing);
        typing = setTimeout(applyFilters, 250);
      },
    );
  }

  // The two buttons stay (only their cursor changes), so the keyboard's focus stays on the one pressed.
  const cursors = {};
  const pageButton = (text, key) =>
    h(
      'button',
      {
        type: 'button',
        disabled: true,
        'data-page': key,
        onclick() {
          if (!cursors[key]) return;
          state.delete('before');
          state.delete('after');
          state.set(key === 'older' ? 'before' : 'after', cursors[key]);
          history.pushState(null, '', hashOf(state));
          void load();
        },
      },
      text,
    );
  const newer = pageButton('← Newer', 'newer');
  const older = pageButton('Older →', 'older');
  show(pager, newer, ' ', older);

  function row(r, source = { origin: 'api' }) {
    const link = source.forge;
    const urls = link ? forgeUrls(forge, link.repo) : undefined;
    const pull = link?.pullRequest;
    return h(
      'tr',
      { 'data-request': r.id },
      h(
        'td',
        { class: 'title' },
        h('a', { href: `#/requests/${encodeURIComponent(r.id)}`, title: r.title }, r.title || '(no title)'),
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
      h(
        'td',
        {},
        h('time', { datetime: r.createdAt, title: new Date(r.createdAt).toLocaleString() }, age(r.createdAt)),
      ),
      h('td', {}, usd(r.costUsd)),
      h(
        'td',
        { class: 'wrap' },
        r.repoPath ?? r.repoUrl,
        r.integrationBranch ? h('div', { class: 'muted' }, r.integrationBranch) : null,
      ),
      h(
        'td',
        { class: 'wrap' },
        { forge: 'forge', api: 'API', bus: 'bus' }[source.origin] ?? source.origin,
        source.submittedBy ? h('div', { class: 'muted' }, source.submittedBy) : null,
      ),
      h('td', { 'data-column': 'pull' }, pull ? outLink(pull.url, `#${pull.number}`) : '—'),
      h(
        'td',
        { 'data-column': 'issue' },
        link?.issue ? (urls ? outLink(urls.issue(link.issue), `#${link.issue}`) : `#${link.issue}`) : '—',
      ),
    );
  }

  let reads = 0;
  async function load() {
    const mine = ++reads;
    try {
      const page = await api('GET', `/v1/change-requests?${listQuery(state)}`, undefined, { signal });
      if (mine !== reads || signal.aborted) return;
      show(problem);
      const filtered = FILTERS.some((name) => state.get(name));
      show(
        body,
        page.changeRequests.length
          ? page.changeRequests.map((r) => row(r, page.sources?.[r.id]))
          : h(
              'tr',
              {},
              h(
                'td',
                { colspan: 9, class: 'muted' },
                filtered
                  ? 'No request matches.'
                  : state.get('before') || state.get('after')
                    ? 'No more requests.'
                    : 'No requests yet.',
              ),
            ),
      );
      show(count, pagePosition(page));
      cursors.newer = page.newer;
      cursors.older = page.older;
      newer.disabled = !page.newer;
      older.disabled = !page.older;
    } catch (err) {
      if (signal.aborted || mine !== reads) return;
      show(problem, refusal(err));
    }
  }

  show(
    main,
    h('h1', {}, 'Change requests'),
    h(
      'form',
      {
        class: 'filters',
        role: 'search',
        'aria-label': 'Find requests',
        onsubmit(e) {
          e.preventDefault();
          clearTimeout(typing);
          applyFilters();
        },
      },
      FILTERS.map((name) => h('label', { for: `filter-${name}` }, labels[name], fields[name])),
      h('button', { type: 'submit' }, 'Find'),
      may(caller, 'submit') ? h('a', { href: '#/submit' }, 'Submit a request') : null,
    ),
    problem,
    count,
    h(
      'div',
      { class: 'table-box' },
      h(
        'table',
        { class: 'requests', 'aria-label': 'Change requests' },
        h(
          'colgroup',
          {},
          ['title', 'phase', 'progress', 'age', 'cost', 'repo', 'origin', 'pull', 'issue'].map((c) =>
            h('col', { class: `col-${c}` }),
          ),
        ),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Request', 'Phase', 'Progress', 'Age', 'Cost', 'Repository', 'Origin', 'Pull request', 'Issue'].map((c) =>
              h('th', { scope: 'col' }, c),
            ),
          ),
        ),
        body,
      ),
    ),
    pager,
  );

  // Live: the page shown is read again every few seconds while it is on screen.
  while (!signal.aborted) {
    await load();
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}
