import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { TrajectoryReport } from './trajectory-report';

/**
 * One JSONL file per task: prompts, every model step (tokens, cost, duration), every tool call (tool,
 * arguments, a cut result, output size, duration), check results, a reward per attempt (1 when the checks
 * passed), review verdicts, then the result. For reviewing what the agent did and for building evaluation
 * sets. Secret values are redacted from every line. A bounded copy goes with the task's result (`report`),
 * whether or not a file is written: a Job's files are gone when it ends.
 */
export interface Trajectory {
  record(event: string, data: Record<string, unknown>): void;
  close(): Promise<void>;
  readonly file?: string;
  readonly report: TrajectoryReport;
}

export function openTrajectory(
  dir: string | undefined,
  taskId: string,
  dispatch: number,
  redact: (text: string) => string = (t) => t,
): Trajectory {
  const report = new TrajectoryReport(redact);
  const line = (event: string, data: Record<string, unknown>) => ({
    ts: new Date().toISOString(),
    event,
    taskId,
    dispatch,
    ...data,
  });
  if (!dir) return { record: (event, data) => report.add(line(event, data)), close: async () => {}, report };
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${taskId.replace(/[^A-Za-z0-9._-]/g, '_')}.${dispatch || 1}.jsonl`);
  const out: WriteStream = createWriteStream(file, { flags: 'a' });
  return {
    file,
    report,
    record(event, data) {
      const entry = line(event, data);
      out.write(redact(JSON.stringify(entry)) + '\n');
      report.add(entry);
    },
    close: () => new Promise((resolve) => out.end(resolve)),
  };
}
