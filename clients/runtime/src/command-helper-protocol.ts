/** The messages between a process and its command helper (commands.ts, command-helper-main.ts), by `id`. */

export type HelperRequest =
  | {
      t: 'run';
      id: number;
      file: string;
      args: string[];
      cwd: string;
      env: NodeJS.ProcessEnv;
      maxBuffer?: number;
    }
  | { t: 'start'; id: number; file: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv }
  | { t: 'in'; id: number; data: Buffer }
  | { t: 'end'; id: number }
  | { t: 'kill'; id: number; signal: NodeJS.Signals };

export type HelperReply =
  | { t: 'ready' }
  | {
      t: 'ran';
      id: number;
      stdout: string;
      stderr: string;
      error?: { message: string; code?: number | string; signal?: NodeJS.Signals | null };
    }
  | { t: 'out'; id: number; fd: 1 | 2; data: Buffer }
  | { t: 'error'; id: number; message: string; code?: string }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };
