import { readFileSync } from 'node:fs';
import { farm } from '@farm/proto';
import { FarmError, errorMessage, type FarmErrorOptions } from '@farm/runtime';

export class BadTaskInput extends FarmError {
  constructor(message: string, options: Omit<FarmErrorOptions, 'retryable'> = {}) {
    super(message, { ...options, retryable: false }); // the same input is as bad next time
  }
}

/**
 * The one task of a Job-style run, from `--task-file <path>`, `--task <value>` or $FARM_TASK. A value is
 * base64 protobuf, raw protobuf (file) or the proto3 JSON mapping.
 */
export function readTask(argv: string[], env: NodeJS.ProcessEnv): farm.v1.CodingTask {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  let raw: Buffer | undefined;
  const file = flag('--task-file');
  if (file) {
    try {
      raw = readFileSync(file);
    } catch (err) {
      throw new BadTaskInput(`cannot read task file ${file}: ${errorMessage(err)}`);
    }
  } else {
    const value = flag('--task') ?? env.FARM_TASK;
    if (!value) throw new BadTaskInput('no task given: pass --task-file <path>, --task <base64|json> or set FARM_TASK');
    raw = value.trim().startsWith('{') ? Buffer.from(value) : Buffer.from(value, 'base64');
  }
  const task = decodeTask(raw);
  const missing = (['id', 'changeRequestId', 'goal'] as const).filter((k) => !task[k]);
  if (!task.repo?.url) missing.push('repo.url' as never);
  if (!task.repo?.baseCommit) missing.push('repo.baseCommit' as never);
  if (missing.length) throw new BadTaskInput(`task is missing ${missing.join(', ')}`);
  return task;
}

function decodeTask(raw: Buffer): farm.v1.CodingTask {
  const text = raw.toString('utf8').trim();
  if (text.startsWith('{')) {
    try {
      return farm.v1.CodingTask.fromObject(JSON.parse(text));
    } catch (err) {
      throw new BadTaskInput(`task JSON is invalid: ${errorMessage(err)}`);
    }
  }
  try {
    return farm.v1.CodingTask.decode(raw);
  } catch (err) {
    throw new BadTaskInput(`task is neither JSON nor protobuf: ${errorMessage(err)}`);
  }
}
