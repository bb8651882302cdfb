/**
 * The command helper (`command-helper` entry): started by a process that calls useCommandHelper (farm up)
 * with an IPC channel, it runs the commands asked there and answers with their outcome or streams. It
 * exits when the channel closes, i.e. with its parent, once the commands under way have ended.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { HelperReply, HelperRequest } from './command-helper-protocol';

if (!process.send) {
  process.stderr.write('command-helper: started without an IPC channel; it is started by farm up\n');
  process.exit(64);
}

const reply = (message: HelperReply) => {
  if (process.connected) process.send!(message);
};
const piped = new Map<number, ChildProcessWithoutNullStreams>();

process.on('message', (request: HelperRequest) => {
  switch (request.t) {
    case 'run':
      execFile(
        request.file,
        request.args,
        { cwd: request.cwd, env: request.env, maxBuffer: request.maxBuffer, encoding: 'utf8' },
        (err, stdout, stderr) => {
          const e = err as (Error & { code?: number | string; signal?: NodeJS.Signals | null }) | null;
          reply({
            t: 'ran',
            id: request.id,
            stdout,
            stderr,
            ...(e ? { error: { message: e.message, code: e.code, signal: e.signal } } : {}),
          });
        },
      );
      break;
    case 'start': {
      const { id } = request;
      const child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, stdio: 'pipe' });
      piped.set(id, child);
      child.stdout.on('data', (data: Buffer) => reply({ t: 'out', id, fd: 1, data }));
      child.stderr.on('data', (data: Buffer) => reply({ t: 'out', id, fd: 2, data }));
      child.stdin.on('error', () => undefined); // writing to a command that ended: its exit says why
      child.on('error', (err: NodeJS.ErrnoException) =>
        reply({ t: 'error', id, message: err.message, code: err.code }),
      );
      child.on('close', (code, signal) => {
        piped.delete(id);
        reply({ t: 'exit', id, code, signal });
      });
      break;
    }
    case 'in':
      piped.get(request.id)?.stdin.write(Buffer.from(request.data));
      break;
    case 'end':
      piped.get(request.id)?.stdin.end();
      break;
    case 'kill':
      piped.get(request.id)?.kill(request.signal);
      break;
  }
});

// The parent went away: nothing will read the answers; the commands under way end on their own.
process.on('disconnect', () => process.exit(0));
reply({ t: 'ready' });
