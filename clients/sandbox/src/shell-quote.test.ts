import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseShell } from './shell-parse';
import { shellQuote } from './shell-quote';

const HOSTILE = [
  'test/m$(touch${IFS}x).test.js',
  'a`touch x`b',
  "it's; touch x",
  '*',
  'two words',
  'line\nbreak',
  '$HOME',
  '',
];

test('a quoted word reaches the command as itself, one argument, nothing in it run or expanded', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shell-quote-'));
  try {
    for (const word of HOSTILE) {
      const printed = execFileSync('bash', ['-c', `printf '%s\\0' ${shellQuote(word)}`], { cwd: dir });
      expect(printed.toString()).toBe(`${word}\0`);
    }
    expect(readdirSync(dir)).toEqual([]); // no `touch x` ran
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('plain words stay as written; the parser the denylist uses reads a quoted word back as it was', () => {
  expect(shellQuote('tests/test_a.py')).toBe('tests/test_a.py');
  expect(shellQuote('--test-reporter=tap')).toBe('--test-reporter=tap');
  for (const word of HOSTILE.filter(Boolean)) {
    const [[command]] = parseShell(`echo ${shellQuote(word)}`);
    expect(command.kind === 'simple' && command.words.map((w) => w.text)).toEqual(['echo', word]);
  }
});

test('a NUL cannot be passed to a command at all: refused rather than cut', () => {
  expect(() => shellQuote('a\0b')).toThrow('NUL');
});
