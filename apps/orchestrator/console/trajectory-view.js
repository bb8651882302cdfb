// A dispatch's trajectory read like a conversation: each line of the agent's report shown for what it is (a file
// read with its path and lines, an edit as a diff of its old and new text, a command with its exit code and
// output, a model turn with what it wrote, tokens and cost, a check run step by step, a review with its
// objections where they apply), when it started after the dispatch began and how long it took (a bar on the
// dispatch's time line), and its raw JSON one click away. Long outputs are folded; the raw JSON is built when
// opened, so 500 steps render at once.
import { badge, h, show, usd } from '/console/dom.js';
import { lineDiff } from '/console/diff-parse.js';
import { stepLog } from '/console/step-log.js';

/** How old_text was found when not exactly (the edit tool's tiers, @farm/patch's TIER_DESCRIPTIONS). */
const TIERS = {
  'trailing-whitespace': 'ignoring trailing whitespace',
  indentation: 'ignoring indentation (new text re-indented)',
  'unicode-punctuation': 'ignoring indentation and Unicode punctuation',
};

/** Outputs up to this many lines and characters are shown as they are; longer ones are folded. */
const SHORT_LINES = 4;
const SHORT_CHARS = 400;

const str = (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
const lines = (text) => (text ? text.split('\n').length : 0);
const num = (n) => Number(n ?? 0).toLocaleString('en-US');

/** "+1.2 s", "+2:05": a moment after the dispatch began. */
export function offset(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `+${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `+${m}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
}

/** "340 ms", "1.2 s", "2 min 5 s". */
export function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** A text as it is when short, else folded under `label` with its line count. */
function output(text, label = 'Output', { open = false } = {}) {
  if (!text) return null;
  if (lines(text) <= SHORT_LINES && text.length <= SHORT_CHARS) return h('pre', { class: 'out' }, text);
  return h(
    'details',
    { class: 'fold', open },
    h('summary', {}, `${label} (${num(lines(text))} lines)`),
    h('pre', { class: 'out' }, text),
  );
}

/** A small diff (an edit's old and new text, numbered from `first` when the result said where). */
function miniDiff(before, after, first) {
  const pre = h('pre', { class: 'mini-diff' });
  let oldNo = first;
  let newNo = first;
  // A last newline ends the last line: it is no line of its own.
  for (const line of lineDiff(before.replace(/\n$/, ''), after.replace(/\n$/, ''))) {
    const mark = line.kind === 'add' ? '+' : line.kind === 'del' ? '−' : ' ';
    let n = '';
    if (first !== undefined) {
      n = String(line.kind === 'add' ? newNo : oldNo).padStart(4);
      if (line.kind !== 'add') oldNo++;
      if (line.kind !== 'del') newNo++;
    }
    const row = document.createElement('span');
    row.className = line.kind;
    if (n) row.append(h('span', { class: 'ln' }, n));
    // A line a block (its background across the width): no newline of its own, or it would be copied twice.
    row.append(h('span', { class: 'mark' }, mark), document.createTextNode(line.text));
    pre.append(row);
  }
  return pre;
}

/** A unified diff text (a diff-strategy answer) with its lines colored. */
function diffText(text) {
  const pre = h('pre', { class: 'mini-diff' });
  for (const line of text.split('\n')) {
    const cls = /^(---|\+\+\+) /.test(line)
      ? 'file'
      : line.startsWith('@@')
        ? 'hunk'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : null;
    const row = document.createElement('span');
    row.className = cls ?? 'context';
    row.append(document.createTextNode(line || ' '));
    pre.append(row);
  }
  return pre;
}

const code = (text) => h('code', {}, text);
const failedMark = (ok) => (ok === false ? h('strong', { class: 'bad' }, ' failed') : null);

/** The arguments of a tool line: an object, or the text the model wrote when it was no JSON. */
function argsOf(e) {
  return e.arguments && typeof e.arguments === 'object' && !Array.isArray(e.arguments) ? e.arguments : {};
}

/** run_command's result starts with how the command ended ("exit code 1", "timed out after 30 s"). */
function commandEnd(result) {
  const first = (result ?? '').split('\n', 1)[0];
  const m = /^(exit code (-?\d+)|timed out after .*|stopped \(.*\))$/.exec(first);
  if (!m) return { how: undefined, rest: result ?? '' };
  return { how: m[2] !== undefined ? `exit ${m[2]}` : first, exit: m[2], rest: (result ?? '').slice(first.length + 1) };
}

/** Each tool: the head's words, and its body. */
function toolStep(e) {
  const a = argsOf(e);
  const result = str(e.result);
  const error = e.ok === false ? h('pre', { class: 'out bad' }, result) : null;
  switch (e.tool) {
    case 'read_file': {
      const range = a.start_line || a.end_line ? `:${a.start_line ?? 1}–${a.end_line ?? 'end'}` : '';
      return { what: [code(`${str(a.path)}${range}`)], body: [error ?? output(result, 'Content')] };
    }
    case 'edit_file': {
      const at = /first at line (\d+)/.exec(result);
      return {
        what: [
          code(str(a.path)),
          a.replace_all ? ' (every occurrence)' : '',
          e.match && TIERS[e.match] ? h('span', { class: 'tier' }, ` old text matched ${TIERS[e.match]}`) : '',
        ],
        body: [
          typeof a.old_text === 'string' || typeof a.new_text === 'string'
            ? miniDiff(str(a.old_text), str(a.new_text), at ? Number(at[1]) : undefined)
            : null,
          error ?? (result ? h('p', { class: 'muted note' }, result) : null),
        ],
      };
    }
    case 'create_file':
      return {
        what: [code(str(a.path))],
        body: [
          lines(str(a.content)) > 12
            ? h(
                'details',
                { class: 'fold' },
                h('summary', {}, `Content (${num(lines(str(a.content)))} lines)`),
                miniDiff('', str(a.content), 1),
              )
            : miniDiff('', str(a.content), 1),
          error,
        ],
      };
    case 'delete_file':
      return { what: [code(str(a.path))], body: [error] };
    case 'run_command': {
      const end = commandEnd(result);
      return {
        what: [
          h('code', { class: 'cmd' }, `$ ${str(a.command)}`),
          end.how
            ? [' ', h('span', { class: end.exit === '0' ? 'ok' : 'bad', 'data-exit': end.exit ?? '' }, end.how)]
            : '',
        ],
        body: [output(end.how ? end.rest : result, 'Output')],
      };
    }
    case 'search':
      return {
        what: [
          code(`/${str(a.pattern)}/${a.ignore_case ? 'i' : ''}`),
          a.path ? [' in ', code(str(a.path))] : '',
          a.glob ? [' ', code(str(a.glob))] : '',
        ],
        body: [output(result, 'Matches')],
      };
    case 'find_symbol':
      return { what: [code(str(a.name))], body: [output(result, 'Found')] };
    case 'list_files':
      return { what: [code(str(a.path ?? '.'))], body: [output(result, 'Files')] };
    case 'finish':
      return {
        what: [],
        body: [a.summary ? h('p', { class: 'said' }, str(a.summary)) : null, output(result, 'Answer')],
      };
    default: {
      const shown = typeof e.arguments === 'string' ? e.arguments : Object.keys(a).length ? str(a) : '';
      return { what: [], body: [shown ? h('pre', { class: 'out' }, shown) : null, output(result, 'Output')] };
    }
  }
}

function checkSteps(steps) {
  return h(
    'ul',
    { class: 'plain check-steps' },
    steps.map((s) =>
      h(
        'li',
        { class: s.ok ? 'ok' : 'bad' },
        s.output
          ? h('details', { class: 'fold' }, h('summary', {}, checkLine(s)), h('pre', { class: 'out' }, str(s.output)))
          : checkLine(s),
      ),
    ),
  );
}

function checkLine(s) {
  const how = s.ok ? 'ok' : s.timedOut ? 'timed out' : `exit ${s.exitCode ?? '?'}`;
  return [
    h('strong', {}, str(s.name)),
    ' ',
    h('code', {}, str(s.run)),
    ' — ',
    h('span', { class: s.ok ? 'ok' : 'bad' }, how),
    h('span', { class: 'muted' }, ` ${duration(Number(s.durationMs ?? 0))}`),
  ];
}

function verificationWords(v) {
  if (v.unverifiedReason) return h('span', { class: 'bad' }, `not verified: ${v.unverifiedReason}`);
  const d = v.differential;
  if (d?.base === 'TEST_RUN_FAILED' && d?.branch === 'TEST_RUN_PASSED')
    return `${(d.testFiles ?? []).join(', ')} fail without the change and pass with it`;
  return 'the checks pass';
}

/** One line of the trajectory: { label, what (head), body, ok, ms (duration) }. */
export function stepOf(e) {
  switch (e.event) {
    case 'tool': {
      const t = toolStep(e);
      return { label: str(e.tool), what: [...t.what, failedMark(e.ok)], body: t.body, ok: e.ok !== false };
    }
    case 'step': {
      const t = e.tokens ?? {};
      const text = str(e.text);
      return {
        label: 'model',
        what: [
          `turn ${e.step ?? ''}`,
          e.model ? h('span', { class: 'muted' }, ` ${e.model}`) : '',
          t.totalTokens !== undefined
            ? h(
                'span',
                { class: 'muted', title: `${num(t.promptTokens)} prompt, ${num(t.completionTokens)} completion` },
                ` · ${num(t.totalTokens)} tokens`,
              )
            : '',
          e.costUsd ? h('span', { class: 'muted' }, ` · ${usd(e.costUsd)}`) : '',
          Array.isArray(e.toolCalls) && e.toolCalls.length ? ` → ${e.toolCalls.join(', ')}` : '',
          e.error ? h('strong', { class: 'bad' }, ` unreadable answer: ${str(e.error)}`) : '',
        ],
        body: [
          text
            ? text.length > 600
              ? h(
                  'details',
                  { class: 'fold said' },
                  h('summary', {}, `${text.slice(0, 100).replace(/\s+/g, ' ')}…`),
                  h('p', { class: 'said' }, text),
                )
              : h('p', { class: 'said' }, text)
            : null,
        ],
        ok: !e.error,
      };
    }
    case 'check': {
      const steps = Array.isArray(e.steps) ? e.steps : [];
      return {
        label: 'checks',
        what: [
          `attempt ${e.attempt ?? ''} `,
          h('span', { class: e.ok ? 'ok' : 'bad' }, e.ok ? 'passed' : 'failed'),
          e.reused ? h('span', { class: 'muted' }, ' (result reused)') : '',
        ],
        body: [steps.length ? checkSteps(steps) : null],
        ok: e.ok === true,
        ms: steps.reduce((n, s) => n + Number(s.durationMs ?? 0), 0),
      };
    }
    case 'review': {
      const findings = Array.isArray(e.findings) && e.findings.length ? e.findings : undefined;
      const objections = Array.isArray(e.objections) ? e.objections : [];
      const approved = e.approved && !e.belowConfidence;
      return {
        label: 'review',
        what: [
          `round ${e.round ?? ''} `,
          h('span', { class: approved ? 'ok' : 'bad' }, e.approved ? 'approved' : 'objected'),
          e.confidence ? h('span', { class: 'muted' }, ` · confidence ${Number(e.confidence).toFixed(2)}`) : '',
          e.belowConfidence ? h('span', { class: 'bad' }, ' · below the confidence asked: sent back') : '',
          e.acceptedUnverified ? h('span', { class: 'muted' }, ' · accepted unverified') : '',
        ],
        body: [
          findings
            ? h(
                'ul',
                { class: 'plain objections' },
                findings.map((f) =>
                  h(
                    'li',
                    {},
                    f.file ? [h('code', { class: 'where' }, f.line ? `${f.file}:${f.line}` : str(f.file)), ' '] : '',
                    str(f.text),
                  ),
                ),
              )
            : objections.length
              ? h(
                  'ul',
                  { class: 'plain objections' },
                  objections.map((o) => h('li', {}, str(o))),
                )
              : null,
        ],
        ok: approved,
      };
    }
    case 'reward':
      return {
        label: 'reward',
        what: [
          h('span', { class: Number(e.reward) > 0 ? 'ok' : 'bad' }, String(e.reward ?? '')),
          ` attempt ${e.attempt ?? ''}`,
          e.reason ? h('span', { class: 'muted' }, ` (${str(e.reason)})`) : '',
        ],
        body: [],
      };
    case 'verification':
      return { label: 'verification', what: [verificationWords(e)], body: [] };
    case 'context':
      return {
        label: 'context',
        what: [
          `${num(e.shown?.length)} files shown`,
          e.omitted?.length ? `, ${num(e.omitted.length)} left out` : '',
          e.tokens ? h('span', { class: 'muted' }, ` · ${num(e.tokens)} tokens`) : '',
        ],
        body: [Array.isArray(e.shown) && e.shown.length ? output(e.shown.join('\n'), 'Files') : null],
      };
    case 'checks':
      return {
        label: 'check plan',
        what: [
          (Array.isArray(e.steps) ? e.steps : []).map((s) => str(s.name)).join(', ') || 'no checks',
          e.strategy ? h('span', { class: 'muted' }, ` · ${str(e.strategy)} strategy`) : '',
          Array.isArray(e.skipped) && e.skipped.length
            ? h('span', { class: 'muted' }, ` · skipped: ${e.skipped.map((s) => str(s.name ?? s)).join(', ')}`)
            : '',
        ],
        body: [],
      };
    case 'answer':
      return {
        label: 'answer',
        what: [`attempt ${e.attempt ?? ''}: a diff`],
        body: [
          e.diff
            ? lines(str(e.diff)) > 12
              ? h(
                  'details',
                  { class: 'fold' },
                  h('summary', {}, `Diff (${num(lines(str(e.diff)))} lines)`),
                  diffText(str(e.diff)),
                )
              : diffText(str(e.diff))
            : null,
        ],
      };
    case 'rejected':
      return {
        label: 'rejected',
        what: [`attempt ${e.attempt ?? ''}`],
        body: [output(str(e.reason), 'Why')],
        ok: false,
      };
    case 'fallback':
      return {
        label: 'fallback',
        what: [`${str(e.from)} → ${str(e.to)}`, h('span', { class: 'muted' }, ` ${str(e.reason)}`)],
        body: [],
      };
    case 'result':
      return { label: 'result', what: [badge(str(e.status)), e.reason ? ` ${str(e.reason)}` : ''], body: [] };
    // Lines of a running task only (its live steps): a check step as it starts, runs and ends.
    case 'check_started':
      return {
        label: 'check',
        what: [code(str(e.run)), h('span', { class: 'muted' }, ` ${str(e.name)} started`)],
        body: [],
      };
    case 'check_output':
      return {
        label: 'check',
        what: [
          h('strong', {}, str(e.name)),
          h(
            'span',
            { class: 'muted' },
            e.cutChars ? ` output (${num(e.cutChars)} characters before it cut)` : ' output',
          ),
        ],
        body: [output(str(e.output), 'Output', { open: true })],
      };
    case 'check_running':
      return {
        label: 'check',
        what: [
          h('strong', {}, str(e.name)),
          h('span', { class: 'muted' }, ` still running after ${num(e.elapsedS)} s`),
        ],
        body: [],
      };
    case 'check_step':
      return {
        label: 'check',
        what: checkLine(e),
        body: [output(str(e.output), 'Output', { open: e.ok === false })],
        ok: e.ok === true,
        ms: Number(e.durationMs ?? 0),
      };
    case 'steps_cut':
      return { label: 'steps', what: [h('span', { class: 'muted' }, str(e.note))], body: [] };
    default:
      return { label: str(e.event) || 'line', what: [], body: [] };
  }
}

/** Each line's start and end in ms since the dispatch began: a line is written when its step ends. */
function timeline(events, steps) {
  const spans = events.map((e, i) => {
    const end = Date.parse(e.ts);
    const ms = steps[i].ms ?? (Number.isFinite(Number(e.durationMs)) ? Number(e.durationMs) : 0);
    return Number.isFinite(end) ? { start: end - ms, end, ms } : undefined;
  });
  const known = spans.filter(Boolean);
  const t0 = known.length ? Math.min(...known.map((s) => s.start)) : 0;
  const total = known.length ? Math.max(1, Math.max(...known.map((s) => s.end)) - t0) : 1;
  return { spans, t0, total };
}

/** The raw line, built when first opened. */
function rawJson(e) {
  const pre = h('pre', { class: 'out' });
  const fill = () => {
    if (!pre.firstChild) pre.textContent = JSON.stringify(e, null, 2);
  };
  // Filled on the click (mouse or keyboard) that opens it, before it opens; and when opened otherwise.
  const details = h('details', { class: 'raw' }, h('summary', { title: 'The raw line', onclick: fill }, 'JSON'), pre);
  details.addEventListener('toggle', () => details.open && fill());
  return details;
}

function stepItem(e, d, i, span, t0, total) {
  const bar = h('span', { class: 'bar', 'aria-hidden': 'true' });
  const head = [];
  if (span) {
    const fill = document.createElement('span');
    // CSSOM, not a style attribute: the console's CSP allows no inline style.
    fill.style.left = `${(((span.start - t0) / total) * 100).toFixed(2)}%`;
    fill.style.width = `${((span.ms / total) * 100).toFixed(2)}%`;
    bar.append(fill);
    head.push(h('span', { class: 'at', title: str(e.ts) }, offset(span.start - t0)));
  } else head.push(h('span', { class: 'at' }, ''));
  head.push(bar);
  return h(
    'li',
    {
      class: `step${d.ok === false ? ' failed' : ''}`,
      'data-event': str(e.event),
      'data-tool': e.event === 'tool' ? str(e.tool) : undefined,
      'data-index': i,
    },
    head,
    h(
      'div',
      { class: 'what' },
      h('strong', { class: 'label' }, d.label),
      ' ',
      d.what,
      span?.ms ? h('span', { class: 'muted dur' }, ` · ${duration(span.ms)}`) : '',
    ),
    rawJson(e),
    d.body.some(Boolean) ? h('div', { class: 'body' }, d.body) : null,
  );
}

/** A dispatch's lines as an ordered list of steps. */
export function trajectoryList(events) {
  const steps = events.map(stepOf);
  const { spans, t0, total } = timeline(events, steps);
  return h(
    'ol',
    { class: 'steps', 'data-testid': 'trajectory', 'aria-label': 'Steps' },
    events.map((e, i) => stepItem(e, steps[i], i, spans[i], t0, total)),
  );
}

/** One dispatch: its outcome and use, its steps. */
export function dispatchSection(d) {
  const reviewed = d.events.some((e) => e.event === 'review');
  return h(
    'section',
    { 'data-dispatch': d.dispatch, id: `dispatch-${d.dispatch}`, tabindex: -1, 'aria-label': `Dispatch ${d.dispatch}` },
    h('h3', {}, `Dispatch ${d.dispatch} `, badge(d.status), d.failedStep ? ` at ${d.failedStep}` : ''),
    h(
      'p',
      {},
      `${d.attempts} attempts, ${d.steps} model calls, ${num(d.tokens.total)} tokens (${num(d.tokens.prompt)} prompt, ${num(d.tokens.completion)} completion), ${usd(d.costUsd)}${d.model ? `, ${d.model}` : ''}`,
    ),
    // The verdicts, when the lines that held them were left out.
    !reviewed && d.reviews.length
      ? h(
          'ul',
          {},
          d.reviews.map((r) =>
            h('li', {}, `review ${r.round}: ${r.approved ? 'approved' : `objected: ${r.objections.join('; ')}`}`),
          ),
        )
      : null,
    d.notes.length ? h('pre', {}, d.notes.join('\n')) : null,
    d.events.length ? trajectoryList(d.events) : h('p', { class: 'muted' }, 'No trajectory lines.'),
    d.eventsOmitted
      ? h(
          'p',
          { class: 'muted' },
          `${num(d.eventsOmitted)} lines between the first and the latest were left out (size bound).`,
        )
      : null,
  );
}

/**
 * A running task's steps as they arrive (GET .../tasks/{taskId}/events): a section per dispatch, each step
 * rendered as the report's are (stepOf), when it happened after the dispatch's first step; a restarted agent (a
 * new run of the dispatch) is marked where its steps begin. A check step is one row from its start: its output
 * chunks grow one log (follow, search, download), "still running" updates it, and its end says how it ended.
 * `add({ dispatch, runId, seq, step })` appends one.
 */
export function liveTrajectory() {
  const element = h('div', { class: 'live', 'data-testid': 'live-trajectory', 'aria-live': 'polite' });
  const dispatches = new Map();
  const at = (d, step, item) => {
    const t = Date.parse(step.ts);
    const atCell = item.querySelector('.at');
    if (atCell && Number.isFinite(t) && Number.isFinite(d.t0)) {
      atCell.textContent = offset(t - d.t0);
      atCell.title = str(step.ts);
    }
  };
  /** A step of the check that runs now: folded into its row, or false when it is no such step. */
  function intoCheck(d, step) {
    const c = d.check;
    if (!c || str(step.name) !== c.name) return false;
    if (step.event === 'check_output') {
      c.log.append(
        step.cutChars ? `[… ${num(step.cutChars)} characters not shown …]\n${str(step.output)}` : str(step.output),
      );
    } else if (step.event === 'check_running') {
      c.log.state(`running, ${num(step.elapsedS)} s so far`);
    } else if (step.event === 'check_step') {
      d.check = undefined;
      // The live chunks are the step's output as it came; a step that told none (too quick) has it here.
      if (!c.log.text) c.log.set(str(step.output));
      c.log.end(step.ok === true ? 'ok' : step.timedOut ? 'timed out' : `exit ${step.exitCode ?? '?'}`);
      show(c.what, h('strong', { class: 'label' }, 'check'), ' ', checkLine(step));
      c.item.dataset.ended = step.ok === true ? 'ok' : 'failed';
      if (step.ok === false) c.item.classList.add('failed');
    } else return false;
    return true;
  }
  function add({ dispatch, runId, step }) {
    let d = dispatches.get(dispatch);
    if (!d) {
      const list = h('ol', { class: 'steps', 'aria-label': `Live steps of dispatch ${dispatch}` });
      const section = h(
        'section',
        { 'data-live-dispatch': dispatch, 'aria-label': `Dispatch ${dispatch}, live` },
        h('h3', {}, `Dispatch ${dispatch} `, badge('RUNNING')),
        list,
      );
      element.append(section);
      d = { list, runId, t0: Date.parse(step.ts), count: 0 };
      dispatches.set(dispatch, d);
    } else if (d.runId !== runId) {
      d.runId = runId;
      d.check = undefined;
      d.list.append(
        h('li', { class: 'step muted', 'data-event': 'restart' }, 'The agent started again; its steps follow.'),
      );
    }
    if (intoCheck(d, step)) return;
    const shown = stepOf(step);
    const item = stepItem(step, shown, d.count++, undefined, 0, 1);
    at(d, step, item);
    if (step.event === 'check_started') {
      const log = stepLog(str(step.name), { live: true });
      item.append(h('div', { class: 'body' }, log.element));
      d.check = { name: str(step.name), log, item, what: item.querySelector('.what') };
    }
    d.list.append(item);
  }
  return { element, add };
}
