import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { TrajectoryReport } from './trajectory-report';

/** Where each line also goes as it is recorded, for following the task live (LiveSteps). */
export interface LiveLines {
  add(entry: Record<string, unknown> & { event: string }): void;
  flush(): Promise<void>;
}

/**
 * One JSONL file per task: prompts, every model step (tokens, cost, duration), every tool call (tool,
 * arguments, a cut result, output size, duration), check results, a reward per attempt (1 when the checks
 * passed), review verdicts, then the result. For reviewing what the agent did and for building evaluation
 * sets. Secret values are redacted from every line. A bounded copy goes with the task's result (`report`),
 * whether or not a file is written: a Job's files are gone when it ends. With `live`, each line is also published
 * as it is recorded.
 */
export interface Trajectory {
  record(event: string, data: Record<string, unknown>): void;
  /** A line for following the task live only (a check's progress): neither in the file nor in the report. */
  progress?(event: string, data: Record<string, unknown>): void;
  close(): Promise<void>;
  readonly file?: string;
  readonly report: TrajectoryReport;
}

export function openTrajectory(
  dir: string | undefined,
  taskId: string,
  dispatch: number,
  redact: (text: string) => string = (t) => t,
  live?: LiveLines,
): Trajectory {
  const report = new TrajectoryReport(redact);
  const line = (event: string, data: Record<string, unknown>) => ({
    ts: new Date().toISOString(),
    event,
    taskId,
    dispatch,
    ...data,
  });
  const keep = (entry: ReturnType<typeof line>) => {
    report.add(entry);
    live?.add(entry);
  };
  const flushLive = async () => live?.flush();
  const progress = (event: string, data: Record<string, unknown>) => live?.add(line(event, data));
  if (!dir) return { record: (event, data) => keep(line(event, data)), progress, close: flushLive, report };
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${taskId.replace(/[^A-Za-z0-9._-]/g, '_')}.${dispatch || 1}.jsonl`);
  const out: WriteStream = createWriteStream(file, { flags: 'a' });
  return {
    file,
    report,
    progress,
    record(event, data) {
      const entry = line(event, data);
      out.write(redact(JSON.stringify(entry)) + '\n');
      keep(entry);
    },
    close: async () => {
      await flushLive();
      await new Promise<void>((resolve) => out.end(resolve));
    },
  };
}
