/**
 * A small parser for POSIX/bash command lines, just deep enough to see which programs a line would run and
 * with which arguments: quotes and escapes are removed the way the shell removes them, `;` `&&` `||` `|`
 * `&` and newlines split commands, `( ... )` groups, `$( ... )`, backticks and `<( ... )` are parsed as
 * nested scripts, redirections and here-documents are kept apart from the arguments. Expansions (`$VAR`,
 * globs) are left as written: the denylist judges what it can see and says so where that matters.
 */

/** A word after quote removal. Substitutions stay in `text` as written (so `bash -c "$(x)"` can be
 * re-parsed) and are also parsed into `subs`, because they run whatever command uses the word. */
export interface Word {
  text: string;
  subs: Script[];
}

export interface Redirect {
  op: string;
  target: Word;
}

export interface SimpleCommand {
  kind: 'simple';
  words: Word[];
  redirects: Redirect[];
  /** What the command reads as standard input when the line says so: a here-document or here-string. */
  stdin?: string;
}

export interface Group {
  kind: 'group';
  script: Script;
}

export type Segment = SimpleCommand | Group;
/** Commands joined by `|`: each segment's output feeds the next. */
export type Pipeline = Segment[];
export type Script = Pipeline[];

export class ShellSyntaxError extends Error {}

const OPERATORS = ['&>>', ';;&', ';;', ';&', '&&', '||', '|&', '&>', ';', '&', '|'];
const REDIRECT = /^(\d*)(<<<|<<-|<<|>>|<>|>&|<&|>\||<|>)/;
const MAX_NESTING = 64;

export function parseShell(source: string): Script {
  return new Parser(source).parseScript();
}

class Parser {
  private i = 0;
  private nesting = 0;
  private pendingHeredocs: { delimiter: string; stripTabs: boolean; command: SimpleCommand }[] = [];

  constructor(private readonly s: string) {}

  parseScript(close?: ')'): Script {
    if (++this.nesting > MAX_NESTING) throw new ShellSyntaxError('nested too deeply');
    const script: Script = [];
    let pipeline: Pipeline = [];
    let cmd: SimpleCommand | undefined;
    const current = () => (cmd ??= { kind: 'simple', words: [], redirects: [] });
    const endCommand = () => {
      if (cmd && (cmd.words.length || cmd.redirects.length)) pipeline.push(cmd);
      cmd = undefined;
    };
    const endPipeline = () => {
      endCommand();
      if (pipeline.length) script.push(pipeline);
      pipeline = [];
    };
    for (;;) {
      this.skipBlanks();
      const c = this.s[this.i];
      if (c === undefined) {
        if (close) throw new ShellSyntaxError(`missing "${close}"`);
        endPipeline();
        this.nesting--;
        return script;
      }
      if (c === ')') {
        this.i++;
        endPipeline();
        if (close) {
          this.nesting--;
          return script;
        }
        continue; // a `case` pattern's `)`: acts as a separator, the commands after it still count
      }
      if (c === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      if (c === '\n') {
        this.i++;
        this.readHeredocBodies();
        endPipeline();
        continue;
      }
      if (c === ';' || c === '&' || c === '|') {
        const op = OPERATORS.find((o) => this.s.startsWith(o, this.i))!;
        this.i += op.length;
        if (op === '&>' || op === '&>>') current().redirects.push({ op, target: this.readTarget() });
        else if (op === '|' || op === '|&') endCommand();
        else endPipeline();
        continue;
      }
      if (c === '(') {
        this.i++;
        if (cmd?.words.length) {
          // `name() { ...; }` defines a function: the body is parsed (and judged) like any other commands
          this.skipBlanks();
          if (this.s[this.i] !== ')') throw new ShellSyntaxError('unexpected "("');
          this.i++;
          endPipeline();
          continue;
        }
        endCommand();
        pipeline.push({ kind: 'group', script: this.parseScript(')') });
        continue;
      }
      const redirect = (c === '<' || c === '>' || /\d/.test(c)) && this.s[this.i + 1] !== '(' && this.tryRedirect();
      if (redirect) {
        const command = current();
        command.redirects.push(redirect);
        if (redirect.op === '<<<') command.stdin = redirect.target.text;
        else if (redirect.op.startsWith('<<')) {
          this.pendingHeredocs.push({ delimiter: redirect.target.text, stripTabs: redirect.op === '<<-', command });
        }
        continue;
      }
      current().words.push(this.readWord());
    }
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\\' && this.s[this.i + 1] === '\n') this.i += 2;
      else return;
    }
  }

  private tryRedirect(): Redirect | undefined {
    const m = REDIRECT.exec(this.s.slice(this.i, this.i + 12));
    if (!m) return undefined;
    this.i += m[0].length;
    return { op: m[2], target: this.readTarget() };
  }

  private readTarget(): Word {
    this.skipBlanks();
    const word = this.readWord();
    if (!word.text && !word.subs.length) throw new ShellSyntaxError('redirection without a target');
    return word;
  }

  private readHeredocBodies(): void {
    for (const { delimiter, stripTabs, command } of this.pendingHeredocs) {
      const lines: string[] = [];
      for (;;) {
        if (this.i >= this.s.length) break; // unterminated: bash warns and takes the rest as the body
        let end = this.s.indexOf('\n', this.i);
        if (end < 0) end = this.s.length;
        let line = this.s.slice(this.i, end);
        this.i = Math.min(end + 1, this.s.length);
        if (stripTabs) line = line.replace(/^\t+/, '');
        if (line === delimiter) break;
        lines.push(line);
      }
      command.stdin = lines.join('\n');
    }
    this.pendingHeredocs = [];
  }

