import fs from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { detectIsolation } from '@farm/sandbox';
import { AgentToolBox } from './agent-tools';
import { globFilter } from './search';
import { secretRedactor } from '@farm/runtime';

const KEY = 'sk-live-abcdef0123456789';
let root: string;
let outside: string;
let tools: AgentToolBox;
let base: string;

async function write(rel: string, content: string | Buffer) {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), content);
}
const run = (name: string, args: Record<string, unknown> = {}) => tools.call(name, JSON.stringify(args));

beforeEach(async () => {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-tools-'));
  root = path.join(tmp, 'repo');
  outside = path.join(tmp, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'outside the tree');
  await write('.gitignore', 'dist/\n*.log\n');
  await write('src/app.ts', "export function greet(name: string) {\n  return 'hi ' + name;\n}\n");
  await write('src/app.test.ts', "import { greet } from './app';\ntest('x', () => greet('a'));\n");
  await write('src/vendor/.gitignore', 'generated.js\n');
  await write('src/vendor/generated.js', 'x');
  await write('src/vendor/kept.js', 'y');
  await write('dist/out.js', 'built');
  await write('debug.log', 'noise');
  await write('node_modules/dep/index.js', 'dep');
  await write('.env', `OPENAI_API_KEY=${KEY}\n`);
  await write('image.png', Buffer.from([0x89, 0x50, 0, 0, 1]));
  // a checkout: the tools compare the tree with HEAD (what the checks changed is not the agent's change)
  await git.init({ fs, dir: root, defaultBranch: 'main' });
  await git.add({ fs, dir: root, filepath: '.' });
  base = await git.commit({ fs, dir: root, message: 'base', author: { name: 't', email: 't@t' } });
  tools = new AgentToolBox({
    root,
    base,
    redact: secretRedactor([KEY]),
    checks: [{ name: 'test', run: 'test -f src/app.ts && echo made > check-output.txt' }],
    checkTimeoutSeconds: 30,
    limits: { maxOutputChars: 2000, maxListEntries: 50, maxSearchResults: 5 },
  });
});
afterEach(() => rm(path.dirname(root), { recursive: true, force: true }));

