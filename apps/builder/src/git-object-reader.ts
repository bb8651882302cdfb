import { startCommand, type PipedCommand } from '@farm/runtime';

/** An object as `git cat-file --batch` answers it. */
export interface GitObject {
  type: string;
  data: Buffer;
}

/**
 * The answers of `git cat-file --batch` as they arrive, in pieces: `<oid> <type> <size>\n<data>\n` each, or
 * `<name> missing\n` (or ambiguous). Pure: `take` hands out answers only once all of them have arrived.
 */
export class BatchAnswers {
  private buf = Buffer.alloc(0);

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
  }

  /** The next `count` answers (undefined for a missing object), or undefined while some have not arrived. */
  take(count: number): (GitObject | undefined)[] | undefined {
    const objects: (GitObject | undefined)[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      const eol = this.buf.indexOf(0x0a, at);
      if (eol < 0) return undefined;
      const header = this.buf.subarray(at, eol).toString('utf8');
      at = eol + 1;
      const m = /^[0-9a-f]{40,64} (\S+) (\d+)$/.exec(header);
      if (!m) {
        objects.push(undefined); // missing or ambiguous
        continue;
      }
      const size = Number(m[2]);
      if (this.buf.length < at + size + 1) return undefined;
      objects.push({ type: m[1], data: this.buf.subarray(at, at + size) });
      at += size + 1;
    }
    this.buf = this.buf.subarray(at);
    return objects;
  }

  /** Bytes received and not handed out yet. */
  get pending(): number {
    return this.buf.length;
  }
}

/** `git cat-file --batch` ended or failed: what it said. */
export class ObjectReaderClosed extends Error {}

/**
 * Objects of one repository read through a single `git cat-file --batch` process, one batch of names after
 * another (git answers each name as soon as it is asked), until `close`: a caller whose next names depend on
 * the last answers (a tree's entries, then their blobs) pays one process, not one per batch.
 */
export class GitObjectReader {
  private readonly child: PipedCommand;
  private readonly answers = new BatchAnswers();
  private readonly waiting: Array<{
    count: number;
    resolve(objects: (GitObject | undefined)[]): void;
    reject(err: Error): void;
  }> = [];
  private failure?: Error;
  private readonly exited: Promise<void>;

  constructor(gitDir: string) {
    this.child = startCommand('git', ['-C', gitDir, 'cat-file', '--batch'], {
      env: process.env, // as the build's other git commands get it
    });
    let stderr = '';
    this.child.stdout.on('data', (d: Buffer) => {
      this.answers.push(d);
      this.deliver();
    });
    this.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Writing to a git that already exited fails with EPIPE; its exit ('close' below) says why.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.fail(err);
        resolve();
      });
      this.child.on('close', (code) => {
        this.fail(new ObjectReaderClosed(`git cat-file --batch exited ${code}: ${stderr.trim()}`));
        resolve();
      });
    });
  }

  /** The objects `specs` name (`<rev>`, `<rev>^{tree}`, `<tree>:<path>`…), each undefined when missing. */
  read(specs: string[]): Promise<(GitObject | undefined)[]> {
    // One name a line: a name with a newline cannot be asked (it would shift every later answer).
    const asked = specs.filter((s) => !s.includes('\n'));
    if (!asked.length) return Promise.resolve(specs.map(() => undefined));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<(GitObject | undefined)[]>((resolve, reject) => {
      this.waiting.push({ count: asked.length, resolve, reject });
      this.child.stdin.write(asked.map((s) => `${s}\n`).join(''));
    }).then((objects) => {
      let next = 0;
      return specs.map((s) => (s.includes('\n') ? undefined : objects[next++]));
    });
  }

  /** Ends the process (it exits once its input ends). */
  async close(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }

  private deliver(): void {
    while (this.waiting.length) {
      const objects = this.answers.take(this.waiting[0].count);
      if (!objects) return;
      this.waiting.shift()!.resolve(objects);
    }
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
  }
}

/** `fn` with a reader of `gitDir`'s objects, closed after. */
export async function withObjectReader<T>(gitDir: string, fn: (objects: GitObjectReader) => Promise<T>): Promise<T> {
  const objects = new GitObjectReader(gitDir);
  try {
    return await fn(objects);
  } finally {
    await objects.close();
  }
}
