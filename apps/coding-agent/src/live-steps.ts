import { randomUUID } from 'node:crypto';
import { farm } from '@farm/proto';
import { Topics, type EventBus } from '@farm/bus';
import { errorMessage, type Logger } from '@farm/runtime';
import { cutStrings } from './trajectory-report';

/** Where a running task's steps go as they happen: the farm's bus (Kafka, or the spool the launcher publishes). */
export type StepBus = Pick<EventBus, 'publish'>;

/**
 * How much of a running task is published live (the orchestrator bounds what it keeps again, per dispatch): the
 * result's report stays the record of the task; the live steps are for watching it.
 */
export const LIVE_STEP_LIMITS = {
  /** Any one string inside a line (a tool's result, a check's output): head and tail kept, as in the report. */
  stringChars: 2_000,
  /** One line whole: a longer one is published as its event and fields cut to a note. */
  lineChars: 16_000,
  /** Steps of one agent run; after them one line says that the rest is in the result's report. */
  stepsPerRun: 2_000,
  /** Steps waiting for a slow bus; more are dropped (counted in the next one sent) rather than held in memory. */
  pending: 200,
};

/** Events never published live: the prompts (large, and the task's goal is known). */
const NOT_LIVE = new Set(['prompt']);

/**
 * A trajectory line as it is published live: every string cut (cutStrings), secrets redacted after cutting (a
 * secret cut in half is not left whole on either side: the redactor sees the cut text), and the whole line
 * bounded: past `lineChars` only its time, event and ids are kept, with how long it was.
 */
export function liveStepLine(
  entry: Record<string, unknown> & { event: string },
  redact: (text: string) => string,
  limits: Pick<typeof LIVE_STEP_LIMITS, 'stringChars' | 'lineChars'> = LIVE_STEP_LIMITS,
): string {
  const text = redact(JSON.stringify(cutStrings(entry, limits.stringChars)));
  if (text.length <= limits.lineChars) return text;
  const { ts, event, taskId, dispatch } = entry;
  return redact(
    JSON.stringify({ ts, event, taskId, dispatch, cut: `a ${text.length}-character line; see the report` }),
  );
}

/**
 * Publishes a task's trajectory lines as TaskSteps while it runs, in order, one at a time: recording a line never
 * waits for the bus, and a failing bus never fails the task (the result's report carries the trajectory anyway).
 */
export class LiveSteps {
  private seq = 0;
  private waiting = 0;
  private dropped = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: StepBus,
    private readonly task: { changeRequestId: string; taskId: string; dispatch: number },
    private readonly redact: (text: string) => string,
    private readonly log: Logger,
    /** This run of an agent on the dispatch: a restarted agent's steps are told apart from the earlier run's. */
    readonly runId: string = randomUUID(),
    private readonly limits = LIVE_STEP_LIMITS,
  ) {}

  add(entry: Record<string, unknown> & { event: string }): void {
    if (NOT_LIVE.has(entry.event) || this.seq > this.limits.stepsPerRun) return;
    if (this.waiting >= this.limits.pending) {
      this.dropped++;
      return;
    }
    const line =
      this.seq === this.limits.stepsPerRun
        ? JSON.stringify({ ts: entry.ts, event: 'steps_cut', after: this.seq, note: 'further steps are in the report' })
        : liveStepLine(this.dropped ? { ...entry, droppedBefore: this.dropped } : entry, this.redact, this.limits);
    this.dropped = 0;
    const step = farm.v1.TaskStep.create({ ...this.task, runId: this.runId, seq: ++this.seq, line });
    this.waiting++;
    this.chain = this.chain
      .then(() => this.bus.publish(Topics.taskSteps, step))
      .catch((err: unknown) =>
        this.log.warn('a live step was not published', { seq: step.seq, event: entry.event, err: errorMessage(err) }),
      )
      .finally(() => this.waiting--);
  }

  /** Resolves once every step added so far was published (or given up). */
  flush(): Promise<void> {
    return this.chain;
  }
}
