// A change to review: the unified diff as a list of files with their additions and removals, each file folded
// on its own with old and new line numbers, in a unified or a side-by-side view (the choice is remembered in
// this browser), and beside it what verified the change. Every text goes in as a text node.
import { h } from '/console/dom.js';
import { diffStats, parseUnifiedDiff, sideBySide } from '/console/diff-parse.js';

const VIEW_KEY = 'farm.console.diffView';
/** Lines rendered at once for files shown open; a file past it is folded and rendered when opened. */
const OPEN_LINES = 1500;

function savedView() {
  try {
    return localStorage.getItem(VIEW_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

function saveView(view) {
  try {
    localStorage.setItem(VIEW_KEY, view);
  } catch {
    // storage refused (a private window): the choice lasts for this page
  }
}

/** A cell or element with a class and a text, without h()'s checks: the diff's rows are many. */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== '') e.append(document.createTextNode(text));
  return e;
}

const MARK = { add: '+', del: '−', context: ' ' };

function codeCell(line) {
  const td = el('td', `code ${line.kind}`);
  td.append(el('span', 'mark', MARK[line.kind]), document.createTextNode(line.text));
  return td;
}

const lineNo = (n) => el('td', 'ln', n === undefined ? '' : String(n));

/** The columns' widths (a fixed layout takes them from here), by class. */
function columns(classes) {
  const group = el('colgroup');
  for (const c of classes) group.append(el('col', c));
  return group;
}

/** The column headers, for screen readers: the rows show what they are. */
function headRow(labels) {
  const tr = el('tr');
  for (const l of labels) {
    const th = el('th', 'visually-hidden', l);
    th.scope = 'col';
    tr.append(th);
  }
  const head = el('thead');
  head.append(tr);
  return head;
}

function spanRow(cls, text, columns) {
  const tr = el('tr', cls);
  const td = el('td', null, text);
  td.colSpan = columns;
  tr.append(td);
  return tr;
}

/** The rows of one file, unified: old line, new line, the line. */
function unifiedTable(file) {
  const body = el('tbody');
  for (const hunk of file.hunks) {
    body.append(spanRow('hunk', hunk.header, 3));
    for (const line of hunk.lines) {
      if (line.kind === 'note') {
        body.append(spanRow('note', line.text, 3));
        continue;
      }
      const tr = el('tr', line.kind);
      tr.append(lineNo(line.oldLine), lineNo(line.newLine), codeCell(line));
      body.append(tr);
    }
  }
  const table = el('table', 'diff-table unified');
  table.append(columns(['ln', 'ln', 'code']), headRow(['Old line', 'New line', 'Line']), body);
  return table;
}

/** The rows of one file, side by side: the old line and its number, then the new. */
function splitTable(file) {
  const body = el('tbody');
  const half = (line, n) => (line ? [lineNo(n), codeCell(line)] : [el('td', 'ln'), el('td', 'code empty')]);
  for (const hunk of file.hunks) {
    body.append(spanRow('hunk', hunk.header, 4));
    for (const row of sideBySide(hunk)) {
      if (row.note) {
        body.append(spanRow('note', row.note.text, 4));
        continue;
      }
      const tr = el('tr', row.left === row.right ? 'context' : 'change');
      tr.append(...half(row.left, row.left?.oldLine), ...half(row.right, row.right?.newLine));
      body.append(tr);
    }
  }
  const table = el('table', 'diff-table split');
  table.append(columns(['ln', 'code', 'ln', 'code']), headRow(['Old line', 'Before', 'New line', 'After']), body);
  return table;
}

function fileBody(file, view) {
  const parts = [];
  if (file.binary) parts.push(h('p', { class: 'muted' }, 'A binary file: its content is not shown.'));
  else if (!file.hunks.length)
    parts.push(
      h('p', { class: 'muted' }, file.status === 'renamed' ? 'Renamed; the content is the same.' : 'No line changed.'),
    );
  else parts.push(view === 'split' ? splitTable(file) : unifiedTable(file));
  if (file.notes.length) parts.push(h('p', { class: 'muted' }, file.notes.join(' ')));
  return parts;
}

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const lineCount = (file) => file.hunks.reduce((n, hk) => n + hk.lines.length, 0);

function statusLabel(file) {
  if (file.status === 'renamed') return `renamed from ${file.oldPath}`;
  return file.status === 'modified' ? '' : file.status;
}

/**
 * The diff's files, each a <details> of its own (data-file = its path) with its rows in `view` ('unified' or
 * 'split'); rendered when first opened once the shown rows pass OPEN_LINES. Returns { element, files, setView }.
 */
export function diffFiles(text, { view = 'unified', idPrefix = 'diff-file' } = {}) {
  const { files, notes } = parseUnifiedDiff(text);
  let shownLines = 0;
  const entries = files.map((file, i) => {
    const lines = lineCount(file);
    const open = shownLines + lines <= OPEN_LINES || i === 0;
    if (open) shownLines += lines;
    const body = h('div', { class: 'file-body' });
    const details = h(
      'details',
      { class: 'diff-file', 'data-file': file.path, id: `${idPrefix}-${i}`, open },
      h(
        'summary',
        {},
        h('code', { class: 'path' }, file.path),
        statusLabel(file) ? h('span', { class: 'muted' }, ` ${statusLabel(file)}`) : null,
        ' ',
        h('span', { class: 'plus' }, `+${file.additions}`, h('span', { class: 'visually-hidden' }, ' added')),
        ' ',
        h('span', { class: 'minus' }, `−${file.deletions}`, h('span', { class: 'visually-hidden' }, ' removed')),
      ),
      body,
    );
    const entry = { file, details, body, rendered: undefined };
    const render = () => {
      if (entry.rendered === view) return;
      body.replaceChildren(...fileBody(file, view));
      entry.rendered = view;
    };
    entry.render = render;
    if (open) render();
    details.addEventListener('toggle', () => details.open && render());
    return entry;
  });
  const element = h(
    'div',
    { class: 'diff-files-body' },
    notes.length ? h('p', { class: 'muted' }, notes.join(' ')) : null,
    entries.map((e) => e.details),
  );
  return {
    element,
    files,
    entries,
    setView(next) {
      view = next;
      // A folded file is rendered in the new view when it is opened.
      for (const e of entries) if (e.details.open) e.render();
    },
  };
}

/** The table of changed files: each links its diff below, with its added and removed lines. */
function fileList(entries) {
  return h(
    'table',
    { class: 'diff-summary', 'aria-label': 'Changed files', 'data-testid': 'diff-files' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'File'),
        h('th', { scope: 'col', class: 'num' }, 'Added'),
        h('th', { scope: 'col', class: 'num' }, 'Removed'),
      ),
    ),
    h(
      'tbody',
      {},
      entries.map(({ file, details, render }) =>
        h(
          'tr',
          { 'data-file': file.path },
          h(
            'td',
            { class: 'wrap' },
            h(
              'a',
              {
                href: `#${details.id}`,
                // Within the page: the hash stays the console's route.
                onclick(e) {
                  e.preventDefault();
                  details.open = true;
                  render();
                  details.scrollIntoView({ block: 'start' });
                  details.querySelector('summary').focus({ preventScroll: true });
                },
              },
              file.path,
            ),
            statusLabel(file) ? h('span', { class: 'muted' }, ` ${statusLabel(file)}`) : null,
          ),
          h('td', { class: 'num plus' }, `+${file.additions}`),
          h('td', { class: 'num minus' }, `−${file.deletions}`),
        ),
      ),
    ),
  );
}

