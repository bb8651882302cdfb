import { runDemo } from './demo';

test('farm demo runs the farm on one machine and prints the pushed branch and its diff', async () => {
  const lines: string[] = [];
  const code = await runDemo({ out: (l) => lines.push(l) });
  const text = lines.join('\n');
  expect(code).toBe(0);
  expect(text).toMatch(/RECEIVED[\s\S]*PLANNING[\s\S]*CODING[\s\S]*BUILD[\s\S]*DONE/);
  expect(text).toMatch(/integrated\s+farm\//);
  expect(text).toMatch(/branch\s+agt\/\S+ at [0-9a-f]{12}/);
  expect(text).toContain('+function multiply(a, b) {');
});
