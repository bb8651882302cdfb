/**
 * Output kept from a command, bounded in memory however much it prints, and cut down to what explains
 * its result: the end (where failures and summaries are) matters most, the start gives context.
 */
export class OutputCapture {
  private head = '';
  private tail = '';
  private cut = 0;
  /** Characters received in all. */
  total = 0;
  /** Lines received in all (newlines counted as they arrive). */
  lines = 0;

  constructor(
    private readonly headMax = 256 * 1024,
    private readonly tailMax = 2 * 1024 * 1024,
  ) {}

  push(text: string): void {
    this.total += text.length;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lines++;
    if (this.head.length < this.headMax) {
      const take = text.slice(0, this.headMax - this.head.length);
      this.head += take;
      text = text.slice(take.length);
    }
    this.tail += text;
    if (this.tail.length > 2 * this.tailMax) this.trimTail(); // amortised: not on every chunk
  }

  text(): string {
    this.trimTail();
    return this.cut ? `${this.head}\n[... ${this.cut} characters not kept ...]\n${this.tail}` : this.head + this.tail;
  }

  private trimTail(): void {
    if (this.tail.length <= this.tailMax) return;
    this.cut += this.tail.length - this.tailMax;
    this.tail = this.tail.slice(-this.tailMax);
  }
}

/** The first quarter and the last three quarters of `max` characters, cut at line ends, with a marker. */
export function headAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = text.slice(0, Math.floor(max / 4));
  let tail = text.slice(text.length - (max - head.length));
  if (head.lastIndexOf('\n') > head.length / 2) head = head.slice(0, head.lastIndexOf('\n') + 1);
  if (tail.indexOf('\n') >= 0 && tail.indexOf('\n') < tail.length / 2) tail = tail.slice(tail.indexOf('\n') + 1);
  const omitted = text.slice(head.length, text.length - tail.length);
  const lines = omitted.split('\n').length - 1;
  return `${head}[... ${lines} lines (${omitted.length} characters) omitted ...]\n${tail}`;
}

/**
 * Where a test runner's report of failures starts: pytest's FAILURES/ERRORS sections, jest's `FAIL`
 * and `●` blocks, vitest's "Failed Tests", mocha's "N failing", node:test's and TAP's `not ok`.
 */
const FAILURE_START = [
  /^=+ (FAILURES|ERRORS) =+$/m,
  /^FAIL\s/m,
  /^\s*● /m,
  /⎯+ Failed Tests? \d+ ⎯+/m,
  /^\s*\d+ failing$/m,
  /^\s*not ok \d+/m,
];

/**
 * The part of a failed check's output that explains the failure, within `max` characters: from the
 * earliest failure report to the end (the summary), dropping the passing noise before it; when that is
 * still too long, its start and its end. Output without a recognisable report gets its start and end.
 */
export function explainFailure(output: string, max: number): string {
  const starts = FAILURE_START.map((re) => output.search(re)).filter((i) => i >= 0);
  if (!starts.length) return headAndTail(output, max);
  const from = Math.min(...starts);
  const report = output.slice(from);
  const skipped =
    from > 0 ? `[... ${output.slice(0, from).split('\n').length - 1} lines before the failures omitted ...]\n` : '';
  return skipped + headAndTail(report, Math.max(0, max - skipped.length));
}

/**
 * How much of a command's output is not in `shown`, said in a last line: what was cut while it ran and what was cut
 * to explain it both count, so a 200 MB output is never reported as a few omitted lines. Nothing when whole.
 */
export function withCutNote(shown: string, whole: { total: number; lines: number }): string {
  if (shown.length >= whole.total) return shown;
  const cutChars = whole.total - shown.length;
  const cutLines = Math.max(0, whole.lines - (shown.split('\n').length - 1));
  const note = `[output: ${whole.total} characters in ${whole.lines} lines; about ${cutLines} lines (${cutChars} characters) not shown]`;
  return `${shown}${shown.endsWith('\n') || !shown ? '' : '\n'}${note}`;
}
