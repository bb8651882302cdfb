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

  it("matches lines whose trailing whitespace differs, and writes none of the model's where the file has none", () => {
    const out = replaced(
      replaceInTiers(
        PY,
        'def part(name):   \n    if not name:  ',
        'def part(name, sep=None):  \n    if not name:  \n        return ""  ',
      ),
    );
    expect(out.tier).toBe('trailing-whitespace');
    expect(out.firstLine).toBe(7);
    expect(out.text).toContain('def part(name, sep=None):\n    if not name:\n        return ""\n        return None');
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

  it("keeps the line's indentation when old_text begins at its first character, the new text placed by the file's", () => {
    const out = replaced(
      replaceInTiers(PY, 'if not name:\n        return None', 'if name is None:\n        raise ValueError("name")'),
    );
    expect(out.tier).toBe('exact');
    expect(out.text).toContain('def part(name):\n    if name is None:\n        raise ValueError("name")\n    return');
    // ... and when the new text brings the line's indentation itself, it is not doubled
    const again = replaced(replaceInTiers(PY, 'if not name:\n        return None', '    if not name:\n        return'));
    expect(again.text).toContain('def part(name):\n    if not name:\n        return\n    return');
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

const TEST_PY = `class TestSigner:
    def test_sign(self):
        signer = Signer("secret")
        signed = signer.sign("value")
        assert signed.startswith(b"value.")

    def test_unsign(self):
        assert Signer("secret").unsign(Signer("secret").sign("v")) == b"v"
`;

describe('what a lenient tier writes', () => {
  it('re-bases added lines by the one offset most lines agree on, whatever one line drifted by', () => {
    // The block dedented by 4, one line 2 further off, a trailing space: the new test's body goes at 8, not 4
    const oldText = 'def test_sign(self):\n    signer = Signer("secret")\n  signed = signer.sign("value") \n';
    const newText =
      'def test_sign(self):\n    signer = Signer("secret")\n  signed = signer.sign("value") \n' +
      '    assert signer.unsign(signed) == b"value"\n';
    const out = replaced(replaceInTiers(TEST_PY, oldText, newText));
    expect(out.tier).toBe('indentation');
    expect(out.text).toBe(
      TEST_PY.replace(
        '        signed = signer.sign("value")\n',
        '        signed = signer.sign("value")\n        assert signer.unsign(signed) == b"value"\n',
      ),
    );
  });

  it("writes the file's own line where the new text repeats a search line, drifted or not", () => {
    // Dedented by 4, the second line 2 further and the first with a trailing space; the new text repeats the
    // first as the model wrote it and the second without its drift
    const out = replaced(
      replaceInTiers(
        TEST_PY,
        'def test_sign(self):  \n      signer = Signer("secret")\n    signed = signer.sign("value")\n',
        'def test_sign(self):  \n    signer = Signer("secret")\n    signed = signer.sign("value")\n    print(signed)\n',
      ),
    );
    expect(out.text).toContain(
      '    def test_sign(self):\n        signer = Signer("secret")\n        signed = signer.sign("value")\n' +
        '        print(signed)\n        assert',
    );
  });

  it('gives tabs to a tab-indented file, deeper lines too, when the model wrote spaces and drifted a line', () => {
    const js = 'function f(a) {\n\tif (a) {\n\t\treturn 1;\n\t}\n\treturn 0;\n}\n';
    const out = replaced(
      replaceInTiers(
        js,
        '  if (a) {\n     return 1;\n  }\n',
        '  if (a) {\n    if (a > 1) return 2;\n    return 1;\n  }\n',
      ),
    );
    expect(out.text).toBe(
      'function f(a) {\n\tif (a) {\n\t\tif (a > 1) return 2;\n\t\treturn 1;\n\t}\n\treturn 0;\n}\n',
    );
  });

  it('keeps trailing whitespace where the file has it and the model copied it', () => {
    const md = 'Title\n  first line  \n  second line  \n';
    const out = replaced(
      replaceInTiers(md, 'first line  \nsecond line  \n', 'first line  \nnew line  \nsecond line  \n'),
    );
    expect(out.text).toBe('Title\n  first line  \n  new line  \n  second line  \n');
  });

  it('refuses, writing nothing, when the lines disagree on how far they are from the file', () => {
    const oldText = '  def test_sign(self):\n          signer = Signer("secret")\n';
    const out = replaceInTiers(TEST_PY, oldText, oldText + '          print(signer)\n');
    expect(out).toMatchObject({ kind: 'uncertain', tier: 'indentation', firstLine: 2, lines: 2 });
    if (out.kind === 'replaced') return;
    expect(describeMiss('tests/test_signer.py', out)).toBe(
      "old_text matches tests/test_signer.py at lines 2-3 ignoring indentation (new_text re-indented to the file's), " +
        "but its lines are indented unlike the file's by different amounts (line 2: 2 columns less than the file, " +
        "line 3: 2 columns more than the file), so the new lines' depth is unknown; nothing was written. Read lines " +
        "2-3 again and send old_text with the file's exact indentation there, and new_text indented the same way",
    );
    // Where no line needs the offset (a line removed), the edit is made all the same
    const removed = replaced(replaceInTiers(TEST_PY, oldText, '  def test_sign(self):\n'));
    expect(removed.text).toContain('class TestSigner:\n    def test_sign(self):\n        signed =');
  });

  it('refuses a lone line off by part of a level, and takes one off by whole levels', () => {
    const out = replaceInTiers(TEST_PY, '      signed = signer.sign("value")', 'a\nb');
    if (out.kind !== 'uncertain') throw new Error(out.kind);
    expect(out.reason).toBe(
      "its line is indented off the file's by part of its indentation level of 4 spaces " +
        "(line 4: 2 columns less than the file), so the new lines' depth is unknown",
    );
    // One line for one line is replaced where it is, as found exactly
    const inPlace = replaced(replaceInTiers(TEST_PY, '      signed = signer.sign("value")', '      signed = 1'));
    expect(inPlace.text).toContain('\n        signed = 1\n');
    const whole = replaced(replaceInTiers(TEST_PY, 'signed = signer.sign("value")', 'signed = sign("v")\nlog(signed)'));
    expect(whole.text).toContain('        signed = sign("v")\n        log(signed)\n');
  });
});
