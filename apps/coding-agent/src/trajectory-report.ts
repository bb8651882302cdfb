import type { farm } from '@farm/proto';

/**
 * How much of a task's trajectory its result carries for the API and the console: a CommitResult travels on
 * the bus and is kept per dispatch by the orchestrator, so the report stays far below a Kafka message's
 * limit whatever the agent did.
 */
export const REPORT_LIMITS = {
  /** All trajectory lines together. */
  trajectoryChars: 96_000,
  /** Any one string inside a line (a tool's result, a check's output): its head and its tail are kept. */
  stringChars: 2_000,
  diffChars: 64_000,
};

/** Events the report leaves out: the prompts (the task's goal is known; the rest is large) and the result. */
const LEFT_OUT = new Set(['prompt', 'result']);

/** `text` at most `max` characters: its head and tail, with how much was cut between them. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters cut ...]\n${text.slice(-half)}`;
}

/** `value` with every string in it cut to `max` characters (see cutMiddle). */
export function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return cutMiddle(value, max);
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, max));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, max)]));
  return value;
}

/**
 * Collects a task's trajectory lines within REPORT_LIMITS: the first half of the budget keeps the beginning
 * (what the agent looked at first), the second half the latest lines (the last checks, the verdict); lines
 * dropped between them are counted.
 */
export class TrajectoryReport {
  private readonly head: string[] = [];
  private headChars = 0;
  private readonly tail: string[] = [];
  private tailChars = 0;
  private omitted = 0;

  constructor(
    private readonly redact: (text: string) => string,
    private readonly limits = REPORT_LIMITS,
  ) {}

  add(line: Record<string, unknown> & { event: string }): void {
    if (LEFT_OUT.has(line.event)) return;
    const text = this.redact(JSON.stringify(cutStrings(line, this.limits.stringChars)));
    const half = Math.floor(this.limits.trajectoryChars / 2);
    if (text.length > half) {
      this.omitted++;
      return;
    }
    if (!this.tail.length && this.headChars + text.length <= half) {
      this.head.push(text);
      this.headChars += text.length;
      return;
    }
    this.tail.push(text);
    this.tailChars += text.length;
    while (this.tailChars > half) {
      this.tailChars -= this.tail.shift()!.length;
      this.omitted++;
    }
  }

  /** The report of the result; `diff` is the committed change, if any (already redacted). */
  build(diff = ''): farm.v1.ITaskReport {
    const truncated = diff.length > this.limits.diffChars;
    return {
      trajectory: [...this.head, ...this.tail],
      trajectoryOmitted: this.omitted,
      diff: truncated ? diff.slice(0, this.limits.diffChars) : diff,
      diffTruncated: truncated,
    };
  }
}
