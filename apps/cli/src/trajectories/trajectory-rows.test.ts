import { environmentRedactor } from '@farm/runtime';
import { PARQUET_COLUMNS } from './trajectory-parquet';
import { trajectoryRows, TRAJECTORY_ROW_SCHEMA } from './trajectory-rows';

const SECRET = 'sk-live-0123456789abcdef';

const rowsOfOneTask = () =>
  trajectoryRows(
    { id: 'cr-1', title: 'Fix the cache', repoUrl: 'http://git/app.git', repoPath: '/src/app', baseCommit: 'abc' },
    { id: 'cr-1-fix', goal: 'Fix it', kind: 'fix', dispatch: 1, verification: { differential: { ok: true } } },
    [
      {
        dispatch: 1,
        status: 'SUCCESS',
        model: 'gpt-x',
        costUsd: 0.01,
        tokens: { prompt: 10, completion: 5, total: 15 },
        events: [
          { ts: 't0', event: 'checks', strategy: 'tools' },
          { ts: 't1', event: 'prompt', messages: [{ role: 'user', content: `key ${SECRET}` }] },
          { ts: 't2', event: 'step', step: 1, toolCalls: ['edit_file'] },
          {
            ts: 't3',
            event: 'tool',
            step: 1,
            tool: 'edit_file',
            arguments: { path: 'a.py' },
            ok: true,
            outputChars: 12,
            match: 'exact',
          },
          { ts: 't4', event: 'reward', attempt: 1, reward: 1, checksOk: true },
        ],
      },
    ],
    environmentRedactor({ OPENAI_API_KEY: SECRET, HOME: '/root' }),
  );

test('one row per trajectory event, the task, request and model on each; columns filled by event kind', () => {
  const rows = rowsOfOneTask();
  expect(rows.map((r) => r.event)).toEqual(['checks', 'prompt', 'step', 'tool', 'reward']);
  for (const r of rows) {
    expect(r).toMatchObject({
      schema: TRAJECTORY_ROW_SCHEMA,
      change_request_id: 'cr-1',
      task_id: 'cr-1-fix',
      repo: '/src/app',
      model: 'gpt-x',
      strategy: 'tools',
    });
    expect(Object.keys(r).sort()).toEqual(Object.keys(PARQUET_COLUMNS).sort());
  }
  expect(rows[2].model_output).toBe('["edit_file"]');
  expect(rows[3]).toMatchObject({
    tool: 'edit_file',
    tool_arguments: '{"path":"a.py"}',
    tool_ok: true,
    tool_output_chars: 12,
    step: 1,
  });
  expect(rows[4].reward).toBe(1);
  expect(rows[0].reward).toBe(-1);
  expect(JSON.parse(rows[0].verification)).toEqual({ differential: { ok: true } });
});

test('secret values of the environment are redacted from every field, the prompt and the raw event included', () => {
  const rows = rowsOfOneTask();
  const text = JSON.stringify(rows);
  expect(text).not.toContain(SECRET);
  expect(rows[1].prompt).toContain('[secret redacted]');
  expect(rows[1].payload).toContain('[secret redacted]');
});
