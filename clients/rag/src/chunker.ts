import { createHash } from 'node:crypto';

/**
 * Splits source files into retrieval chunks along declarations (TypeScript/JavaScript, Python) or fixed line
 * windows (anything else). Every non-blank line of a file lands in at least one chunk, so a file can be
 * reassembled from its chunks; that is what `snippetsByBlobIds` relies on.
 */

export type ChunkKind = 'function' | 'class' | 'type' | 'variable' | 'module' | 'lines';
export type SymbolKind = 'function' | 'class' | 'method' | 'type' | 'variable';

export interface Chunk {
  /** Stable for (repo, commit, path, line range); UUID-shaped because Qdrant only accepts UUIDs or integers. */
  id: string;
  repo: string;
  commit: string;
  path: string;
  /** Git blob sha of the whole file, so tasks can ask for "the file as planned" by blob id. */
  blobId: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  symbol?: string;
  kind: ChunkKind;
  text: string;
}

export interface SymbolDef {
  name: string;
  kind: SymbolKind;
  /** 1-based, inclusive; includes leading doc comments and decorators. */
  startLine: number;
  endLine: number;
  /** Enclosing class for methods. */
  container?: string;
}

export interface ChunkOptions {
  /** Height of a line window for files without a declaration parser. Default 60. */
  windowLines?: number;
  /** Lines shared by consecutive windows, so a statement cut at a border is whole in one of them. Default 10. */
  overlapLines?: number;
  /** Declarations longer than this are split into windows that keep the symbol. Default 200. */
  maxChunkLines?: number;
}

export type Language = 'javascript' | 'python' | 'other';

export function languageOf(path: string): Language {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'].includes(ext)) return 'javascript';
  if (ext === 'py' || ext === 'pyi') return 'python';
  return 'other';
}

/** The git blob id of a file's content (`git hash-object`): sha1 of `blob <len>\0` + bytes. */
export function gitBlobId(content: Buffer | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A deterministic UUID (version-5 layout) from any string; re-indexing the same chunk overwrites it. */
export function stableUuid(key: string): string {
  const h = createHash('sha1').update(key).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function chunkId(repo: string, commit: string, path: string, startLine: number, endLine: number): string {
  return stableUuid(`${repo}\0${commit}\0${path}\0${startLine}\0${endLine}`);
}

// ---------------------------------------------------------------------------------------------------------
// Declarations

interface Declaration extends SymbolDef {
  /** Top-level declarations become chunks; methods only feed extractSymbols. */
  topLevel: boolean;
}

/** Defined symbols with line ranges: top-level functions, classes, types, variables, and class methods. */
export function extractSymbols(path: string, text: string): SymbolDef[] {
  return declarations(path, splitLines(text)).map(({ topLevel: _t, ...s }) => s);
}

function declarations(path: string, lines: string[]): Declaration[] {
  const lang = languageOf(path);
  if (lang === 'javascript') return jsDeclarations(lines);
  if (lang === 'python') return pyDeclarations(lines);
  return [];
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline ends a line, not starts one
  return lines;
}

// --- TypeScript / JavaScript --------------------------------------------------------------------------------

interface JsLine {
  /** Bracket depth ( ({[ ) at the start and end of the line, outside strings and comments. */
  depthStart: number;
  depthEnd: number;
  /** The line starts inside a block comment or template literal, so it cannot start a declaration. */
  startsInText: boolean;
  firstCode: string;
  lastCode: string;
}

const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
]);

/**
 * One pass over the file tracking strings, comments, template literals (with nested `${}`) and regex
 * literals, so braces inside them do not count. Unterminated quotes and regexes end at the line break, which
 * keeps one odd line (e.g. JSX text) from derailing the rest of the file.
 */
function scanJs(lines: string[]): JsLine[] {
  type Mode = 'code' | 'block' | 'sq' | 'dq' | 'tpl' | 're';
  let mode: Mode = 'code';
  let depth = 0;
  const tplStack: number[] = [];
  let lastSig = '';
  let lastWord = '';
  const out: JsLine[] = [];
  for (const line of lines) {
    const startsInText = mode === 'block' || mode === 'tpl';
    const depthStart = depth;
    let firstCode = '';
    let lastCode = '';
    let inClass = false;
    const code = (c: string) => {
      if (!firstCode) firstCode = c;
      lastCode = c;
    };
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      const next = line[i + 1];
      if (mode === 'block') {
        if (c === '*' && next === '/') {
          mode = 'code';
          i++;
        }
        continue;
      }
      if (mode === 'sq' || mode === 'dq') {
        if (c === '\\') i++;
        else if (c === (mode === 'sq' ? "'" : '"')) {
          mode = 'code';
          code(c);
        }
        continue;
      }
      if (mode === 're') {
        if (c === '\\') i++;
        else if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) {
          mode = 'code';
          lastSig = ')'; // a regex literal is a value: a `/` after it divides
          code(c);
        }
        continue;
      }
      if (mode === 'tpl') {
        if (c === '\\') i++;
        else if (c === '`') {
          mode = 'code';
          lastSig = ')';
          code(c);
        } else if (c === '$' && next === '{') {
          tplStack.push(depth);
          depth++;
          i++;
          mode = 'code';
        }
        continue;
      }
      // code
      if (c === ' ' || c === '\t') continue;
      if (c === '/' && next === '/') break;
      if (c === '/' && next === '*') {
        mode = 'block';
        i++;
        continue;
      }
      code(c);
      if (c === "'") mode = 'sq';
      else if (c === '"') mode = 'dq';
      else if (c === '`') mode = 'tpl';
      else if (
        c === '/' &&
        (lastSig === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastSig) || REGEX_AFTER_WORD.has(lastWord))
      ) {
        mode = 're';
        inClass = false;
      } else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        depth = Math.max(0, depth - 1);
        if (c === '}' && tplStack.length && depth === tplStack[tplStack.length - 1]) {
          tplStack.pop();
          mode = 'tpl';
        }
      }
      if (/[\w$]/.test(c)) {
        lastWord = /[\w$]/.test(lastSig) ? lastWord + c : c;
      } else lastWord = '';
      lastSig = c;
    }
    if (mode === 'sq' || mode === 'dq' || mode === 're') mode = 'code';
    out.push({ depthStart, depthEnd: depth, startsInText, firstCode, lastCode });
  }
  return out;
}

const ID = '[A-Za-z_$][\\w$]*';
const EXP = '(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?';
const JS_DECLS: Array<{ re: RegExp; kind: SymbolKind }> = [
  { re: new RegExp(`^${EXP}(?:async\\s+)?function\\s*\\*?\\s*(${ID})?`), kind: 'function' },
  { re: new RegExp(`^${EXP}(?:abstract\\s+)?class\\b\\s*(${ID})?`), kind: 'class' },
  { re: new RegExp(`^${EXP}(?:const\\s+)?enum\\s+(${ID})`), kind: 'type' },
  { re: new RegExp(`^${EXP}interface\\s+(${ID})`), kind: 'type' },
  { re: new RegExp(`^${EXP}type\\s+(${ID})\\s*(?:<.*>)?\\s*=`), kind: 'type' },
  // const f = function / async (...) => / x => / <T>(...) => ; params may continue on the next lines
  {
    re: new RegExp(
      `^${EXP}(?:const|let|var)\\s+(${ID})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|\\([^)]*$|${ID}\\s*=>|<)`,
    ),
    kind: 'function',
  },
  { re: new RegExp(`^${EXP}(?:const|let|var)\\s+(${ID})`), kind: 'variable' },
  { re: new RegExp(`^(?:module\\.)?exports\\.(${ID})\\s*=\\s*(?:async\\s+)?(?:function\\b|\\()`), kind: 'function' },
];
const JS_METHOD = new RegExp(
  `^\\s+(?:(?:public|private|protected|static|readonly|override|abstract|async|get|set)\\s+)*\\*?\\s*(#?${ID})\\s*(?:<[^>]*>)?\\s*\\(`,
);
const JS_ARROW_PROPERTY = new RegExp(
  `^\\s+(?:(?:public|private|protected|static|readonly|override)\\s+)*(#?${ID})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:\\(|${ID}\\s*=>)`,
);
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'constructor', 'super']);
// A statement goes on when the line ends in one of these or the next line starts with one.
const CONTINUES_AFTER = new Set([
  ',',
  '=',
  '(',
  '[',
  '{',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '?',
  ':',
  '.',
  '<',
  '>',
  '!',
]);
const CONTINUES_BEFORE = new Set(['.', '?', ':', '+', '-', '*', '/', '%', '&', '|', '=', ',', ')', ']', '}', '>']);

