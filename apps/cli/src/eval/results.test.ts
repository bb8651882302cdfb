import { compareRuns, formatComparison } from './compare';
import { toRunAgain, type InstanceResult, type InstanceStatus } from './instance-result';
import { formatPredictions, parsePredictions, predictionsOf } from './predictions';
import { buildReport } from './report';
import { renderReportHtml } from './report-html';
import { latestResults, runLayout } from './run-results';
import { attemptOf, requestIdOf } from './run-instance';

const run = (log: string) => ({
  command: 'python3 -m pytest -rA',
  log,
  exitCode: 0,
  timedOut: false,
  durationS: 1.5,
  parser: 'pytest' as const,
});

const result = (id: string, status: InstanceStatus, over: Partial<InstanceResult> = {}): InstanceResult => ({
  instance_id: id,
  status,
  reason: status,
  model_name_or_path: 'scripted-agent',
  model_patch: status === 'resolved' ? 'diff --git a/x b/x\n' : '',
  costUsd: 0.01,
  tokens: { prompt: 10, completion: 5, total: 15 },
  wallTimeS: 2,
  scoringTimeS: 0.5,
  modelCalls: 2,
  turns: 1,
  dispatches: 1,
  editTiers: { exact: 1 },
  finishedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

test("predictions are SWE-bench's three fields per finished instance, and read back against the schema", () => {
  const preds = predictionsOf([
    result('a-1', 'resolved'),
    result('b-2', 'error'),
    result('c-3', 'incomplete'),
    result('d-4', 'infra_error'),
  ]);
  expect(preds).toEqual([
    { instance_id: 'a-1', model_name_or_path: 'scripted-agent', model_patch: 'diff --git a/x b/x\n' },
    { instance_id: 'b-2', model_name_or_path: 'scripted-agent', model_patch: '' },
  ]);
  const text = formatPredictions(preds);
  expect(
    text
      .trim()
      .split('\n')
      .map((l) => Object.keys(JSON.parse(l))),
  ).toEqual([
    ['instance_id', 'model_name_or_path', 'model_patch'],
    ['instance_id', 'model_name_or_path', 'model_patch'],
  ]);
  expect(parsePredictions(text)).toEqual(preds);
  expect(() => parsePredictions('{"instance_id":"a","model_patch":""}', 'p.jsonl')).toThrow(
    /^p\.jsonl:1: not a prediction: model_name_or_path: Required/,
  );
});

test('the report counts errors, infrastructure failures and incomplete instances apart from the resolved rate, with its interval', () => {
  const report = buildReport({ runId: 'r', modelName: 'm', dataset: 'd.jsonl' }, [
    result('a-1', 'resolved', {
      costUsd: 0.03,
      testRuns: {
        base: run('logs/a-1/base-tests.log'),
        change: run('logs/a-1/tests.log'),
      },
    }),
    result('b-2', 'unresolved', { verification: { unverifiedReason: 'adds no test' } }),
    result('c-3', 'error', { costUsd: 0, modelCalls: 0 }),
    result('d-4', 'incomplete', { costUsd: 0 }),
    result('e-5', 'infra_error', {
      costUsd: 0,
      reason: 'task item-1 failed at llm (the model server could not be reached): model unavailable: ECONNREFUSED',
    }),
  ]);
  expect(report.counts).toEqual({ resolved: 1, unresolved: 1, error: 1, infra_error: 1, incomplete: 1 });
  expect(report.resolvedRate).toBe(0.5);
  expect(report.resolvedOfAll).toBe(0.2);
  expect(report.resolvedRateCi95.low).toBeCloseTo(0.0945, 3);
  expect(report.costUsd).toBeCloseTo(0.04);
  expect(report.costPerResolvedUsd).toBeCloseTo(0.04);
  expect(report.mean.modelCalls).toBe(2);
  expect(report.verification).toEqual({ none: 1, unverified: 1 });
  expect(report.editTiers).toEqual({ exact: 5 });
  expect(report.results[0]).not.toHaveProperty('model_patch');
  const html = renderReportHtml(report, {
    patches: new Map([['a-1', 'diff --git a/x b/x\n+<b>\n']]),
    trajectories: new Map([['a-1', ['trajectories/cr-1-item-1.1.jsonl']]]),
  });
  expect(html).toContain('<svg');
  expect(html).not.toMatch(/<script|<link|src="http/);
  expect(html).toContain('Resolved rate <b>50.0 %</b>');
  // Every row links to its instance's section, which holds its patch (escaped) and its trajectory files.
  const links = [...html.matchAll(/<td><a href="#([^"]+)">/g)].map((m) => m[1]);
  expect(links).toHaveLength(5);
  for (const id of links) expect(html).toContain(`<section id="${id}">`);
  expect(html).toContain('+&lt;b&gt;');
  expect(html).toContain('<a href="trajectories/cr-1-item-1.1.jsonl">cr-1-item-1.1.jsonl</a>');
  expect(html).toContain("The farm's verification: unverifiedReason: adds no test.");
  // The test output each verdict was graded from, linked from its instance's section.
  expect(html).toContain('<a href="logs/a-1/tests.log">the tests on the change (the verdict)</a>');
  expect(html).toContain('<a href="logs/a-1/base-tests.log">the tests at the base (the set-up check)</a>');
  expect(report.results[0].testRuns?.change?.log).toBe('logs/a-1/tests.log');
  // Infrastructure failures: counted and listed apart, with their reason.
  expect(html).toContain('1 instance error(s), 1 infrastructure\nfailure(s) and 1 incomplete');
  expect(html).toMatch(/<h2 id="infra">Infrastructure failures<\/h2>.*e-5<\/a>: task item-1 failed at llm/s);
  // No raw JSON line: the counts are tables.
  expect(html).not.toMatch(/\{"/);
  expect(html).toMatch(/<caption>how the edits were located<\/caption><tbody><tr><td>exact<\/td><td>5<\/td>/);
});

test('a results file: the latest line of an instance wins, a line cut short by a crash is skipped', () => {
  const text = [
    JSON.stringify(result('a-1', 'incomplete')),
    JSON.stringify(result('a-1', 'resolved')),
    '{"instance_id":"b-',
  ].join('\n');
  const latest = latestResults(text);
  expect([...latest.keys()]).toEqual(['a-1']);
  expect(latest.get('a-1')!.status).toBe('resolved');
});

test('two runs compared instance by instance, with the exact McNemar p-value; errors left out of the pairs', () => {
  const a = new Map(
    ['1', '2', '3', '4', '5', '6'].map((i) => [
      i,
      result(i, i === '1' ? 'resolved' : i === '6' ? 'error' : 'unresolved'),
    ]),
  );
  const b = new Map(['1', '2', '3', '4', '5', '6'].map((i) => [i, result(i, i === '6' ? 'unresolved' : 'resolved')]));
  a.set('7', result('7', 'resolved'));
  b.set('7', result('7', 'infra_error'));
  const c = compareRuns([
    { name: 'A', results: a },
    { name: 'B', results: b },
  ]);
  const [pair] = c.pairs;
  expect(pair.paired).toBe(5);
  expect(pair.onlyOther).toEqual(['2', '3', '4', '5']);
  expect(pair.onlyBaseline).toEqual([]);
  expect(pair.pValue).toBeCloseTo(0.125, 10);
  expect(pair.leftOut).toEqual([
    { instance_id: '6', why: 'error in A' },
    { instance_id: '7', why: 'infra_error in B' },
  ]);
  expect(c.table[0]).toEqual({ instance_id: '1', statuses: ['resolved', 'resolved'] });
  expect(formatComparison(c)).toContain('B vs A: 5 paired instance(s), resolved 100.0 % vs 20.0 %');
});

test("an instance's request id is a UUID fixed by the run and the instance, so a resumed run finds its request", () => {
  const id = requestIdOf('run-1', 'a__b-1');
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(requestIdOf('run-1', 'a__b-1')).toBe(id);
  expect(requestIdOf('run-1', 'a__b-1', 1)).toBe(id); // the first try: the id runs before tries had
  expect(requestIdOf('run-2', 'a__b-1')).not.toBe(id);
  expect(requestIdOf('run-1', 'a__b-2')).not.toBe(id);
  expect(requestIdOf('run-1', 'a__b-1', 2)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5/);
  expect(requestIdOf('run-1', 'a__b-1', 2)).not.toBe(id);
});

test('run again: an infrastructure failure the farm ended gets a new request; one before or after the farm, the same', () => {
  expect(toRunAgain(undefined)).toBe(true);
  for (const status of ['incomplete', 'infra_error'] as const) expect(toRunAgain(result('a', status))).toBe(true);
  for (const status of ['resolved', 'unresolved', 'error'] as const)
    expect(toRunAgain(result('a', status))).toBe(false);
  expect(attemptOf(undefined)).toBe(1);
  // the farm ended the request for its environment (model server away): that request is final, a new one is made
  expect(attemptOf(result('a', 'infra_error', { phase: 'FAILED' }))).toBe(2);
  expect(attemptOf(result('a', 'infra_error', { phase: 'FAILED', attempt: 2 }))).toBe(3);
  // failed before the farm had it (a set-up), or while scoring its delivered change: its request is found again
  expect(attemptOf(result('a', 'infra_error'))).toBe(1);
  expect(attemptOf(result('a', 'infra_error', { phase: 'DONE', attempt: 2 }))).toBe(2);
  expect(attemptOf(result('a', 'incomplete', { phase: 'CODING', attempt: 3 }))).toBe(3);
});

test('a run id that is not a plain name is refused with what to use', () => {
  expect(() => runLayout('/tmp/e', '../x')).toThrow(/run id "\.\.\/x": use letters, digits/);
  expect(runLayout('/tmp/e', 'lite-gpt.1').dir).toBe('/tmp/e/lite-gpt.1');
});
