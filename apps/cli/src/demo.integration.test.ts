import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runDemo } from './demo';

test('farm demo runs the farm on one machine, prints the pushed branch and its diff; --serve keeps its console up', async () => {
  const lines: string[] = [];
  let consoleLine!: (line: string) => void;
  const served = new Promise<string>((resolve) => (consoleLine = resolve));
  let stop!: () => void;
  const until = new Promise<void>((resolve) => (stop = resolve));
  process.env.FARM_METRICS_PORT = '0'; // any free port: the demo prints the one it got
  try {
    const demo = runDemo({
      serve: true,
      until,
      out: (l) => {
        lines.push(l);
        if (l.startsWith('console')) consoleLine(l);
      },
    });
    const [, url, tokenFile] = /^console\s+(http:\/\/\S+\/) \(sign in with the token in (\S+)\)/.exec(await served)!;
    // The page and the API answer while the demo waits for Ctrl-C.
    expect(await (await fetch(url)).text()).toContain('<title>agent-farm console</title>');
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const list = await fetch(`${url}v1/change-requests`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.json()) as { changeRequests: { phase: string }[] }).changeRequests).toEqual([
      expect.objectContaining({ phase: 'DONE' }),
    ]);
    stop();
    const code = await demo;
    const text = lines.join('\n');
    expect(code).toBe(0);
    expect(text).toMatch(/RECEIVED[\s\S]*PLANNING[\s\S]*CODING[\s\S]*BUILD[\s\S]*DONE/);
    expect(text).toMatch(/integrated\s+farm\//);
    expect(text).toMatch(/branch\s+agt\/\S+ at [0-9a-f]{12}/);
    expect(text).toContain('+function multiply(a, b) {');
    await expect(fetch(url)).rejects.toThrow(); // stopped with the demo
  } finally {
    delete process.env.FARM_METRICS_PORT;
  }
});

test('the documented tool-call example (docs/examples/tool-calls.json) runs to DONE: tool calls, a review objection answered, approved', async () => {
  const lines: string[] = [];
  const code = await runDemo({
    modelScript: path.join(process.cwd(), 'docs', 'examples', 'tool-calls.json'),
    out: (l) => lines.push(l),
  });
  const text = lines.join('\n');
  expect(code).toBe(0);
  expect(text).toMatch(/CODING[\s\S]*BUILD[\s\S]*DONE/);
  expect(text).toContain('+function multiply(a, b) {');
  // Only the reviewer's objection in round 1 (a negative factor) made the agent add this line.
  expect(text).toContain('+  assert.strictEqual(multiply(-2, 3), -6);');
  expect(text).toMatch(/integrated\s+farm\//);
});