function jsDeclarations(lines: string[]): Declaration[] {
  const info = scanJs(lines);
  const out: Declaration[] = [];
  const nextCodeLine = (from: number) => {
    for (let j = from; j < lines.length; j++) if (info[j].firstCode) return j;
    return -1;
  };
  for (let s = 0; s < lines.length; s++) {
    const li = info[s];
    if (li.depthStart !== 0 || li.startsInText || !/^[A-Za-z_$]/.test(lines[s])) continue;
    const match = JS_DECLS.map((d) => ({ d, m: d.re.exec(lines[s]) })).find((x) => x.m);
    if (!match) continue;
    const kind = match.d.kind;
    const name = match.m![1] ?? 'default';
    // Extend to the end of the statement: brackets closed and nothing continuing it on the next line.
    let e = s;
    for (;;) {
      if (info[e].depthEnd === 0 && info[e].firstCode) {
        const n = nextCodeLine(e + 1);
        const nextFirst = n < 0 ? '' : info[n].firstCode;
        const bodyPending =
          (kind === 'function' || kind === 'class') && !linesHaveBrace(lines, s, e) && nextFirst === '{';
        const continues =
          CONTINUES_AFTER.has(info[e].lastCode) || (n >= 0 && CONTINUES_BEFORE.has(nextFirst)) || bodyPending;
        if (!continues || n < 0) break;
        e = n;
        continue;
      }
      if (e + 1 >= lines.length) break;
      e++;
    }
    const start = leadingCommentStart(lines, info, s, out.length ? out[out.length - 1].endLine : 0);
    out.push({ name, kind, startLine: start + 1, endLine: e + 1, topLevel: true });
    if (kind === 'class') out.push(...jsMethods(lines, info, s, e, name));
    s = e;
  }
  return out;
}

function linesHaveBrace(lines: string[], s: number, e: number): boolean {
  for (let i = s; i <= e; i++) if (lines[i].includes('{')) return true;
  return false;
}

/** Methods are the lines at class-body depth that look like `name(`; each runs until the depth falls back. */
function jsMethods(lines: string[], info: JsLine[], s: number, e: number, container: string): Declaration[] {
  const out: Declaration[] = [];
  const bodyDepth = info[s].depthStart + 1;
  for (let i = s + 1; i <= e; i++) {
    if (info[i].depthStart !== bodyDepth || info[i].startsInText) continue;
    const m = JS_METHOD.exec(lines[i]) ?? JS_ARROW_PROPERTY.exec(lines[i]);
    if (!m || NOT_METHODS.has(m[1])) continue;
    // A signature that opens brackets runs until the depth falls back to the class body.
    let end = i;
    while (end < e && info[end].depthEnd > bodyDepth) end++;
    out.push({ name: m[1], kind: 'method', startLine: i + 1, endLine: end + 1, container, topLevel: false });
    i = end;
  }
  return out;
}

/** Doc comments and decorators directly above a declaration belong to it. */
function leadingCommentStart(lines: string[], info: JsLine[], s: number, floor: number): number {
  let start = s;
  for (let j = s - 1; j >= floor; j--) {
    const t = lines[j].trim();
    const comment = t !== '' && !info[j].firstCode && info[j].depthStart === 0;
    const decorator = t.startsWith('@') && info[j].depthStart === 0;
    if (!comment && !decorator && !(info[j].startsInText && t !== '')) break;
    start = j;
  }
  return start;
}

// --- Python -------------------------------------------------------------------------------------------------

interface PyLine {
  indent: number;
  /** Inside a multi-line string or an open bracket at the start of the line: a continuation, not a statement. */
  continuation: boolean;
  blank: boolean;
  comment: boolean;
}

function scanPy(lines: string[]): PyLine[] {
  let depth = 0;
  let triple: string | null = null;
  let backslash = false;
  return lines.map((line) => {
    const continuation = depth > 0 || triple !== null || backslash;
    const trimmed = line.trim();
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (triple) {
        if (c === '\\') i++;
        else if (line.startsWith(triple, i)) {
          i += 2;
          triple = null;
        }
        continue;
      }
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === '#') break;
      if ((c === '"' || c === "'") && line.startsWith(c.repeat(3), i)) {
        triple = c.repeat(3);
        i += 2;
      } else if (c === '"' || c === "'") quote = c;
      else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth = Math.max(0, depth - 1);
    }
    backslash = triple === null && line.endsWith('\\');
    return {
      indent: line.length - line.trimStart().length,
      continuation,
      blank: trimmed === '',
      comment: trimmed.startsWith('#'),
    };
  });
}

const PY_DEF = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/;
const PY_ASSIGN = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/;

