// The console's router: a view per hash route, each given the <main> to fill and a signal that aborts when
// the user leaves it (its polling and event stream stop). Sign-in, the 401 page and 403 messages live here.
import { forgeSite, may, session, whoami, Forbidden, Unauthorized } from '/console/api.js';
import { auditView } from '/console/audit-view.js';
import { h, notFoundView, show } from '/console/dom.js';
import { healthView } from '/console/health-view.js';
import { lessonsView } from '/console/lessons-view.js';
import { requestView } from '/console/request-view.js';
import { requestsView } from '/console/requests-view.js';
import { submitView } from '/console/submit-view.js';
import { taskView } from '/console/task-view.js';
import { tokensView } from '/console/tokens-view.js';

const main = document.getElementById('main');
const signOut = document.getElementById('sign-out');
let leaving = new AbortController();

const routes = [
  [
    /^#\/requests\/([^/?]+)\/tasks\/([^/?]+)(?:\/dispatches\/(\d+))?$/,
    (m, ctx) => taskView(ctx, decodeURIComponent(m[1]), decodeURIComponent(m[2]), m[3] && Number(m[3])),
  ],
  [/^#\/requests\/([^/?]+)$/, (m, ctx) => requestView(ctx, decodeURIComponent(m[1]))],
  [/^#\/requests(?:\?(.*))?$/, (m, ctx) => requestsView(ctx, new URLSearchParams(m[1] ?? ''))],
  [/^#\/submit$/, (_m, ctx) => submitView(ctx)],
  [/^#\/lessons$/, (_m, ctx) => lessonsView(ctx)],
  [/^#\/health$/, (_m, ctx) => healthView(ctx)],
  [/^#\/tokens$/, (_m, ctx) => tokensView(ctx)],
  [/^#\/audit(?:\?(.*))?$/, (m, ctx) => auditView(ctx, new URLSearchParams(m[1] ?? ''))],
];

/** The header's links to what the caller may do; the others are hidden (the API would refuse them anyway). */
function showNavFor(caller) {
  for (const link of document.querySelectorAll('nav [data-scope]')) link.hidden = !may(caller, link.dataset.scope);
}

/** What a view does with a refusal: 401 leaves for the 401 page; 403 and others are shown where they happened. */
export function refusalView(err) {
  if (err instanceof Unauthorized) {
    session.signOut();
    location.hash = '#/unauthorized';
    return h('p', {}, 'Signed out.');
  }
  if (err instanceof Forbidden) {
    return h(
      'div',
      { class: 'error', role: 'alert', 'data-testid': 'forbidden' },
      h('strong', {}, 'Not allowed (403). '),
      `Your token does not have the scope for this: ${err.message}`,
    );
  }
  return h('div', { class: 'error', role: 'alert' }, err.message || String(err));
}

function signInView(message) {
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true });
  const problem = h('p', { role: 'alert' });
  const form = h(
    'form',
    {
      class: 'stack',
      'aria-labelledby': 'signin-title',
      async onsubmit(e) {
        e.preventDefault();
        session.signIn(input.value.trim());
        try {
          await whoami(); // does the API take it?
          location.hash = '#/requests';
        } catch (err) {
          session.signOut();
          show(problem, err instanceof Unauthorized ? `The farm refused this token: ${err.message}` : err.message);
        }
      },
    },
    h('h1', { id: 'signin-title' }, 'Sign in'),
    message ? h('p', { class: 'error', role: 'alert' }, message) : null,
    h(
      'p',
      { class: 'muted' },
      'Paste an API token of this farm (`farm token create`, or the one `farm up` printed). It is kept for this tab only.',
    ),
    h('label', { for: 'token' }, 'Token', input),
    h('div', {}, h('button', { class: 'primary', type: 'submit' }, 'Sign in')),
    problem,
  );
  return form;
}

function unauthorizedView() {
  return h(
    'section',
    { 'data-testid': 'unauthorized' },
    h('h1', {}, 'Your token was refused (401)'),
    h('p', {}, 'The farm did not accept the token this tab signed in with: it is wrong, revoked or expired.'),
    h('p', {}, h('a', { href: '#/signin' }, 'Sign in again')),
  );
}

async function route() {
  leaving.abort();
  leaving = new AbortController();
  const hash = location.hash || '#/requests';
  signOut.hidden = !session.token();
  if (hash === '#/unauthorized') return show(main, unauthorizedView());
  if (hash === '#/signin' || !session.token()) {
    if (hash !== '#/signin') return void (location.hash = '#/signin');
    return show(main, signInView());
  }
  const signal = leaving.signal;
  let caller;
  let forge;
  try {
    [caller, forge] = await Promise.all([whoami(), forgeSite()]);
  } catch (err) {
    if (!signal.aborted) show(main, refusalView(err));
    return;
  }
  if (signal.aborted) return;
  showNavFor(caller);
  const ctx = { main, signal, refusal: refusalView, caller, forge };
  for (const [pattern, view] of routes) {
    const m = hash.match(pattern);
    if (!m) continue;
    main.focus({ preventScroll: true });
    try {
      await view(m, ctx);
    } catch (err) {
      if (!ctx.signal.aborted) show(main, refusalView(err));
    }
    return;
  }
  show(main, notFoundView('Page not found', `The console has no page ${hash}.`));
}

signOut.addEventListener('click', () => {
  session.signOut();
  location.hash = '#/signin';
});
window.addEventListener('hashchange', () => void route());
void route();