const OUTCOME = {
  TEST_RUN_FAILED: 'failed',
  TEST_RUN_PASSED: 'passed',
  TEST_RUN_NOT_RUN: 'not run',
};

/** What verified the change, in detail: the differential test run, and each check of the plan. */
function verificationPane(v, line) {
  const d = v?.differential;
  const checks = v?.checks ?? [];
  return h(
    'aside',
    { class: 'verification', 'aria-labelledby': 'verification-title', 'data-testid': 'verification' },
    h('h3', { id: 'verification-title' }, 'Verification'),
    h('p', {}, line),
    d
      ? h(
          'dl',
          {},
          h('dt', {}, 'Tests'),
          h(
            'dd',
            {},
            d.testFiles?.length
              ? h(
                  'ul',
                  { class: 'plain' },
                  d.testFiles.map((f) => h('li', {}, h('code', {}, f))),
                )
              : '—',
          ),
          d.command ? [h('dt', {}, 'Command'), h('dd', {}, h('code', {}, d.command))] : null,
          h('dt', {}, 'Without the change'),
          h(
            'dd',
            { class: d.base === 'TEST_RUN_FAILED' ? 'ok' : 'bad', 'data-testid': 'on-base' },
            OUTCOME[d.base] ?? d.base ?? '—',
            d.base === 'TEST_RUN_FAILED' ? ' (as it should)' : '',
          ),
          h('dt', {}, 'With the change'),
          h(
            'dd',
            { class: d.branch === 'TEST_RUN_PASSED' ? 'ok' : 'bad', 'data-testid': 'on-branch' },
            OUTCOME[d.branch] ?? d.branch ?? '—',
          ),
          d.reason ? [h('dt', {}, 'Note'), h('dd', {}, d.reason)] : null,
        )
      : null,
    checks.length
      ? [
          h('h4', {}, "The plan's checks"),
          h(
            'ul',
            { class: 'plain checks' },
            checks.map((c) =>
              h(
                'li',
                { class: c.skipped ? 'muted' : c.ok ? 'ok' : 'bad' },
                h('strong', {}, c.name),
                c.run ? [' ', h('code', {}, c.run)] : null,
                ` — ${c.skipped ? 'skipped' : c.foundNothing ? 'found no tests' : c.ok ? 'passed' : 'failed'}`,
                c.reason ? h('span', { class: 'muted' }, ` (${c.reason})`) : null,
              ),
            ),
          ),
        ]
      : null,
    v?.testsOnly ? h('p', { class: 'muted' }, 'Every changed file is a test file.') : null,
  );
}