function pyDeclarations(lines: string[]): Declaration[] {
  const info = scanPy(lines);
  const out: Declaration[] = [];
  /** Last line of the block opened at `s` with indentation `indent`: before the next statement at or left of it. */
  const blockEnd = (s: number, indent: number) => {
    let end = s;
    for (let j = s + 1; j < lines.length; j++) {
      const l = info[j];
      if (l.blank || l.continuation) {
        if (!l.blank) end = j;
        continue;
      }
      // A comment at or left of the block's indentation may sit inside it or before what follows: neither
      // ends nor extends the block.
      if (l.comment && l.indent <= indent) continue;
      if (l.indent <= indent) break;
      end = j;
    }
    return end;
  };
  const decoratedStart = (s: number, indent: number) => {
    let start = s;
    for (let j = s - 1; j >= 0; j--) {
      const t = lines[j].trim();
      if (info[j].indent !== indent || !(t.startsWith('@') || t.startsWith('#')) || info[j].continuation) break;
      start = j;
    }
    return start;
  };
  const classes: Array<{ name: string; indent: number; end: number }> = [];
  for (let s = 0; s < lines.length; s++) {
    const l = info[s];
    if (l.blank || l.continuation || l.comment) continue;
    while (classes.length && s > classes[classes.length - 1].end) classes.pop();
    const m = PY_DEF.exec(lines[s]);
    if (m) {
      const indent = m[1].length;
      const end = blockEnd(s, indent);
      const start = decoratedStart(s, indent);
      const owner = classes.length ? classes[classes.length - 1] : undefined;
      if (indent === 0) {
        out.push({
          name: m[3],
          kind: m[2] === 'class' ? 'class' : 'function',
          startLine: start + 1,
          endLine: end + 1,
          topLevel: true,
        });
      } else if (owner && m[2] === 'def' && indent > owner.indent) {
        out.push({
          name: m[3],
          kind: 'method',
          startLine: start + 1,
          endLine: end + 1,
          container: owner.name,
          topLevel: false,
        });
      }
      if (m[2] === 'class') classes.push({ name: m[3], indent, end });
      continue;
    }
    const a = l.indent === 0 ? PY_ASSIGN.exec(lines[s]) : null;
    if (a) {
      let end = s;
      while (end + 1 < lines.length && info[end + 1].continuation) end++;
      out.push({ name: a[1], kind: 'variable', startLine: s + 1, endLine: end + 1, topLevel: true });
      s = end;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Chunks

export interface ChunkFileInput {
  repo: string;
  commit: string;
  path: string;
  text: string;
  /** Computed from `text` when not given. */
  blobId?: string;
}

// Functions and classes are what goals name; a short type or variable reads better with its neighbours.
const MIN_OWN_LINES = 3;

export function chunkFile(input: ChunkFileInput, options: ChunkOptions = {}): Chunk[] {
  const windowLines = options.windowLines ?? 60;
  const overlap = Math.min(options.overlapLines ?? 10, windowLines - 1);
  const maxLines = options.maxChunkLines ?? 200;
  const lines = splitLines(input.text);
  const blobId = input.blobId ?? gitBlobId(input.text);
  const spans: Array<{ start: number; end: number; kind: ChunkKind; symbol?: string }> = [];

  const own = declarations(input.path, lines)
    .filter((d) => d.topLevel)
    .filter((d) => d.kind === 'function' || d.kind === 'class' || d.endLine - d.startLine + 1 >= MIN_OWN_LINES);
  const gapKind: ChunkKind = languageOf(input.path) === 'other' ? 'lines' : 'module';
  let cursor = 1;
  const addGap = (from: number, to: number) => {
    // Trim blank lines at the edges; an all-blank gap yields nothing.
    while (from <= to && lines[from - 1].trim() === '') from++;
    while (to >= from && lines[to - 1].trim() === '') to--;
    if (from <= to)
      spans.push(...windows(from, to, windowLines, overlap).map(([s, e]) => ({ start: s, end: e, kind: gapKind })));
  };
  for (const d of own) {
    if (d.startLine < cursor) continue; // nested in something already taken (defensive; top-level ones do not overlap)
    addGap(cursor, d.startLine - 1);
    const kind = d.kind as ChunkKind;
    const parts =
      d.endLine - d.startLine + 1 > maxLines
        ? windows(d.startLine, d.endLine, maxLines, overlap)
        : [[d.startLine, d.endLine]];
    for (const [s, e] of parts) spans.push({ start: s, end: e, kind, symbol: d.name });
    cursor = d.endLine + 1;
  }
  addGap(cursor, lines.length);

  return spans.map(({ start, end, kind, symbol }) => ({
    id: chunkId(input.repo, input.commit, input.path, start, end),
    repo: input.repo,
    commit: input.commit,
    path: input.path,
    blobId,
    startLine: start,
    endLine: end,
    ...(symbol ? { symbol } : {}),
    kind,
    text: lines.slice(start - 1, end).join('\n'),
  }));
}

/** [start, end] windows of `size` lines over from..to (1-based, inclusive), consecutive ones sharing `overlap`. */
function windows(from: number, to: number, size: number, overlap: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let s = from; ; s += size - overlap) {
    const e = Math.min(to, s + size - 1);
    out.push([s, e]);
    if (e >= to) break;
  }
  return out;
}
