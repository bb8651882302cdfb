// The farm's API tokens (admin scope): who holds what, until when; create one with a lifetime, revoke one.
import { api } from '/console/api.js';
import { age, h, notify, show } from '/console/dom.js';

const SCOPES = ['read', 'submit', 'cancel', 'approve', 'admin'];
const LIFETIMES = [
  ['', 'the farm’s default'],
  [String(24 * 3600), '1 day'],
  [String(7 * 24 * 3600), '7 days'],
  [String(30 * 24 * 3600), '30 days'],
  [String(90 * 24 * 3600), '90 days'],
];

/** When a token stops working, said so a person can act on it: never, in how long, or that it already has. */
export function expiry(token, now = Date.now()) {
  if (token.revokedAt) return `revoked ${age(token.revokedAt)} ago${token.revokedBy ? ` by ${token.revokedBy}` : ''}`;
  if (!token.expiresAt) return 'never (until revoked)';
  const left = Date.parse(token.expiresAt) - now;
  if (left <= 0) return `expired ${age(token.expiresAt)} ago`;
  const days = Math.floor(left / 86_400_000);
  const hours = Math.floor(left / 3_600_000);
  return `${token.expiresAt.slice(0, 16).replace('T', ' ')} UTC (in ${days ? `${days} d` : hours ? `${hours} h` : 'under an hour'})`;
}

/** The page; `justCreated`: a token made a moment ago, whose secret is shown once, here. */
export async function tokensView(ctx, justCreated) {
  const { main, signal, refusal } = ctx;
  const { tokens } = await api('GET', '/v1/tokens?includeRevoked=true', undefined, { signal });
  const problem = h('div', { role: 'status' });
  const created = h(
    'div',
    { role: 'status' },
    justCreated
      ? [
          h(
            'p',
            {},
            `Token ${justCreated.name} (${justCreated.scopes.join(', ')}), expires ${expiry(justCreated)}. Copy it now: it is not shown again.`,
          ),
          h('pre', { 'data-testid': 'new-token' }, justCreated.token),
        ]
      : null,
  );
  const name = h('input', { id: 'token-name', name: 'name', required: true, maxlength: 64 });
  const lifetime = h(
    'select',
    { id: 'token-lifetime', name: 'lifetime' },
    LIFETIMES.map(([value, label]) => h('option', { value }, label)),
  );
  const scopes = SCOPES.map((s) => h('input', { type: 'checkbox', name: 'scope', value: s, checked: s === 'read' }));
  const form = h(
    'form',
    {
      class: 'stack',
      'aria-label': 'New token',
      async onsubmit(e) {
        e.preventDefault();
        const body = { name: name.value.trim(), scopes: scopes.filter((c) => c.checked).map((c) => c.value) };
        if (lifetime.value) body.expiresInSeconds = Number(lifetime.value);
        try {
          const t = await api('POST', '/v1/tokens', body);
          notify(`Token ${t.name} created`);
          await tokensView(ctx, t);
        } catch (err) {
          show(problem, refusal(err));
        }
      },
    },
    h('h2', {}, 'New token'),
    h('label', { for: 'token-name' }, 'Name', name),
    h(
      'fieldset',
      { class: 'choices' },
      h('legend', {}, 'Scopes'),
      scopes.map((c) => h('label', {}, c, ` ${c.value}`)),
    ),
    h('label', { for: 'token-lifetime' }, 'Expires after', lifetime),
    h('div', {}, h('button', { class: 'primary', type: 'submit' }, 'Create')),
  );
  const revoke = (t) =>
    t.revokedAt
      ? null
      : h(
          'button',
          {
            type: 'button',
            async onclick() {
              try {
                await api('POST', `/v1/tokens/${encodeURIComponent(t.id)}/revoke`);
                notify(`Token ${t.name} revoked`);
                await tokensView(ctx);
              } catch (err) {
                show(problem, refusal(err));
              }
            },
          },
          'Revoke',
        );
  show(
    main,
    h('h1', {}, 'Tokens'),
    problem,
    h(
      'table',
      { 'aria-label': 'Tokens' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Name', 'Scopes', 'Expires', 'Created', 'Last used', 'Action'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        tokens.map((t) =>
          h(
            'tr',
            { 'data-token': t.name, class: t.revokedAt ? 'muted' : null },
            h('td', {}, t.name),
            h('td', {}, t.scopes.join(', ')),
            h('td', {}, expiry(t)),
            h('td', {}, `${age(t.createdAt)} ago by ${t.createdBy}`),
            h('td', {}, t.lastUsedAt ? `${age(t.lastUsedAt)} ago` : '—'),
            h('td', {}, revoke(t)),
          ),
        ),
      ),
    ),
    form,
    created,
  );
}
