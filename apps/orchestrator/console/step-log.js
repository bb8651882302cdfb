// One check step's output as one log that grows while the step runs, as CI run views show a step: its lines
// numbered, the view following the end as it grows (until the reader scrolls up; "Follow" brings it back), a
// search that marks the matching lines and steps through them, and the whole log as a file to download.
import { h } from '/console/dom.js';

/** Lines of `text` matching `query` (case-insensitive), by index; none for an empty query. */
export function matchingLines(lines, query) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out = [];
  lines.forEach((line, i) => line.toLowerCase().includes(q) && out.push(i));
  return out;
}

/** A file name for a step's log: its name, safe on every system. */
export const logFileName = (name) => `${String(name || 'step').replace(/[^A-Za-z0-9._-]+/g, '-')}.log`;

/**
 * `stepLog(name)`: `{ element, append(text), set(text), state(words), end(headline), text }`. `append` adds output as it comes (a
 * partial last line is continued by the next chunk), `set` replaces it (the step's final output), `end` marks
 * the step over with its outcome.
 */
export function stepLog(name, { text = '', live = false } = {}) {
  let content = '';
  let lines = [''];
  let rows = [];
  const pre = h('pre', { class: 'out log', tabindex: 0, 'aria-label': `Output of ${name}`, 'data-testid': 'step-log' });
  const stateEl = h('span', { class: 'muted log-state' }, live ? 'running' : '');
  const count = h('span', { class: 'muted log-count' });
  const follow = h('input', { type: 'checkbox', 'aria-label': `Follow the output of ${name}` });
  follow.checked = live;
  const search = h('input', {
    type: 'search',
    placeholder: 'Search the log',
    'aria-label': `Search the output of ${name}`,
  });
  const found = h('span', { class: 'muted log-found', role: 'status' });
  const download = h('a', { class: 'button', download: logFileName(name) }, 'Download');
  let hits = [];
  let at = -1;

  const row = (line, i) => {
    const r = h(
      'span',
      { class: 'log-line', 'data-line': i + 1 },
      h('span', { class: 'ln', 'aria-hidden': 'true' }, String(i + 1)),
    );
    r.append(document.createTextNode(line + '\n'));
    return r;
  };
  const render = () => {
    const n = lines.length - (lines.at(-1) === '' ? 1 : 0);
    // Only the last row can change (a chunk continues a line): the rows before it stay.
    while (rows.length > Math.max(0, n - 1) && rows.length) rows.pop().remove();
    for (let i = rows.length; i < n; i++) {
      const r = row(lines[i], i);
      rows.push(r);
      pre.append(r);
    }
    count.textContent = `${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}`;
    if (search.value) mark(false);
    if (follow.checked) pre.scrollTop = pre.scrollHeight;
  };
  const mark = (jump) => {
    for (const i of hits) rows[i]?.classList.remove('hit', 'current');
    hits = matchingLines(lines, search.value).filter((i) => i < rows.length);
    for (const i of hits) rows[i].classList.add('hit');
    if (!hits.length) {
      at = -1;
      found.textContent = search.value.trim() ? 'no match' : '';
      return;
    }
    if (jump || at < 0 || at >= hits.length) at = jump ? (at + 1) % hits.length : 0;
    rows[hits[at]].classList.add('current');
    found.textContent = `${at + 1} of ${hits.length}`;
    if (jump) {
      follow.checked = false;
      rows[hits[at]].scrollIntoView({ block: 'nearest' });
    }
  };
  search.addEventListener('input', () => {
    at = -1;
    mark(false);
  });
  search.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      mark(true);
    }
  });
  // Scrolled up by the reader: stop following; back at the end: follow again.
  pre.addEventListener('scroll', () => {
    if (!live) return;
    follow.checked = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
  });
  follow.addEventListener('change', () => follow.checked && (pre.scrollTop = pre.scrollHeight));
  // The file is made when asked for: a blob of what the log holds then.
  download.addEventListener('click', () => {
    if (download.href) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(new Blob([content], { type: 'text/plain' }));
  });

  const api = {
    element: h(
      'div',
      { class: 'step-log', 'data-step': name },
      h(
        'div',
        { class: 'log-bar' },
        stateEl,
        ' ',
        count,
        ' ',
        h('label', {}, follow, ' Follow'),
        ' ',
        search,
        ' ',
        found,
        ' ',
        download,
      ),
      pre,
    ),
    append(chunk) {
      if (!chunk) return;
      content += chunk;
      lines = content.split('\n');
      render();
    },
    set(all) {
      content = all ?? '';
      lines = content.split('\n');
      for (const r of rows.splice(0)) r.remove();
      render();
    },
    /** What the step is doing, in the log's bar ("running, 40 s so far"). */
    state(words) {
      stateEl.textContent = words;
    },
    end(headline) {
      live = false;
      stateEl.textContent = headline;
      follow.checked = false;
    },
    get text() {
      return content;
    },
  };
  api.append(text);
  return api;
}
