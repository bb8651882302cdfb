import { farm, taskStateName } from '@farm/proto';
import { formatTransition } from './format';

/** What `farm submit --watch` and `farm watch` know about a request while it runs. */
export interface Progress {
  phase: string;
  tasks: Map<string, string>;
  startedAt: number;
}

export function newProgress(now: number): Progress {
  return { phase: 'SUBMITTED', tasks: new Map(), startedAt: now };
}

/** Folds one transition into the progress (pure). */
export function advance(p: Progress, t: farm.v1.PhaseTransition): Progress {
  const tasks = new Map(p.tasks);
  if (t.taskId) tasks.set(t.taskId, taskStateName(t.taskState) || farm.v1.CommitStatus[t.taskStatus] || 'PENDING');
  return { ...p, phase: t.taskId ? p.phase : farm.v1.Phase[t.toPhase], tasks };
}

/** One status line: phase, tasks done/total, elapsed. */
export function statusLine(p: Progress, now: number): string {
  const done = [...p.tasks.values()].filter((s) => s === 'SUCCESS').length;
  const running = [...p.tasks.values()].filter((s) => s === 'DISPATCHED').length;
  const s = Math.max(0, Math.round((now - p.startedAt) / 1000));
  const elapsed = s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
  return `${p.phase}  tasks ${done}/${p.tasks.size} done${running ? `, ${running} running` : ''}  ${elapsed}`;
}

/**
 * Prints transitions as lines; on a terminal also keeps a live status line at the bottom (redrawn every second),
 * piped output gets only the plain lines.
 */
export class ProgressView {
  private progress: Progress;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly json: boolean,
  ) {
    this.progress = newProgress(Date.now());
    if (out.isTTY && !json) {
      this.timer = setInterval(() => this.redraw(), 1000);
      this.timer.unref();
    }
  }

  get live(): boolean {
    return this.timer !== undefined;
  }

  show(t: farm.v1.PhaseTransition, asJson: () => unknown): void {
    this.progress = advance(this.progress, t);
    const line = this.json ? JSON.stringify(asJson()) : formatTransition(t);
    if (this.live) this.out.write(`\r\x1b[2K${line}\n`);
    else this.out.write(line + '\n');
    this.redraw();
  }

  close(): void {
    if (!this.live) return;
    clearInterval(this.timer);
    this.out.write(`\r\x1b[2K${statusLine(this.progress, Date.now())}\n`);
  }

  private redraw(): void {
    if (this.live) this.out.write(`\r\x1b[2K${statusLine(this.progress, Date.now())}`);
  }
}
