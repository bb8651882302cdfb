// An agent-like parent for the lifetime tests: starts one sandboxed command, as the coding agent does, and
// stays alive until it is killed. On SIGUSR1 it blocks its event loop for good, as a hung agent would, so
// that no timer of its own can end the command any more.
import { runSandboxed } from '../src/sandbox';

const [command, cwd, timeoutMs] = process.argv.slice(2);
process.on('SIGUSR1', () => {
  for (;;); // never returns: the event loop is blocked
});
runSandboxed({ command, cwd, timeoutMs: Number(timeoutMs) }).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (err: Error) => process.stderr.write(`${err.stack}\n`),
);
setInterval(() => undefined, 60_000); // stay alive after the command, until the test kills us
