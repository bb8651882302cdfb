import { cutMiddle, TrajectoryReport } from './trajectory-report';

const LIMITS = { trajectoryChars: 400, stringChars: 40, diffChars: 30 };

describe("a task's trajectory report", () => {
  test('keeps the head and tail of a long string, and says how much was cut', () => {
    const text = `${'a'.repeat(50)}${'b'.repeat(50)}`;
    const cut = cutMiddle(text, 40);
    expect(cut.startsWith('a'.repeat(20))).toBe(true);
    expect(cut.endsWith('b'.repeat(20))).toBe(true);
    expect(cut).toContain('[... 60 characters cut ...]');
    expect(cutMiddle('short', 40)).toBe('short');
  });

  test('leaves out prompts and the result, cuts long strings, redacts, and keeps the first and the latest lines', () => {
    const report = new TrajectoryReport((t) => t.replaceAll('sk-secret', '[secret redacted]'), LIMITS);
    report.add({ event: 'prompt', messages: ['the whole conversation'] });
    report.add({ event: 'tool', tool: 'read_file', result: `key=sk-secret ${'x'.repeat(100)}` });
    for (let i = 0; i < 10; i++) report.add({ event: 'step', step: i, note: 'y'.repeat(30) });
    report.add({ event: 'result', status: 'SUCCESS' });
    const built = report.build('d'.repeat(50));
    const lines = built.trajectory!.map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines[0]).toMatchObject({ event: 'tool', tool: 'read_file' });
    expect(lines[0].result).toMatch(/^key=\[secret redacted\]/);
    expect(lines[0].result).toContain('characters cut');
    expect(lines.map((l) => l.event)).not.toContain('prompt');
    expect(built.trajectory!.join('').length).toBeLessThanOrEqual(LIMITS.trajectoryChars);
    expect(built.trajectoryOmitted).toBe(11 - lines.length);
    expect(built.trajectoryOmitted).toBeGreaterThan(0);
    // The latest lines are kept (the last checks and the verdict come last); the middle is dropped.
    expect(lines.at(-1)).toMatchObject({ event: 'step', step: 9 });
    const steps = lines.filter((l) => l.event === 'step').map((l) => Number(l.step));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps).not.toContain(4);
    expect(built).toMatchObject({ diff: 'd'.repeat(30), diffTruncated: true });
  });
});
