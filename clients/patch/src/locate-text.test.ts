import { describeMiss, replaceInTiers, type LocateOutcome } from './locate-text';

const PY = `def greet(name):
    if not name:
        return "nobody"
    return "hello " + name


def part(name):
    if not name:
        return None
    return name.split()[0]
`;

function replaced(out: LocateOutcome) {
  if (out.kind !== 'replaced') throw new Error(`expected a replacement, got ${JSON.stringify(out)}`);
  return out;
}

describe('replaceInTiers', () => {
  it('replaces exact text at the exact tier, also inside a line', () => {
    const out = replaced(replaceInTiers(PY, '"hello " + name', 'f"hello {name}"'));
    expect(out.tier).toBe('exact');
    expect(out.firstLine).toBe(4);
    expect(out.text).toContain('    return f"hello {name}"\n');
  });

  it('matches lines whose trailing whitespace differs, keeping the replacement as written', () => {
    const out = replaced(
      replaceInTiers(PY, 'def part(name):   \n    if not name:  ', 'def part(name, sep=None):\n    if not name:'),
    );
    expect(out.tier).toBe('trailing-whitespace');
    expect(out.firstLine).toBe(7);
    expect(out.text).toContain('def part(name, sep=None):\n    if not name:\n        return None');
  });

  it("matches ignoring indentation and re-indents the new text to the file's indentation", () => {
    const out = replaced(
      replaceInTiers(PY, 'if not name:\n    return None\n', 'if not name:\n    raise ValueError("name")\n'),
    );
    expect(out.tier).toBe('indentation');
    expect(out.firstLine).toBe(8);
    expect(out.text).toContain('def part(name):\n    if not name:\n        raise ValueError("name")\n    return name');
  });

  it('gives tabs back to a tab-indented file when the model wrote the block with spaces, deeper lines too', () => {
    const js = 'function f(a) {\n\tif (a) {\n\t\treturn 1;\n\t}\n\treturn 0;\n}\n';
    const out = replaced(
      replaceInTiers(js, 'if (a) {\n  return 1;\n}', 'if (a) {\n  if (a > 1) {\n    return 2;\n  }\n  return 1;\n}'),
    );
    expect(out.tier).toBe('indentation');
    expect(out.text).toBe(
      'function f(a) {\n\tif (a) {\n\t\tif (a > 1) {\n\t\t\treturn 2;\n\t\t}\n\t\treturn 1;\n\t}\n\treturn 0;\n}\n',
    );
  });

  it('removes indentation the model added in excess', () => {
    const out = replaced(replaceInTiers(PY, '        def greet(name):', '        def greet(name: str):'));
    expect(out.tier).toBe('indentation');
    expect(out.text.startsWith('def greet(name: str):\n')).toBe(true);
  });

  it('matches with Unicode punctuation normalised', () => {
    const out = replaced(replaceInTiers(PY, '    return “hello ” + name', '    return "hi " + name'));
    expect(out.tier).toBe('unicode-punctuation');
    expect(out.text).toContain('    return "hi " + name\n');
  });

  it('keeps CRLF line ends in a CRLF file', () => {
    const text = 'a\r\n  b  \r\nc\r\n';
    const out = replaced(replaceInTiers(text, 'a\n  b\n', 'a\n  x\n  y\n'));
    expect(out.tier).toBe('trailing-whitespace');
    expect(out.text).toBe('a\r\n  x\r\n  y\r\nc\r\n');
  });

  it('says a tier is ambiguous instead of falling to a more lenient one, with a few line numbers', () => {
    const out = replaceInTiers(PY, '  if not name:', 'if name is None:');
    expect(out.kind).toBe('ambiguous');
    if (out.kind !== 'ambiguous') return;
    expect(out.tier).toBe('exact');
    expect(out.candidates.map((c) => c.line)).toEqual([2, 8]);
  });

  it('replaces every match at the first tier that finds any when replace_all is set', () => {
    const out = replaced(replaceInTiers(PY, 'if not name:  ', 'if name is None:', { replaceAll: true }));
    expect(out.tier).toBe('indentation');
    expect(out.count).toBe(2);
    expect(out.text.match(/ {4}if name is None:\n/g)).toHaveLength(2);
  });

  it('bounds an ambiguous error to three line numbers however many matches there are', () => {
    const text = Array.from({ length: 300 }, () => 'x = 1').join('\n');
    const out = replaceInTiers(text, 'x = 1', 'x = 2');
    expect(out.kind).toBe('ambiguous');
    if (out.kind === 'replaced') return;
    expect(describeMiss('f.py', out)).toBe(
      'old_text occurs 300 times in f.py (lines 1, 2, 3, ...); add surrounding lines to make it unique, or set replace_all',
    );
  });

  it('shows what the file has at each of a few lenient matches', () => {
    const text = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i % 2 ? 4 : 8)}x = 1`).join('\n');
    const out = replaceInTiers(text, '  x = 1  ', 'x = 2');
    if (out.kind !== 'ambiguous') throw new Error(out.kind);
    const message = describeMiss('f.py', out);
    expect(message).toMatch(
      /^old_text occurs 300 times in f\.py \(lines 1, 2, 3, \.\.\.\) when compared ignoring indentation/,
    );
    expect(message).toContain('  at line 2:\n    2|     x = 1\n    3|         x = 1');
    expect(message.split('\n').length).toBeLessThan(12);
  });

  it('names the nearest text with line numbers and context when nothing matches', () => {
    const out = replaceInTiers(PY, 'def part(name):\n    if name is None:\n        return None', 'x');
    expect(out.kind).toBe('absent');
    if (out.kind !== 'absent') return;
    expect(out.candidates[0].line).toBe(7);
    expect(out.candidates.length).toBeLessThanOrEqual(3);
    const message = describeMiss('m.py', out);
    expect(message).toContain('at line 7 (');
    expect(message).toContain('    8|     if not name:');
  });

  it('says when nothing is similar', () => {
    const out = replaceInTiers(PY, 'class Unrelated(Base):\n    pass', 'x');
    expect(out.kind === 'absent' && out.candidates).toEqual([]);
    if (out.kind === 'absent') expect(describeMiss('m.py', out)).toContain('nothing there is similar');
  });
});