  private readWord(): Word {
    const word: Word = { text: '', subs: [] };
    const start = this.i;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
      if ((c === '<' || c === '>') && this.s[this.i + 1] === '(') {
        this.i += 2;
        const from = this.i;
        word.subs.push(this.parseScript(')'));
        word.text += `${c}(${this.s.slice(from, this.i)}`;
        continue;
      }
      if (';&|()<>'.includes(c)) break;
      if (c === '\\') {
        if (this.s[this.i + 1] !== '\n') word.text += this.s[this.i + 1] ?? '';
        this.i += 2;
      } else if (c === "'") {
        const end = this.s.indexOf("'", this.i + 1);
        if (end < 0) throw new ShellSyntaxError('unterminated single quote');
        word.text += this.s.slice(this.i + 1, end);
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        word.text += this.readDoubleQuoted(word);
      } else if (c === '$') {
        word.text += this.readDollar(word, false);
      } else if (c === '`') {
        word.text += this.readBacktick(word);
      } else {
        word.text += c;
        this.i++;
      }
    }
    if (this.i === start) throw new ShellSyntaxError(`unexpected "${this.s[this.i]}"`);
    return word;
  }

  private readDoubleQuoted(word: Word): string {
    let text = '';
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) throw new ShellSyntaxError('unterminated double quote');
      if (c === '"') {
        this.i++;
        return text;
      }
      if (c === '\\') {
        const next = this.s[this.i + 1] ?? '';
        if ('$`"\\'.includes(next)) text += next;
        else if (next !== '\n') text += c + next;
        this.i += 2;
      } else if (c === '$') {
        text += this.readDollar(word, true);
      } else if (c === '`') {
        text += this.readBacktick(word);
      } else {
        text += c;
        this.i++;
      }
    }
  }

  /** At a `$`: command substitution (parsed), arithmetic and `${...}` (kept as written), `$'...'`. */
  private readDollar(word: Word, quoted: boolean): string {
    const start = this.i;
    const next = this.s[this.i + 1];
    if (next === '(' && this.s[this.i + 2] === '(') {
      this.skipBalanced('(', ')', this.i + 1);
      return this.s.slice(start, this.i);
    }
    if (next === '(') {
      this.i += 2;
      word.subs.push(this.parseScript(')'));
      return this.s.slice(start, this.i);
    }
    if (next === '{') {
      this.readParameterExpansion(word);
      return this.s.slice(start, this.i);
    }
    if (next === "'" && !quoted) return this.readAnsiC();
    this.i++;
    return '$';
  }

  /** `${X:-$(cmd)}`: kept as written, but substitutions inside still run and are parsed. */
  private readParameterExpansion(word: Word): void {
    for (this.i += 2; ;) {
      const c = this.s[this.i];
      if (c === undefined) throw new ShellSyntaxError('missing "}"');
      if (c === '}') {
        this.i++;
        return;
      }
      if (c === '$') this.readDollar(word, true);
      else if (c === '`') this.readBacktick(word);
      else if (c === '"') {
        this.i++;
        this.readDoubleQuoted(word);
      } else if (c === "'") {
        const end = this.s.indexOf("'", this.i + 1);
        if (end < 0) throw new ShellSyntaxError('unterminated single quote');
        this.i = end + 1;
      } else this.i += c === '\\' ? 2 : 1;
    }
  }

  private skipBalanced(open: string, close: string, from: number): void {
    let depth = 0;
    for (this.i = from; this.i < this.s.length; this.i++) {
      if (this.s[this.i] === open) depth++;
      else if (this.s[this.i] === close && --depth === 0) {
        this.i++;
        return;
      }
    }
    throw new ShellSyntaxError(`missing "${close}"`);
  }

  private readBacktick(word: Word): string {
    let raw = '';
    for (this.i++; ; this.i++) {
      const c = this.s[this.i];
      if (c === undefined) throw new ShellSyntaxError('unterminated backquote');
      if (c === '`') break;
      if (c === '\\' && '`$\\'.includes(this.s[this.i + 1] ?? '')) raw += this.s[++this.i];
      else raw += c;
    }
    this.i++;
    const inner = new Parser(raw);
    inner.nesting = this.nesting;
    word.subs.push(inner.parseScript());
    return `\`${raw}\``;
  }

  /** `$'...'` decodes escapes, which is how `$'\x72m'` spells `rm`. */
  private readAnsiC(): string {
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b' };
    let text = '';
    for (this.i += 2; ;) {
      const c = this.s[this.i];
      if (c === undefined) throw new ShellSyntaxError("unterminated $'");
      if (c === "'") {
        this.i++;
        return text;
      }
      if (c !== '\\') {
        text += c;
        this.i++;
        continue;
      }
      const rest = this.s.slice(this.i + 1);
      const m = /^(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4})/.exec(rest);
      if (m) {
        const code = m[1][0] === 'x' || m[1][0] === 'u' ? parseInt(m[1].slice(1), 16) : parseInt(m[1], 8);
        text += String.fromCharCode(code);
        this.i += 1 + m[1].length;
      } else {
        text += simple[rest[0]] ?? rest[0] ?? '';
        this.i += 2;
      }
    }
  }
}
