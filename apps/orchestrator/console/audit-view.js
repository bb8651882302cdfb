// The audit (admin): who submitted, cancelled, created or revoked what, and when; filtered by subject, action and
// request, newest first, a page at a time (GET /v1/audit, as `farm audit` reads it).
import { api } from '/console/api.js';
import { h, show } from '/console/dom.js';

const ACTIONS = ['', 'submit', 'cancel', 'token.create', 'token.revoke'];
const FILTERS = ['subject', 'action', 'changeRequestId'];
const PAGE = 50;

/** What an event acted on beyond its request, as plain text: `name=ci-bot, reason=…`. */
const detailText = (detail) =>
  Object.entries(detail ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');

export async function auditView({ main, signal }, params) {
  const query = new URLSearchParams({ limit: String(PAGE) });
  for (const name of [...FILTERS, 'before']) if (params.get(name)) query.set(name, params.get(name));
  const { events } = await api('GET', `/v1/audit?${query}`, undefined, { signal });

  const subject = h('input', {
    id: 'audit-subject',
    name: 'subject',
    type: 'search',
    value: params.get('subject') ?? '',
    placeholder: 'token:ci-bot',
  });
  const action = h(
    'select',
    { id: 'audit-action', name: 'action' },
    ACTIONS.map((a) => h('option', { value: a }, a || 'any')),
  );
  action.value = params.get('action') ?? '';
  const request = h('input', {
    id: 'audit-request',
    name: 'changeRequestId',
    type: 'search',
    value: params.get('changeRequestId') ?? '',
  });
  const hashOf = (entries) => {
    const kept = new URLSearchParams(entries.filter(([, v]) => v));
    return kept.size ? `#/audit?${kept}` : '#/audit';
  };
  const filters = () => [
    ['subject', subject.value.trim()],
    ['action', action.value],
    ['changeRequestId', request.value.trim()],
  ];
  const older = events.length === PAGE ? events.at(-1).id : undefined;

  show(
    main,
    h('h1', {}, 'Audit'),
    h(
      'form',
      {
        class: 'filters',
        role: 'search',
        'aria-label': 'Filter the audit',
        onsubmit(e) {
          e.preventDefault();
          location.hash = hashOf(filters());
        },
      },
      h('label', { for: 'audit-subject' }, 'Subject', subject),
      h('label', { for: 'audit-action' }, 'Action', action),
      h('label', { for: 'audit-request' }, 'Request id', request),
      h('button', { type: 'submit' }, 'Filter'),
    ),
    h(
      'div',
      { class: 'table-box' },
      h(
        'table',
        { 'aria-label': 'Audit events' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['When', 'Subject', 'Action', 'Request', 'Detail'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          {},
          events.length
            ? events.map((e) =>
                h(
                  'tr',
                  { 'data-audit': e.id },
                  h('td', {}, h('time', { datetime: e.at }, new Date(e.at).toLocaleString())),
                  h('td', { class: 'wrap' }, e.subject),
                  h('td', {}, e.action),
                  h(
                    'td',
                    { class: 'wrap' },
                    e.changeRequestId
                      ? h('a', { href: `#/requests/${encodeURIComponent(e.changeRequestId)}` }, e.changeRequestId)
                      : '—',
                  ),
                  h('td', { class: 'wrap' }, detailText(e.detail) || '—'),
                ),
              )
            : h('tr', {}, h('td', { colspan: 5, class: 'muted' }, 'No event matches.')),
        ),
      ),
    ),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Pages' },
      params.get('before') ? h('a', { href: hashOf(filters()) }, '← Newest') : null,
      ' ',
      older ? h('a', { href: hashOf([...filters(), ['before', older]]) }, 'Older →') : null,
    ),
  );
}
