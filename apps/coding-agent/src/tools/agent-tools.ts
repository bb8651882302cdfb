import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { extractSymbols, languageOf } from '@farm/rag';
import { errorMessage, silentLogger, z, type Logger } from '@farm/runtime';
import {
  CommandDenied,
  describeFailure,
  headAndTail,
  runChecks,
  runSandboxed,
  type CheckCeilings,
  type CheckStep,
  type ChecksResult,
} from '@farm/sandbox';
import { describeIssues, toolSpec, type ToolSpec } from '@farm/llm';
import { listTreeFiles } from './list-tree-files';
import type { Redactor } from './redact-secrets';
import { ToolFailed } from './tool-errors';
import { readablePath, writablePath } from './tree-paths';
import { netChanges, type TreeChange } from './tree-diff';

export interface ToolLimits {
  /** Characters of one tool result the model sees (the rest is cut, saying how to get it). */
  maxOutputChars: number;
  /** Files larger than this are not read or searched. */
  maxReadBytes: number;
  /** Largest file an edit or create may leave. */
  maxWriteBytes: number;
  maxListEntries: number;
  maxSearchResults: number;
  /** Default and upper bound of run_command's timeout. */
  commandTimeoutSeconds: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  maxOutputChars: 8_000,
  maxReadBytes: 1024 * 1024,
  maxWriteBytes: 256 * 1024,
  maxListEntries: 400,
  maxSearchResults: 60,
  commandTimeoutSeconds: 120,
};

export interface ToolBoxOptions {
  /** The task's checkout. */
  root: string;
  redact: Redactor;
  /** The repository's checks (the same steps the diff strategy runs). */
  checks: CheckStep[];
  /** The default and the most a check step may ask for. */
  checkTimeoutSeconds: number;
  /** The operator's other limits on checks, also run_command's memory and processes. */
  checkCeilings?: Partial<Omit<CheckCeilings, 'timeoutSeconds'>>;
  /** Extra environment for checks and commands; the sandbox still drops secrets. */
  env?: Record<string, string>;
  /** Directories besides the checkout that checks and commands may write (a shared package cache). */
  writableDirs?: string[];
  limits?: Partial<ToolLimits>;
  log?: Logger;
}

/** What one tool call gave: the text for the model, and what the loop needs to know about it. */
export interface ToolOutcome {
  output: string;
  ok: boolean;
  /** Set by the finish tool: the loop verifies and reviews before accepting. */
  finish?: { summary: string };
  /** Set by run_checks. */
  checks?: ChecksResult;
  /** Paths the call changed (edit, create, delete). */
  changed?: string[];
}

interface ToolDefinition<A> {
  spec: ToolSpec;
  args: z.ZodType<A>;
  run(args: A): Promise<Omit<ToolOutcome, 'ok'> & { ok?: boolean }>;
}

/** A tool's arguments are declared once: the schema that validates them gives the model its JSON schema. */
function withSpec<S extends z.ZodTypeAny>(name: string, description: string, args: S) {
  return { spec: toolSpec(name, description, args), args };
}

/**
 * The coding agent's tools over one checkout. Every path goes through the tree's safety rules (inside the
 * work tree, not in .git/, no writes through symlinks), every result is bounded and has secrets redacted,
 * and a tool that cannot do what was asked says why instead of throwing, so the model can correct itself.
 */
export class AgentToolBox {
  readonly limits: ToolLimits;
  private readonly log: Logger;
  private readonly tools: Map<string, ToolDefinition<unknown>>;
  /** Files the checks created or changed (an install's lock file, a build's output) that no tool touched since. */
  private readonly checkArtifacts = new Set<string>();

  constructor(private readonly opts: ToolBoxOptions) {
    this.limits = { ...DEFAULT_TOOL_LIMITS, ...opts.limits };
    this.log = opts.log ?? silentLogger;
    const defs: ToolDefinition<never>[] = [
      this.listFiles(),
      this.readFile(),
      this.search(),
      this.findSymbol(),
      this.editFile(),
      this.createFile(),
      this.deleteFile(),
      this.runChecksTool(),
      this.runCommand(),
      this.finish(),
    ] as ToolDefinition<never>[];
    this.tools = new Map(defs.map((d) => [d.spec.name, d as ToolDefinition<unknown>]));
  }

  get specs(): ToolSpec[] {
    return [...this.tools.values()].map((t) => t.spec);
  }

