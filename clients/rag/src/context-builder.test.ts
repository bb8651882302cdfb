import { chunkFile, type Chunk } from './chunker';
import { buildContext, estimateTokens, renderContext } from './context-builder';

const fn = (name: string, lines: number) =>
  `export function ${name}() {\n${Array.from({ length: lines }, (_, i) => `  step${i}(${name});`).join('\n')}\n}\n`;
const chunksOf = (path: string, text: string): Chunk[] => chunkFile({ repo: 'r', commit: 'c', path, text });

describe('estimateTokens', () => {
  it('counts code closer to a tokenizer than chars/4 would, and never zero for text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('x')).toBe(1);
    const code = 'if (!res.ok) { throw new Error(`status ${res.status}`); }';
    expect(estimateTokens(code)).toBeGreaterThan(code.length / 4); // punctuation-heavy code costs more
    const prose = 'the quick brown fox jumps over the lazy dog';
    expect(estimateTokens(prose)).toBe(9);
  });
});

describe('buildContext', () => {
  const own = chunksOf('src/http.ts', fn('fetchWithTimeout', 5) + '\n' + fn('joinUrl', 3));
  const related = chunksOf('src/users.ts', fn('getUser', 4));
  const big = chunksOf('src/big.ts', fn('huge', 150));

  it("puts the task's own files first, whole and in line order, then the rest by relevance", () => {
    const ctx = buildContext({
      chunks: [...related, ...big, ...own.slice().reverse()],
      budgetTokens: 10_000,
      mustInclude: ['src/http.ts'],
    });
    expect(ctx.snippets.map((c) => c.symbol)).toEqual(['fetchWithTimeout', 'joinUrl', 'getUser', 'huge']);
    expect(ctx.omitted).toEqual([]);
    expect(ctx.usedTokens).toBeLessThanOrEqual(10_000);
  });

  it('leaves out what does not fit, says which, and still takes smaller snippets after a big one', () => {
    const budget = [...own, ...related].reduce((n, c) => n + estimateTokens(c.text) + 16, 0);
    const ctx = buildContext({ chunks: [...big, ...related], budgetTokens: budget, mustInclude: ['src/http.ts'] });
    expect(ctx.snippets.map((c) => c.path)).toEqual(['src/users.ts']);
    const withOwn = buildContext({
      chunks: [...own, ...big, ...related],
      budgetTokens: budget,
      mustInclude: ['src/http.ts'],
    });
    expect(withOwn.snippets.map((c) => c.symbol)).toEqual(['fetchWithTimeout', 'joinUrl', 'getUser']);
    expect(withOwn.omitted.map((c) => c.symbol)).toEqual(['huge']);
    expect(withOwn.usedTokens).toBeLessThanOrEqual(budget);
  });

  it('skips a chunk whose lines are already shown, without calling it omitted', () => {
    const windowed = chunkFile(
      { repo: 'r', commit: 'c', path: 'notes.md', text: 'x\n'.repeat(100) },
      { windowLines: 60, overlapLines: 10 },
    );
    const whole: Chunk = { ...windowed[0], id: 'whole', startLine: 1, endLine: 100, text: 'x\n'.repeat(100) };
    const ctx = buildContext({ chunks: [whole, ...windowed], budgetTokens: 10_000 });
    expect(ctx.snippets.map((c) => c.id)).toEqual(['whole']);
    expect(ctx.omitted).toEqual([]);
  });

  it('renders each snippet with its path and line range', () => {
    expect(renderContext(own.slice(0, 1))).toBe(`FILE: src/http.ts (lines 1-7)\n\`\`\`\n${own[0].text}\n\`\`\``);
  });
});