describe('exploring the checkout', () => {
  test('list_files honours the .gitignore files (root and nested) and never shows .git or node_modules', async () => {
    const { output, ok } = await run('list_files');
    expect(ok).toBe(true);
    expect(output.split('\n')).toEqual([
      '.env',
      '.gitignore',
      'image.png',
      'src/app.test.ts',
      'src/app.ts',
      'src/vendor/.gitignore',
      'src/vendor/kept.js',
    ]);
    expect((await run('list_files', { path: 'src/vendor' })).output).toBe('src/vendor/.gitignore\nsrc/vendor/kept.js');
    expect((await run('list_files', { limit: 2 })).output).toMatch(
      /^\.env\n\.gitignore\n\[\.\.\. more files not listed/,
    );
  });

  test('read_file shows numbered lines of a range and refuses binary files', async () => {
    expect((await run('read_file', { path: 'src/app.ts', start_line: 2, end_line: 3 })).output).toBe(
      "2|   return 'hi ' + name;\n3| }",
    );
    expect((await run('read_file', { path: 'image.png' })).output).toBe('ERROR: read_file: image.png is a binary file');
    expect((await run('read_file', { path: 'src/missing.ts' })).output).toBe(
      'ERROR: read_file: src/missing.ts does not exist',
    );
  });

  test('a long file is cut at a line end with the line to continue from, within the output bound', async () => {
    await write('big.txt', Array.from({ length: 500 }, (_, i) => `line ${i + 1} ${'x'.repeat(20)}`).join('\n'));
    const { output } = await run('read_file', { path: 'big.txt' });
    expect(output.length).toBeLessThanOrEqual(2000);
    expect(output).toMatch(/\[\.\.\. lines (\d+)-500 not shown: call read_file with start_line=\1 \.\.\.\]$/);
  });

  test('search answers path:line: text, bounded, filtered by glob; a bad pattern is a clear error', async () => {
    expect((await run('search', { pattern: 'greet', glob: '*.test.ts' })).output).toBe(
      "src/app.test.ts:1: import { greet } from './app';\nsrc/app.test.ts:2: test('x', () => greet('a'));",
    );
    for (let i = 0; i < 8; i++) await write(`many/f${i}.txt`, 'needle');
    expect((await run('search', { pattern: 'needle' })).output).toMatch(
      /(many\/f\d\.txt:1: needle\n){5}\[\.\.\. more matches/,
    );
    expect((await run('search', { pattern: '(' })).output).toMatch(/^ERROR: search: invalid regular expression/);
  });

  test('search and find_symbol read only text files within the read limit; read_file says why it will not', async () => {
    const small = new AgentToolBox({
      root,
      base,
      redact: (t) => t,
      checks: [],
      checkTimeoutSeconds: 30,
      limits: { maxReadBytes: 100 },
    });
    await write('blob.bin', Buffer.concat([Buffer.from('const needle = 1;\n'), Buffer.from([0])]));
    await write('big.ts', `const needle = 2;\n${'x'.repeat(200)}\n`);
    await write('small.ts', 'const needle = 3;\n');
    expect((await small.call('search', JSON.stringify({ pattern: 'needle' }))).output).toBe(
      'small.ts:1: const needle = 3;',
    );
    expect((await small.call('find_symbol', JSON.stringify({ name: 'needle' }))).output).toBe(
      'DEFINITIONS:\nsmall.ts:1-1: variable needle\n\nno references outside the definitions',
    );
    expect((await small.call('read_file', JSON.stringify({ path: 'big.ts' }))).output).toBe(
      'ERROR: read_file: big.ts is 219 bytes, more than the 100 a tool reads',
    );
    expect((await small.call('read_file', JSON.stringify({ path: 'src' }))).output).toBe(
      'ERROR: read_file: src is a directory; use list_files',
    );
  });

  test('find_symbol gives the definition with its lines and the references', async () => {
    const { output } = await run('find_symbol', { name: 'greet' });
    expect(output).toBe(
      "DEFINITIONS:\nsrc/app.ts:1-3: function greet\n\nREFERENCES:\nsrc/app.test.ts:1: import { greet } from './app';\nsrc/app.test.ts:2: test('x', () => greet('a'));",
    );
  });
});

describe('changing the checkout', () => {
  test('edit_file finds drifted text in tiers, re-indents, says which tier matched, and names the nearest text', async () => {
    const drifted = await run('edit_file', {
      path: 'src/app.ts',
      old_text: "return 'hi ' + name;   \n}",
      new_text: "if (!name) return 'nobody';\nreturn 'hi ' + name;\n}",
    });
    expect(drifted).toMatchObject({ ok: true, match: 'indentation', changed: ['src/app.ts'] });
    expect(drifted.output).toBe(
      "edited src/app.ts: 1 replacement(s), first at line 2 (old_text matched ignoring indentation (new_text re-indented to the file's))",
    );
    expect(await readFile(path.join(root, 'src/app.ts'), 'utf8')).toBe(
      "export function greet(name: string) {\n  if (!name) return 'nobody';\n  return 'hi ' + name;\n}\n",
    );
    const near = await run('edit_file', {
      path: 'src/app.ts',
      old_text: "  if (!name) return 'nobody!';",
      new_text: 'x',
    });
    expect(near.ok).toBe(false);
    expect(near.output).toContain('at line 2 (');
    expect(near.output).toContain("    2|   if (!name) return 'nobody';");
  });

  test('edit_file replaces exact text once, and says why when the text is missing or not unique', async () => {
    expect((await run('edit_file', { path: 'src/app.ts', old_text: "'hi '", new_text: "'hello '" })).output).toBe(
      'edited src/app.ts: 1 replacement(s), first at line 2',
    );
    expect(await readFile(path.join(root, 'src/app.ts'), 'utf8')).toContain("'hello ' + name");
    expect((await run('edit_file', { path: 'src/app.ts', old_text: "'hi '", new_text: 'x' })).output).toMatch(
      /^ERROR: edit_file: old_text was not found in src\/app\.ts; read the file again/,
    );
    expect((await run('edit_file', { path: 'src/app.ts', old_text: 'name', new_text: 'who' })).output).toBe(
      'ERROR: edit_file: old_text occurs 2 times in src/app.ts (lines 1, 2); add surrounding lines to make it unique, or set replace_all',
    );
    expect(
      (await run('edit_file', { path: 'src/app.ts', old_text: 'name', new_text: 'who', replace_all: true })).ok,
    ).toBe(true);
    expect(await readFile(path.join(root, 'src/app.ts'), 'utf8')).toBe(
      "export function greet(who: string) {\n  return 'hello ' + who;\n}\n",
    );
  });

  test('edit_file writes nothing when the drifted lines leave the new lines’ depth unknown, and says what to send', async () => {
    const before = await readFile(path.join(root, 'src/app.ts'), 'utf8');
    const refused = await run('edit_file', {
      path: 'src/app.ts',
      old_text: "    export function greet(name: string) {\n return 'hi ' + name;",
      new_text: "    export function greet(name: string) {\n if (!name) return '';\n return 'hi ' + name;",
    });
    expect(refused).toMatchObject({ ok: false });
    expect(refused.output).toBe(
      "ERROR: edit_file: old_text matches src/app.ts at lines 1-2 ignoring indentation (new_text re-indented to the file's), " +
        "but its lines are indented unlike the file's by different amounts (line 1: 4 columns more than the file, " +
        "line 2: 1 column less than the file), so the new lines' depth is unknown; nothing was written. Read lines 1-2 " +
        "again and send old_text with the file's exact indentation there, and new_text indented the same way",
    );
    expect(await readFile(path.join(root, 'src/app.ts'), 'utf8')).toBe(before);
  });

  test('create_file refuses an existing file and oversize content; delete_file removes a file', async () => {
    expect((await run('create_file', { path: 'src/new/mod.ts', content: 'export {};\n' })).changed).toEqual([
      'src/new/mod.ts',
    ]);
    expect((await run('create_file', { path: 'src/app.ts', content: '' })).output).toBe(
      'ERROR: create_file: src/app.ts already exists',
    );
    expect((await run('create_file', { path: 'huge.txt', content: 'x'.repeat(300 * 1024) })).output).toMatch(
      /would be 307200 bytes, more than the 262144 allowed/,
    );
    expect((await run('delete_file', { path: 'src/new/mod.ts' })).output).toBe('deleted src/new/mod.ts');
  });

  test('the model is given, for each tool, the JSON schema derived from the zod schema that checks its arguments', () => {
    const text = (description: string, more: Record<string, unknown> = {}) => ({
      type: 'string',
      ...more,
      description,
    });
    const count = (description: string) => ({ type: 'integer', exclusiveMinimum: 0, description });
    const flag = (description: string) => ({ type: 'boolean', description });
    const object = (properties: Record<string, unknown>, required?: string[]) => ({
      type: 'object',
      properties,
      ...(required && { required }),
      additionalProperties: false,
    });
    const file = text('file relative to the repository root');
    expect(Object.fromEntries(tools.specs.map((s) => [s.name, s.parameters]))).toEqual({
      list_files: object({
        path: text('directory relative to the repository root (default: the root)'),
        limit: count('most entries'),
      }),
      read_file: object(
        {
          path: file,
          start_line: count('first line to show (1-based, default 1)'),
          end_line: count('last line to show (inclusive, default: as many as fit)'),
        },
        ['path'],
      ),
      search: object(
        {
          pattern: text('regular expression', { minLength: 1 }),
          path: text('directory or file to search in (default: the whole repository)'),
          glob: text('only files whose path matches this glob, e.g. *.py or src/**/*.ts'),
          ignore_case: flag('case-insensitive'),
        },
        ['pattern'],
      ),
      find_symbol: object(
        { name: text('the symbol name, e.g. multiply or Client', { pattern: '^[A-Za-z_$][\\w$]*$' }) },
        ['name'],
      ),
      edit_file: object(
        {
          path: file,
          old_text: text('the exact current text, including indentation', { minLength: 1 }),
          new_text: text('the text to put in its place'),
          replace_all: flag('replace every occurrence'),
        },
        ['path', 'old_text', 'new_text'],
      ),
      create_file: object({ path: text('new file relative to the repository root'), content: text('its content') }, [
        'path',
        'content',
      ]),
      delete_file: object({ path: file }, ['path']),
      run_checks: object({}),
      run_command: object(
        {
          command: text('a shell command line', { minLength: 1 }),
          timeout_seconds: count('timeout (default and maximum: the configured limit)'),
        },
        ['command'],
      ),
      finish: object({ summary: text('what you changed and why, in a few sentences', { minLength: 1 }) }, ['summary']),
    });
    expect(tools.specs.find((s) => s.name === 'read_file')!.description).toBe(
      'Read a text file, or a range of its lines, with line numbers.',
    );
  });

  test('bad arguments and unknown tools come back as errors the model can act on', async () => {
    expect((await tools.call('read_file', '{"path": ')).output).toMatch(
      /^ERROR: read_file: arguments are not valid JSON/,
    );
    expect((await run('read_file', { file: 'x' })).output).toMatch(
      /^ERROR: read_file: invalid arguments: path: Required/,
    );
    expect((await run('find_symbol', { name: 'a b' })).output).toBe(
      'ERROR: find_symbol: invalid arguments: name: a plain identifier',
    );
    expect((await run('list_files', { limit: 0, all: true })).output).toBe(
      "ERROR: list_files: invalid arguments: limit: Number must be greater than 0; arguments: Unrecognized key(s) in object: 'all'",
    );
    expect((await run('edit_file', { path: 'a', old_text: '', new_text: 'x' })).output).toBe(
      'ERROR: edit_file: invalid arguments: old_text: old_text must not be empty; use create_file for a new file',
    );
    expect((await run('rm_rf', {})).output).toMatch(/^ERROR: unknown tool rm_rf; the tools are list_files, read_file/);
  });
});

describe('safety rules', () => {
  test('nothing outside the tree, nothing in .git/', async () => {
    expect((await run('read_file', { path: '../outside/secret.txt' })).output).toBe(
      'ERROR: read_file: refused: ../outside/secret.txt leaves the repository (..)',
    );
    expect((await run('read_file', { path: path.join(outside, 'secret.txt') })).output).toMatch(/is an absolute path/);
    expect((await run('read_file', { path: '.git/config' })).output).toMatch(/refused: .git\/config is inside \.git\//);
    expect((await run('create_file', { path: 'sub/.GIT/hooks/pre-commit', content: 'x' })).output).toMatch(
      /inside \.git/,
    );
    expect((await run('list_files', { path: '.git' })).output).toMatch(/inside \.git/);
  });

  test('symlinks: read only when they stay inside the tree, never written through', async () => {
    await symlink(outside, path.join(root, 'out-link'));
    await symlink('src/app.ts', path.join(root, 'in-link.ts'));
    expect((await run('read_file', { path: 'out-link/secret.txt' })).output).toMatch(/is a symlink that leads outside/);
    expect((await run('read_file', { path: 'in-link.ts', end_line: 1 })).output).toBe(
      '1| export function greet(name: string) {',
    );
    expect((await run('edit_file', { path: 'in-link.ts', old_text: 'greet', new_text: 'x' })).output).toMatch(
      /refused: in-link\.ts is a symlink; the agent does not write through symlinks/,
    );
    expect((await run('create_file', { path: 'out-link/new.txt', content: 'x' })).output).toMatch(
      /out-link is a symlink/,
    );
    expect((await run('search', { pattern: 'outside the tree' })).output).toBe('no matches');
  });

  test('secret values never appear in a tool result, whichever tool shows the file', async () => {
    for (const [name, args] of [
      ['read_file', { path: '.env' }],
      ['search', { pattern: 'OPENAI' }],
      ['run_command', { command: 'cat .env' }],
    ] as const) {
      const { output } = await run(name, args);
      expect(output).toContain('OPENAI_API_KEY=[secret redacted]');
      expect(output).not.toContain(KEY);
    }
  });

  test('run_command refuses denylisted commands and reports the exit code; run_checks runs the repo checks', async () => {
    expect((await run('run_command', { command: 'sudo rm -rf /' })).output).toMatch(
      /^ERROR: run_command: command refused/,
    );
    expect((await run('run_command', { command: 'echo out; exit 3' })).output).toBe('exit code 3\nout\n');
    const checks = await run('run_checks');
    expect([checks.ok, checks.output]).toEqual([true, 'all checks passed: test']);
  });

  test('run_command cannot write outside the checkout, even when the farm runs as root', async () => {
    const id = Math.random().toString(36).slice(2);
    const targets = [`/var/tmp/outside-${id}`, `/tmp/outside-${id}`, path.join(path.dirname(root), `escaped-${id}`)];
    try {
      const { output } = await run('run_command', {
        command: `${targets.map((t) => `echo x > ${t}`).join('; ')}; echo x > ../outside/secret.txt; echo x > inside.txt`,
      });
      const isolation = await detectIsolation('none');
      expect(fs.readFileSync(path.join(root, 'inside.txt'), 'utf8')).toBe('x\n');
      if (isolation.filesystem === 'checkout-only') {
        for (const target of targets) expect(fs.existsSync(target)).toBe(false);
        expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside the tree');
        expect(output).toContain(`/var/tmp/outside-${id}: Read-only file system`);
      } else {
        expect(isolation.filesystem).toBe('unrestricted'); // this machine cannot: the sandbox says so
      }
    } finally {
      for (const target of targets) fs.rmSync(target, { force: true });
    }
  });

  test('the agent’s change is the tree’s net change without what the checks left behind', async () => {
    await run('create_file', { path: 'src/new.ts', content: 'export {};\n' });
    await run('edit_file', { path: 'src/app.ts', old_text: "'hi '", new_text: "'hey '" });
    await run('edit_file', { path: 'src/app.ts', old_text: "'hey '", new_text: "'hi '" }); // undone
    await run('run_checks');
    expect(fs.existsSync(path.join(root, 'check-output.txt'))).toBe(true);
    expect(await tools.agentChanges()).toEqual([{ path: 'src/new.ts', change: 'added' }]);
    // a file the checks made and the agent then edits is the agent's change
    await run('edit_file', { path: 'check-output.txt', old_text: 'made', new_text: 'kept' });
    expect((await tools.agentChanges()).map((c) => c.path)).toEqual(['check-output.txt', 'src/new.ts']);
  });
});

test('globs: * within a segment, ** across, braces for alternatives; without a slash, the file name', () => {
  expect(globFilter('*.py')('calc.py')).toBe(true);
  expect(globFilter('*.py')('src/calc.py')).toBe(true);
  expect(globFilter('src/**/*.ts')('src/a/b/c.ts')).toBe(true);
  expect(globFilter('src/**/*.ts')('src/c.ts')).toBe(true);
  expect(globFilter('src/*.ts')('src/a/c.ts')).toBe(false);
  expect(globFilter('*.{js,ts}')('x.ts')).toBe(true);
  expect(globFilter('*.ts')('src/.eslintrc.ts')).toBe(true);
  expect(globFilter('src/*.ts')('lib/src/a.ts')).toBe(false);
});