  /** Runs one tool call from the model; never throws for the model's mistakes. */
  async call(name: string, rawArguments: string): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    if (!tool) return this.failure(`unknown tool ${name}; the tools are ${[...this.tools.keys()].join(', ')}`);
    let parsed: unknown;
    try {
      parsed = rawArguments.trim() ? JSON.parse(rawArguments) : {};
    } catch (err) {
      return this.failure(`${name}: arguments are not valid JSON (${errorMessage(err)})`);
    }
    const args = tool.args.safeParse(parsed);
    if (!args.success) {
      return this.failure(`${name}: invalid arguments: ${describeIssues(args.error, 'arguments')}`);
    }
    try {
      const outcome = await tool.run(args.data);
      for (const p of outcome.changed ?? []) this.checkArtifacts.delete(p);
      return { ...outcome, ok: outcome.ok ?? true, output: this.bound(outcome.output) };
    } catch (err) {
      if (err instanceof ToolFailed) return this.failure(`${name}: ${err.message}`);
      if (err instanceof CommandDenied) return this.failure(`${name}: ${err.message}`);
      this.log.warn('tool crashed', { tool: name, err });
      return this.failure(`${name} failed: ${errorMessage(err)}`);
    }
  }

  private failure(message: string): ToolOutcome {
    return { ok: false, output: this.bound(`ERROR: ${message}`) };
  }

  /** Redacted, then cut to the output limit (start and end kept: the end usually explains a failure). */
  private bound(text: string): string {
    return headAndTail(this.opts.redact(text), this.limits.maxOutputChars);
  }

  private listFiles(): ToolDefinition<{ path?: string; limit?: number }> {
    return {
      ...withSpec(
        'list_files',
        'List the files of the repository (or of one directory), honouring .gitignore; node_modules and .git are never listed.',
        z
          .object({
            path: z.string().optional().describe('directory relative to the repository root (default: the root)'),
            limit: z.number().int().positive().optional().describe('most entries'),
          })
          .strict(),
      ),
      run: async ({ path: dir, limit }) => {
        const start = dir ? await readablePath(this.opts.root, 'list_files', dir) : { rel: '' };
        if (start.rel && !(await stat(path.join(this.opts.root, start.rel))).isDirectory())
          throw new ToolFailed('list_files', `${start.rel} is a file, not a directory`);
        const max = Math.min(limit ?? this.limits.maxListEntries, this.limits.maxListEntries);
        const { entries, truncated } = await listTreeFiles(this.opts.root, { dir: start.rel, limit: max });
        const lines = entries.map((e) => (e.symlink ? `${e.path} (symlink)` : e.path));
        if (truncated) lines.push(`[... more files not listed: give a directory in "path" to see them ...]`);
        return { output: lines.length ? lines.join('\n') : '(no files)' };
      },
    };
  }

  private async readText(tool: string, given: string): Promise<{ rel: string; text: string }> {
    const { rel, abs } = await readablePath(this.opts.root, tool, given);
    const info = await stat(abs);
    if (info.isDirectory()) throw new ToolFailed(tool, `${rel} is a directory; use list_files`);
    if (info.size > this.limits.maxReadBytes)
      throw new ToolFailed(
        tool,
        `${rel} is ${info.size} bytes, more than the ${this.limits.maxReadBytes} a tool reads`,
      );
    const bytes = await readFile(abs);
    if (bytes.includes(0)) throw new ToolFailed(tool, `${rel} is a binary file`);
    return { rel, text: bytes.toString('utf8') };
  }

  private readFile(): ToolDefinition<{ path: string; start_line?: number; end_line?: number }> {
    return {
      ...withSpec(
        'read_file',
        'Read a text file, or a range of its lines, with line numbers.',
        z
          .object({
            path: z.string().describe('file relative to the repository root'),
            start_line: z.number().int().positive().optional().describe('first line to show (1-based, default 1)'),
            end_line: z
              .number()
              .int()
              .positive()
              .optional()
              .describe('last line to show (inclusive, default: as many as fit)'),
          })
          .strict(),
      ),
      run: async ({ path: file, start_line, end_line }) => {
        const { text } = await this.readText('read_file', file);
        const lines = text.split('\n');
        if (lines.at(-1) === '') lines.pop();
        const from = Math.max(1, start_line ?? 1);
        const to = Math.min(lines.length, end_line ?? lines.length);
        if (lines.length === 0) return { output: '(empty file)' };
        if (from > lines.length) throw new ToolFailed('read_file', `the file has ${lines.length} lines`);
        const width = String(to).length;
        const out: string[] = [];
        let used = 0;
        // Room for the note below, so the cut is ours (at a line end) and not the output bound's.
        const budget = this.limits.maxOutputChars - 200;
        for (let n = from; n <= to; n++) {
          const line = `${String(n).padStart(width)}| ${lines[n - 1]}`;
          if (used + line.length + 1 > budget) {
            out.push(`[... lines ${n}-${to} not shown: call read_file with start_line=${n} ...]`);
            break;
          }
          out.push(line);
          used += line.length + 1;
        }
        return { output: out.join('\n') };
      },
    };
  }

  private search(): ToolDefinition<{ pattern: string; path?: string; glob?: string; ignore_case?: boolean }> {
    return {
      ...withSpec(
        'search',
        'Search the repository for a regular expression (JavaScript syntax); answers path:line: text, a bounded number of matches.',
        z
          .object({
            pattern: z.string().min(1).describe('regular expression'),
            path: z.string().optional().describe('directory or file to search in (default: the whole repository)'),
            glob: z.string().optional().describe('only files whose path matches this glob, e.g. *.py or src/**/*.ts'),
            ignore_case: z.boolean().optional().describe('case-insensitive'),
          })
          .strict(),
      ),
      run: async ({ pattern, path: where, glob, ignore_case }) => {
        let re: RegExp;
        try {
          re = new RegExp(pattern, ignore_case ? 'i' : '');
        } catch (err) {
          throw new ToolFailed('search', `invalid regular expression: ${errorMessage(err)}`);
        }
        const matches = await this.grep(re, { where, glob });
        return {
          output: matches.lines.length
            ? matches.lines.join('\n') +
              (matches.truncated ? `\n[... more matches not shown: narrow the pattern, path or glob ...]` : '')
            : 'no matches',
        };
      },
    };
  }

  /** Lines matching `re` in the tree's text files, with paths and line numbers, bounded. */
  private async grep(
    re: RegExp,
    opts: { where?: string; glob?: string },
  ): Promise<{ lines: string[]; truncated: boolean }> {
    const start = opts.where ? await readablePath(this.opts.root, 'search', opts.where) : { rel: '' };
    const isFile = start.rel && (await stat(path.join(this.opts.root, start.rel))).isFile();
    const files = isFile
      ? [start.rel]
      : (await listTreeFiles(this.opts.root, { dir: start.rel, limit: 20_000 })).entries
          .filter((e) => !e.symlink)
          .map((e) => e.path);
    const globRe = opts.glob ? globToRegExp(opts.glob) : undefined;
    const anyLine = new RegExp(re.source, re.flags.includes('m') ? re.flags : `${re.flags}m`);
    const lines: string[] = [];
    for (const file of files) {
      if (globRe && !globRe.test(opts.glob!.includes('/') ? file : path.posix.basename(file))) continue;
      const abs = path.join(this.opts.root, file);
      const info = await stat(abs).catch(() => undefined);
      if (!info?.isFile() || info.size > this.limits.maxReadBytes) continue;
      const bytes = await readFile(abs);
      if (bytes.includes(0)) continue;
      const whole = bytes.toString('utf8');
      // A line matches only if the text matches in multiline mode: most files are ruled out in one test.
      if (!anyLine.test(whole)) continue;
      const text = whole.split('\n');
      for (let i = 0; i < text.length; i++) {
        if (!re.test(text[i])) continue;
        if (lines.length >= this.limits.maxSearchResults) return { lines, truncated: true };
        lines.push(`${file}:${i + 1}: ${clipLine(text[i])}`);
      }
    }
    return { lines, truncated: false };
  }

  private findSymbol(): ToolDefinition<{ name: string }> {
    return {
      ...withSpec(
        'find_symbol',
        'Find where a function, class, method, type or variable is defined (TypeScript/JavaScript and Python) and the lines that refer to it.',
        z
          .object({
            name: z
              .string()
              .regex(/^[A-Za-z_$][\w$]*$/, 'a plain identifier')
              .describe('the symbol name, e.g. multiply or Client'),
          })
          .strict(),
      ),
      run: async ({ name }) => {
        const { entries } = await listTreeFiles(this.opts.root, { limit: 20_000 });
        const definitions: string[] = [];
        const references: string[] = [];
        let truncated = false;
        const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
        // One read per file; a file that does not contain the name neither defines nor uses it.
        for (const e of entries) {
          if (e.symlink) continue;
          const abs = path.join(this.opts.root, e.path);
          const info = await stat(abs).catch(() => undefined);
          if (!info?.isFile() || info.size > this.limits.maxReadBytes) continue;
          const bytes = await readFile(abs);
          if (bytes.includes(0)) continue;
          const text = bytes.toString('utf8');
          if (!text.includes(name)) continue;
          const defLines = new Set<number>();
          if (languageOf(e.path) !== 'other') {
            for (const def of extractSymbols(e.path, text)) {
              if (def.name !== name) continue;
              const owner = def.container ? ` in ${def.container}` : '';
              definitions.push(`${e.path}:${def.startLine}-${def.endLine}: ${def.kind} ${def.name}${owner}`);
              for (let l = def.startLine; l <= def.endLine; l++) defLines.add(l);
            }
          }
          const lines = text.split('\n');
          for (let i = 0; i < lines.length && !truncated; i++) {
            if (defLines.has(i + 1) || !word.test(lines[i])) continue;
            if (references.length >= this.limits.maxSearchResults) truncated = true;
            else references.push(`${e.path}:${i + 1}: ${clipLine(lines[i])}`);
          }
        }
        const parts = [
          definitions.length ? `DEFINITIONS:\n${definitions.join('\n')}` : `no definition of ${name} found`,
          references.length
            ? `REFERENCES:\n${references.join('\n')}${truncated ? '\n[... more references not shown ...]' : ''}`
            : 'no references outside the definitions',
        ];
        return { output: parts.join('\n\n') };
      },
    };
  }

  private async writeChecked(tool: string, abs: string, rel: string, content: string): Promise<void> {
    const size = Buffer.byteLength(content, 'utf8');
    if (size > this.limits.maxWriteBytes)
      throw new ToolFailed(tool, `${rel} would be ${size} bytes, more than the ${this.limits.maxWriteBytes} allowed`);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }

  private editFile(): ToolDefinition<{ path: string; old_text: string; new_text: string; replace_all?: boolean }> {
    return {
      ...withSpec(
        'edit_file',
        'Replace exact text in a file. old_text must occur exactly once (include enough surrounding lines to make it unique) unless replace_all is true.',
        z
          .object({
            path: z.string().describe('file relative to the repository root'),
            old_text: z
              .string()
              .min(1, 'old_text must not be empty; use create_file for a new file')
              .describe('the exact current text, including indentation'),
            new_text: z.string().describe('the text to put in its place'),
            replace_all: z.boolean().optional().describe('replace every occurrence'),
          })
          .strict(),
      ),
      run: async ({ path: file, old_text, new_text, replace_all }) => {
        const { rel, abs } = await writablePath(this.opts.root, 'edit_file', file);
        const { text } = await this.readText('edit_file', rel);
        const at = occurrences(text, old_text);
        if (at.length === 0) {
          throw new ToolFailed(
            'edit_file',
            `old_text was not found in ${rel}; read the file again and copy the current text exactly (whitespace included)`,
          );
        }
        if (at.length > 1 && !replace_all) {
          const lineNos = at.map((i) => text.slice(0, i).split('\n').length);
          throw new ToolFailed(
            'edit_file',
            `old_text occurs ${at.length} times in ${rel} (lines ${lineNos.join(', ')}); add surrounding lines to make it unique, or set replace_all`,
          );
        }
        const updated = replace_all ? text.split(old_text).join(new_text) : text.replace(old_text, () => new_text);
        await this.writeChecked('edit_file', abs, rel, updated);
        const line = text.slice(0, at[0]).split('\n').length;
        return { output: `edited ${rel}: ${at.length} replacement(s), first at line ${line}`, changed: [rel] };
      },
    };
  }

  private createFile(): ToolDefinition<{ path: string; content: string }> {
    return {
      ...withSpec(
        'create_file',
        'Create a new file with the given content (fails if it exists: use edit_file to change a file).',
        z
          .object({
            path: z.string().describe('new file relative to the repository root'),
            content: z.string().describe('its content'),
          })
          .strict(),
      ),
      run: async ({ path: file, content }) => {
        const { rel, abs } = await writablePath(this.opts.root, 'create_file', file);
        if (await stat(abs).catch(() => undefined)) throw new ToolFailed('create_file', `${rel} already exists`);
        await this.writeChecked('create_file', abs, rel, content);
        return { output: `created ${rel} (${content.split('\n').length} lines)`, changed: [rel] };
      },
    };
  }

  private deleteFile(): ToolDefinition<{ path: string }> {
    return {
      ...withSpec(
        'delete_file',
        'Delete a file.',
        z.object({ path: z.string().describe('file relative to the repository root') }).strict(),
      ),
      run: async ({ path: file }) => {
        const { rel, abs } = await writablePath(this.opts.root, 'delete_file', file);
        const info = await stat(abs).catch(() => undefined);
        if (!info) throw new ToolFailed('delete_file', `${rel} does not exist`);
        if (info.isDirectory()) throw new ToolFailed('delete_file', `${rel} is a directory; delete its files`);
        await rm(abs);
        return { output: `deleted ${rel}`, changed: [rel] };
      },
    };
  }

  /** Runs the repository's checks in the sandbox; used by run_checks and by the finish gate. */
  async runRepositoryChecks(): Promise<ChecksResult> {
    const before = new Set((await netChanges(this.opts.root)).map((c) => c.path));
    const result = await runChecks(this.opts.root, this.opts.checks, {
      ceilings: { ...this.opts.checkCeilings, timeoutSeconds: this.opts.checkTimeoutSeconds },
      env: this.opts.env,
      writableDirs: this.opts.writableDirs,
      log: this.log,
    });
    for (const c of await netChanges(this.opts.root)) if (!before.has(c.path)) this.checkArtifacts.add(c.path);
    return result;
  }

  /**
   * The net change of the tree against the base commit that the agent made (with its tools or commands),
   * without what the checks left behind: what is reviewed and committed.
   */
  async agentChanges(): Promise<TreeChange[]> {
    return (await netChanges(this.opts.root)).filter((c) => !this.checkArtifacts.has(c.path));
  }

  /** The check result as the model reads it: passing steps in one line, the failure with what explains it. */
  describeChecks(result: ChecksResult): string {
    if (!this.opts.checks.length) return 'this repository has no checks configured';
    if (result.ok) return `all checks passed: ${result.steps.map((s) => s.name).join(', ')}`;
    return describeFailure(result) ?? 'a check failed';
  }

  private runChecksTool(): ToolDefinition<Record<string, never>> {
    return {
      ...withSpec(
        'run_checks',
        "Run the repository's checks (format, lint, tests) in the sandbox, as they will be run before the commit.",
        z.object({}).strict(),
      ),
      run: async () => {
        const checks = await this.runRepositoryChecks();
        return { output: this.describeChecks(checks), ok: checks.ok, checks };
      },
    };
  }

  private runCommand(): ToolDefinition<{ command: string; timeout_seconds?: number }> {
    const max = () => this.limits.commandTimeoutSeconds;
    return {
      ...withSpec(
        'run_command',
        'Run a shell command in the repository root, in the sandbox: no network, a timeout, resource limits; destructive commands are refused.',
        z
          .object({
            command: z.string().min(1).describe('a shell command line'),
            timeout_seconds: z
              .number()
              .int()
              .positive()
              .optional()
              .describe('timeout (default and maximum: the configured limit)'),
          })
          .strict(),
      ),
      run: async ({ command, timeout_seconds }) => {
        const result = await runSandboxed({
          command,
          cwd: this.opts.root,
          timeoutMs: Math.min(timeout_seconds ?? max(), max()) * 1000,
          env: { PYTHONDONTWRITEBYTECODE: '1', ...this.opts.env },
          writableDirs: this.opts.writableDirs,
          network: 'none',
          limits: {
            maxOutputBytes: this.limits.maxOutputChars,
            memoryBytes: this.opts.checkCeilings?.memoryBytes,
            maxProcesses: this.opts.checkCeilings?.maxProcesses,
          },
          log: this.log,
        });
        const how = result.timedOut
          ? `timed out after ${Math.round(result.durationMs / 1000)} s`
          : result.killedBy
            ? `stopped (${result.killedBy})`
            : `exit code ${result.exitCode}`;
        return { output: `${how}\n${result.output}`, ok: result.exitCode === 0 && !result.timedOut };
      },
    };
  }

  private finish(): ToolDefinition<{ summary: string }> {
    return {
      ...withSpec(
        'finish',
        'Finish the task: the checks run on the final tree, and a reviewer reads the diff. Refused (with the reason) while checks fail.',
        z.object({ summary: z.string().min(1).describe('what you changed and why, in a few sentences') }).strict(),
      ),
      run: async ({ summary }) => ({ output: 'finishing', finish: { summary } }),
    };
  }
}

/** A matching line as a result shows it: trimmed, at most 200 characters. */
const clipLine = (line: string) => (line.length > 200 ? `${line.slice(0, 200)}…` : line).trim();

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** `*` within a path segment, `**` across segments, `?` one character; braces `{a,b}` for alternatives. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
