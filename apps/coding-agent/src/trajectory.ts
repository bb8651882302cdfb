import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

/**
 * One JSONL file per task: prompts, every model step (tokens, cost, duration), every tool call (tool,
 * arguments, output size, duration), check results, a reward per attempt (1 when the checks passed), review
 * verdicts, then the result. For reviewing what the agent did and for building evaluation sets. Secret
 * values are redacted from every line.
 */
export interface Trajectory {
  record(event: string, data: Record<string, unknown>): void;
  close(): Promise<void>;
  readonly file?: string;
}

export function openTrajectory(
  dir: string | undefined,
  taskId: string,
  dispatch: number,
  redact: (text: string) => string = (t) => t,
): Trajectory {
  if (!dir) return { record() {}, close: async () => {} };
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${taskId.replace(/[^A-Za-z0-9._-]/g, '_')}.${dispatch || 1}.jsonl`);
  const out: WriteStream = createWriteStream(file, { flags: 'a' });
  return {
    file,
    record(event, data) {
      out.write(redact(JSON.stringify({ ts: new Date().toISOString(), event, taskId, dispatch, ...data })) + '\n');
    },
    close: () => new Promise((resolve) => out.end(resolve)),
  };
}
