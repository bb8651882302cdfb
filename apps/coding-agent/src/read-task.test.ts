import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { farm } from '@farm/proto';
import { BadTaskInput, readTask } from './read-task';

const task = {
  id: 't-1',
  changeRequestId: 'cr-1',
  goal: 'Add multiply',
  repo: { url: 'http://git/x.git', baseRef: 'main', baseCommit: 'a'.repeat(40) },
};
const b64 = Buffer.from(farm.v1.CodingTask.encode(farm.v1.CodingTask.fromObject(task)).finish()).toString('base64');

test('a Job-style run reads its one task from an argument, a file or the environment, protobuf or JSON', async () => {
  expect(readTask(['--task', b64], {}).goal).toBe('Add multiply');
  expect(readTask(['--task', JSON.stringify(task)], {}).id).toBe('t-1');
  expect(readTask([], { FARM_TASK: b64 }).repo?.baseCommit).toBe('a'.repeat(40));
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'task-')), 'task.pb');
  await writeFile(file, Buffer.from(b64, 'base64'));
  expect(readTask(['--task-file', file], {}).changeRequestId).toBe('cr-1');
});

test('a missing or incomplete task is a clear error', () => {
  expect(() => readTask([], {})).toThrow(BadTaskInput);
  expect(() => readTask(['--task', JSON.stringify({ id: 'x' })], {})).toThrow(
    /missing changeRequestId, goal, repo.url, repo.baseCommit/,
  );
  expect(() => readTask(['--task-file', '/nonexistent/task'], {})).toThrow(/cannot read task file/);
});
