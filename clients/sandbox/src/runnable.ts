/**
 * Whether a check's program can run at all in the sandbox, asked before it runs: a program that is not on the
 * PATH the sandbox gives (not installed, not executable, or in a PATH directory under /tmp, which the sandbox's
 * private /tmp hides) fails the same way whatever the model changes, so the task should end at once with that
 * reason instead of spending its attempts on it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseShell, ShellSyntaxError } from './shell-parse';

const exec = promisify(execFile);
/** bash's own lookup (builtins, keywords, functions, files); bash names a non-executable file too, so test it. */
const TYPE_OF =
  't=$(type -t -- "$1"); if [ "$t" = file ]; then [ -x "$(type -P -- "$1")" ] && echo file; else echo "$t"; fi; true';

/** The program a command line starts with, when it can be told without running anything (else undefined). */
export function leadingProgram(command: string): string | undefined {
  let script;
  try {
    script = parseShell(command);
  } catch (err) {
    if (err instanceof ShellSyntaxError) return undefined; // bash will say what is wrong with it
    throw err;
  }
  const first = script[0]?.[0];
  if (!first || first.kind !== 'simple') return undefined;
  const words = first.words.map((w) => w.text).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const program = words[0];
  // a path is the repository's own (the model may be the one to create it); an expansion is not known yet
  if (!program || /[/$`*?[\]{}~]/.test(program)) return undefined;
  return program;
}

/** The PATH a sandboxed command sees: directories under /tmp are covered by its private /tmp when confined. */
export function visiblePath(path: string, privateTmp: boolean): string {
  if (!privateTmp) return path;
  return path
    .split(':')
    .filter((dir) => dir && dir !== '/tmp' && !dir.startsWith('/tmp/'))
    .join(':');
}

/** Why `command` cannot start in the sandbox, or undefined when it can (or cannot be told beforehand). */
export async function whyNotRunnable(command: string, path: string, privateTmp: boolean): Promise<string | undefined> {
  const program = leadingProgram(command);
  if (!program) return undefined;
  const seen = visiblePath(path, privateTmp);
  const { stdout } = await exec('bash', ['--norc', '--noprofile', '-c', TYPE_OF, 'farm-type', program], {
    env: { PATH: seen },
  });
  if (stdout.trim()) return undefined;
  const hidden = seen !== path && (await whyNotRunnable(command, path, false)) === undefined;
  return (
    `\`${program}\` is not a program the checks can run: ${hidden ? 'it is in a PATH directory under /tmp, which the sandbox covers with a private /tmp' : 'it is not an executable on the PATH checks get'} ` +
    `(PATH=${seen}). Install it where the farm runs, or change the check command`
  );
}

/** The first of these steps that cannot start in the sandbox (see whyNotRunnable), for a refusal before any work. */
export async function firstUnrunnableStep(
  steps: { name: string; run: string }[],
  path: string,
  privateTmp: boolean,
): Promise<{ name: string; reason: string } | undefined> {
  for (const step of steps) {
    const reason = await whyNotRunnable(step.run, path, privateTmp);
    if (reason) return { name: step.name, reason };
  }
  return undefined;
}