/**
 * The task's change for review: the files changed with their counts, a unified / side-by-side switch, each
 * file's diff, and `verification` (the task's) beside it, introduced by `verificationLine`.
 */
export function diffReview({ diff, truncated, verification, verificationLine }) {
  const pane = verificationPane(verification, verificationLine);
  if (!diff)
    return h(
      'div',
      { class: 'review' },
      h('div', { class: 'diff-pane' }, h('p', { class: 'muted' }, 'Nothing committed.')),
      pane,
    );
  let view = savedView();
  const files = diffFiles(diff, { view });
  const stats = diffStats(files.files);
  const buttons = ['unified', 'split'].map((v) =>
    h(
      'button',
      {
        type: 'button',
        'data-view': v,
        'aria-pressed': String(v === view),
        onclick() {
          view = v;
          saveView(v);
          for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.view === v));
          files.setView(v);
          pane.closest('.review')?.setAttribute('data-view', v);
        },
      },
      v === 'unified' ? 'Unified' : 'Side by side',
    ),
  );
  return h(
    'div',
    { class: 'review', 'data-view': view },
    h(
      'div',
      { class: 'diff-pane', 'data-testid': 'diff' },
      h(
        'div',
        { class: 'diff-bar' },
        h(
          'p',
          { 'data-testid': 'diff-stats' },
          `${count(stats.files, 'file', 'files')} changed, `,
          h('span', { class: 'plus' }, count(stats.additions, 'addition', 'additions')),
          ', ',
          h('span', { class: 'minus' }, count(stats.deletions, 'removal', 'removals')),
        ),
        h('div', { role: 'group', 'aria-label': 'Diff view', class: 'toggle' }, buttons),
      ),
      truncated
        ? h('p', { class: 'muted' }, 'The diff was cut at 64,000 characters: its last file may be incomplete.')
        : null,
      fileList(files.entries),
      files.element,
    ),
    pane,
  );
}
