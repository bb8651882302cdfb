// A small DOM builder: every text goes in as a text node, so nothing the API returns is ever parsed as HTML.

/** h('a', { href: '#/x', class: 'y' }, 'text', child, [more]) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    // A link goes within the console (#/…, /console/…) or to an http(s) URL: never javascript: or data:.
    if ((key === 'href' || key === 'src') && !/^(#|\/(?!\/))/.test(String(value)) && !safeUrl(String(value))) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `el` shows. */
export function show(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

export const badge = (state) => h('span', { class: `badge state-${state}` }, state || '—');

/** "3 min", "2 h": how long ago an ISO time or epoch ms was. */
export function age(at) {
  const s = Math.max(0, Math.round((Date.now() - new Date(at).getTime()) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

export const usd = (n) => `$${Number(n ?? 0).toFixed(Number(n) >= 1 ? 2 : 4)}`;

export const time = (ms) => h('time', { datetime: new Date(ms).toISOString() }, new Date(ms).toLocaleTimeString());

/** A status message for screen readers and everyone (cleared after a while). */
export function notify(text) {
  const el = document.getElementById('notice');
  el.textContent = text;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => (el.textContent = ''), 5000);
}

/** The URL if it is http(s), else undefined: nothing else (javascript:, data:) ever becomes a link. */
export function safeUrl(url) {
  if (typeof url !== 'string' || !url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A link out of the console (the forge), or, when the URL is not http(s), the text alone with the URL beside it
 * as text: a hostile forge's `javascript:` URL is shown, never followed.
 */
export function outLink(url, text, attrs = {}) {
  const href = safeUrl(url);
  if (href) return h('a', { ...attrs, href, rel: 'noreferrer noopener' }, text);
  return url
    ? h('span', { 'data-unsafe-url': '' }, text, ' ', h('code', { class: 'muted' }, `(not a web link: ${url})`))
    : h('span', {}, text);
}

/** A heading and a way back: what a view shows for an id the farm does not know. */
export function notFoundView(title, text, back = h('a', { href: '#/requests' }, 'All requests')) {
  return h('section', { 'data-testid': 'not-found' }, h('h1', {}, title), h('p', {}, text), h('p', {}, back));
}
