/**
 * The command denylist: refuses commands that destroy what the agent works on, reach past the sandbox
 * (privileges, other hosts) or damage the machine. It judges the parsed command — program names and their
 * flags — never substrings, so `sudoku`, `rmdir`, `grep -rf` or `echo "git push -f"` pass while
 * `/usr/bin/git push -uf origin x`, `bash -c "sudo ..."` or `echo $(rm -rf ~)` do not.
 *
 * It is a guard against mistakes and plain intent, not a security boundary: a determined script can
 * always build a command at run time (`$CMD`, `base64 -d | sh` of its own file, a Python subprocess).
 * The sandbox (namespaces, limits, scrubbed environment) is what contains such code.
 */
import { posix } from 'node:path';
import { parseShell, ShellSyntaxError, type Script, type Segment, type SimpleCommand, type Word } from './shell-parse';

export type CommandVerdict = { allowed: true } | { allowed: false; rule: string; reason: string };
type Denial = { rule: string; reason: string } | undefined;

/** Branches nobody's agent may push to directly; its own work goes to `agt/<task_id>`. */
export const PROTECTED_BRANCHES = new Set(['main', 'master']);

const MAX_DEPTH = 8; // `bash -c "sh -c '...'"` re-parsing; deeper than this is refused rather than guessed
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php', 'lua']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch']);
const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'run0']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const DISK_TOOLS = new Set(['mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'cfdisk', 'parted', 'sgdisk']);
const NETWORK_TOOLS = new Set([
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'telnet',
  'ftp',
  'rsh',
  'sshpass',
]);
/** Top-level directories whose contents are the system: any depth below them is off limits. */
const SYSTEM_ROOTS = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'lib',
  'lib32',
  'lib64',
  'proc',
  'root',
  'sbin',
  'sys',
  'usr',
]);
const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|u?random|tty|stdin|stdout|stderr|fd\/\d+|pts\/\d+|shm\/.*)$/;

/**
 * Options of commands that only wrap another command (`env X=1 cmd`, `timeout 5 cmd`): those listed take
 * a value, so the wrapped command starts after them; `positional` counts operands before it.
 */
const WRAPPERS: Record<string, { withValue: string[]; positional?: number }> = {
  env: { withValue: ['-u', '--unset', '-C', '--chdir'] },
  nice: { withValue: ['-n', '--adjustment'] },
  nohup: { withValue: [] },
  time: { withValue: ['-f', '--format', '-o', '--output'] },
  timeout: { withValue: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  stdbuf: { withValue: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { withValue: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'] },
  setsid: { withValue: [] },
  exec: { withValue: ['-a'] },
  command: { withValue: [] },
  builtin: { withValue: [] },
  busybox: { withValue: [] },
  xargs: {
    withValue: ['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '--arg-file', '--delimiter', '--max-args'],
  },
};

/**
 * Judges a command before it runs. A string is parsed as a shell line (every command in it, in
 * substitutions and in `sh -c` scripts is judged); an argv array is taken as one program and its arguments.
 */
export function checkCommand(command: string[] | string): CommandVerdict {
  try {
    const denial =
      typeof command === 'string'
        ? checkSource(command, 0)
        : checkArgv(
            command.map((text) => ({ text, subs: [] })),
            0,
            {},
          );
    return denial ? { allowed: false, ...denial } : { allowed: true };
  } catch (err) {
    if (!(err instanceof ShellSyntaxError)) throw err;
    // What cannot be parsed cannot be judged; the shell would most likely reject it too
    return { allowed: false, rule: 'unparseable', reason: `the command line cannot be parsed: ${err.message}` };
  }
}

function checkSource(source: string, depth: number): Denial {
  if (depth > MAX_DEPTH)
    return { rule: 'too-deeply-nested', reason: 'shell scripts nested in shell scripts too deeply' };
  return checkScript(parseShell(source), depth);
}

function checkScript(script: Script, depth: number): Denial {
  for (const pipeline of script) {
    for (let k = 0; k < pipeline.length; k++) {
      const segment = pipeline[k];
      const denial =
        segment.kind === 'group'
          ? checkScript(segment.script, depth)
          : checkSimple(segment, depth, pipeline.slice(0, k));
      if (denial) return denial;
    }
  }
  return undefined;
}

interface Context {
  /** Here-document or here-string the command reads. */
  stdin?: string;
  /** Pipeline segments feeding this command's standard input. */
  upstream?: Segment[];
}

function checkSimple(cmd: SimpleCommand, depth: number, upstream: Segment[]): Denial {
  for (const word of [...cmd.words, ...cmd.redirects.map((r) => r.target)]) {
    for (const sub of word.subs) {
      const denial = checkScript(sub, depth);
      if (denial) return denial;
    }
  }
  for (const { op, target } of cmd.redirects) {
    const writes = op.startsWith('>') || op === '<>' || op.startsWith('&>');
    if (writes && target.text.startsWith('/dev/') && !HARMLESS_DEVICES.test(target.text)) {
      return { rule: 'device-write', reason: `writing to the device ${target.text} can destroy a disk or the system` };
    }
  }
  return checkArgv(cmd.words, depth, { stdin: cmd.stdin, upstream });
}

function checkArgv(words: Word[], depth: number, ctx: Context): Denial {
  let k = 0;
  while (k < words.length && (ASSIGNMENT.test(words[k].text) || RESERVED.has(words[k].text))) k++;
  if (k >= words.length) return undefined;
  const name = posix.basename(words[k].text);
  const rest = words.slice(k + 1);
  const args = rest.map((w) => w.text);

  if (PRIVILEGE.has(name)) return { rule: 'privilege-escalation', reason: `${name} runs commands as another user` };

  if (name in WRAPPERS) {
    if (name === 'command' && args.some((a) => a === '-v' || a === '-V')) return undefined; // only looks up
    if (name === 'env') {
      const split = args.findIndex((a) => a === '-S' || a.startsWith('--split-string'));
      if (split >= 0) {
        const script = args[split].includes('=') ? args[split].split('=').slice(1).join('=') : (args[split + 1] ?? '');
        return checkSource(script, depth + 1);
      }
    }
    const start = wrappedCommandStart(name, args);
    return start === undefined ? undefined : checkArgv(rest.slice(start), depth, name === 'xargs' ? {} : ctx);
  }

  if (SHELLS.has(name)) return checkShell(name, rest, depth, ctx);
  if (name === 'eval') return checkSource(args.join(' '), depth + 1) ?? downloadExecuted(name, rest);
  if (name === 'source' || name === '.') return downloadExecuted(name, rest);
  if (INTERPRETERS.has(name) || /^python3\.\d+$/.test(name)) {
    const readsStdin = args.length === 0 || args[0] === '-';
    if (readsStdin && ctx.upstream?.some(downloads)) return pipedDownload(name);
    return downloadExecuted(name, rest);
  }

  switch (name) {
    case 'git':
      return checkGit(args);
    case 'rm':
      return checkRm(args);
    case 'find':
      return checkFind(rest, depth);
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return checkPermissions(name, args);
    case 'dd': {
      const of = args.find((a) => a.startsWith('of=/dev/') && !HARMLESS_DEVICES.test(a.slice(3)));
      return of ? { rule: 'device-write', reason: `dd ${of} overwrites a device` } : undefined;
    }
    case 'kill':
      return checkKill(args);
    case 'systemctl':
    case 'init':
    case 'telinit':
      return args.some((a) => ['reboot', 'poweroff', 'halt', 'kexec', '0', '6'].includes(a))
        ? { rule: 'power-control', reason: `${name} ${args.join(' ')} stops or restarts the machine` }
        : undefined;
    case 'rsync':
      return args.some((a) => /^[^/.-][^/]*:/.test(a) || a === '-e' || a.startsWith('--rsh'))
        ? { rule: 'network-tool', reason: 'rsync to or from another host reaches past the sandbox' }
        : undefined;
  }
  if (POWER.has(name)) return { rule: 'power-control', reason: `${name} stops or restarts the machine` };
  if (/^mkfs(\..+)?$/.test(name) || DISK_TOOLS.has(name)) {
    return { rule: 'disk-format', reason: `${name} formats or repartitions disks` };
  }
  if (NETWORK_TOOLS.has(name)) {
    return { rule: 'network-tool', reason: `${name} opens connections to other hosts; checks run without network` };
  }
  return undefined;
}

/** Index in `args` where the wrapped command starts, or undefined when there is none. */
function wrappedCommandStart(name: string, args: string[]): number | undefined {
  const spec = WRAPPERS[name];
  let j = 0;
  while (j < args.length) {
    const a = args[j];
    if (a === '--') {
      j++;
      break;
    }
    if (name === 'env' && ASSIGNMENT.test(a)) j++;
    else if (!a.startsWith('-') || a === '-') break;
    else j += spec.withValue.includes(a) ? 2 : 1;
  }
  j += spec.positional ?? 0;
  return j < args.length ? j : undefined;
}

/** `sh -c SCRIPT`, `bash script.sh`, or a shell reading its script from stdin. */
function checkShell(name: string, rest: Word[], depth: number, ctx: Context): Denial {
  const args = rest.map((w) => w.text);
  let hasC = false;
  let readsStdin = false; // `-s`: the operands are the script's arguments, the script comes from stdin
  let j = 0;
  for (; j < args.length; j++) {
    const a = args[j];
    if (a === '--' || a === '-') {
      j++;
      break;
    }
    if (!/^[-+]./.test(a)) break;
    if (a.startsWith('--')) {
      if (a === '--rcfile' || a === '--init-file') j++;
      continue;
    }
    if (a.includes('c')) hasC = true;
    if (/^-[a-zA-Z]*s/.test(a)) readsStdin = true;
    if (/[oO]$/.test(a)) j++; // `-o pipefail`, `-euxo pipefail`: the option's value follows
  }
  const operand = rest[j];
  if (hasC) return operand ? (downloadExecuted(name, [operand]) ?? checkSource(operand.text, depth + 1)) : undefined;
  if (operand && !readsStdin) return downloadExecuted(name, [operand]); // `bash <(curl ...)`; a file cannot be judged
  if (ctx.upstream?.some(downloads)) return pipedDownload(name);
  if (ctx.stdin !== undefined) return checkSource(ctx.stdin, depth + 1);
  // `echo "rm -rf /" | sh`: the script is the text echoed into the shell
  const feeder = ctx.upstream?.at(-1);
  if (feeder?.kind === 'simple' && ['echo', 'printf'].includes(feeder.words[0]?.text ?? '')) {
    return checkSource(
      feeder.words
        .slice(1)
        .map((w) => w.text)
        .filter((t) => !/^-[neE]+$/.test(t))
        .join(' '),
      depth + 1,
    );
  }
  return undefined;
}

/** Does this pipeline segment run a downloader (at any depth of grouping)? */
function downloads(segment: Segment): boolean {
  if (segment.kind === 'group') return segment.script.some((p) => p.some(downloads));
  const first = segment.words.find((w) => !ASSIGNMENT.test(w.text));
  return first !== undefined && DOWNLOADERS.has(posix.basename(first.text));
}

function pipedDownload(name: string): Denial {
  return { rule: 'download-pipe-to-shell', reason: `downloaded code piped into ${name} runs unreviewed code` };
}

/** `sh -c "$(curl ...)"`, `bash <(wget ...)`, `eval "$(curl ...)"`: the download becomes the program. */
function downloadExecuted(name: string, words: Word[]): Denial {
  const fetched = words.some((w) => w.subs.some((sub) => sub.some((p) => p.some(downloads))));
  return fetched ? pipedDownload(name) : undefined;
}

const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']);

function checkGit(args: string[]): Denial {
  let j = 0;
  while (j < args.length && args[j].startsWith('-')) j += GIT_GLOBAL_WITH_VALUE.has(args[j]) ? 2 : 1;
  const sub = args[j];
  const subArgs = args.slice(j + 1);
  if (sub === 'push') return checkGitPush(subArgs);
  if (sub === 'reset' && subArgs.includes('--hard')) {
    // The patch under check is the uncommitted work tree; the agent rolls back with its own git client
    return { rule: 'git-reset-hard', reason: 'git reset --hard throws away the uncommitted changes being checked' };
  }
  if (sub === 'clean' && subArgs.some((a) => a === '--force' || /^-[a-zA-Z]*f/.test(a))) {
    return { rule: 'git-clean-force', reason: 'git clean -f deletes untracked files, including newly added ones' };
  }
  return undefined;
}

const PUSH_WITH_VALUE = new Set(['--repo', '--push-option', '--receive-pack', '--exec']);

function checkGitPush(args: string[]): Denial {
  let force: string | undefined;
  let deletes = false;
  let everyBranch = false;
  const operands: string[] = [];
  for (let j = 0; j < args.length; j++) {
    const a = args[j];
    if (a === '--') {
      operands.push(...args.slice(j + 1));
      break;
    }
    if (a.startsWith('--')) {
      const option = a.split('=')[0];
      if (['--force', '--force-with-lease', '--mirror'].includes(option)) force = option;
      if (option === '--delete' || option === '--prune') deletes = true;
      if (option === '--all' || option === '--branches') everyBranch = true;
      if (PUSH_WITH_VALUE.has(option) && !a.includes('=')) j++;
    } else if (a.startsWith('-') && a.length > 1) {
      // a cluster of short flags (`-uf`); `-o` takes the rest, or the next argument, as its value
      for (let q = 1; q < a.length; q++) {
        if (a[q] === 'o') {
          if (q === a.length - 1) j++;
          break;
        }
        if (a[q] === 'f') force = a;
        if (a[q] === 'd') deletes = true;
      }
    } else operands.push(a);
  }
  const refspecs = operands.slice(1); // the first operand is the remote
  const forcedRef = refspecs.find((r) => r.startsWith('+'));
  if (force || forcedRef) {
    return { rule: 'git-force-push', reason: `git push ${force ?? forcedRef} rewrites the remote's history` };
  }
  if (deletes || refspecs.some((r) => r.startsWith(':'))) {
    return { rule: 'git-push-delete', reason: 'git push that deletes remote branches' };
  }
  const protectedRef = refspecs.find((r) =>
    PROTECTED_BRANCHES.has(
      r
        .split(':')
        .at(-1)!
        .replace(/^refs\/heads\//, ''),
    ),
  );
  if (everyBranch || protectedRef) {
    const what = protectedRef ?? 'every branch';
    return {
      rule: 'git-push-protected-branch',
      reason: `git push to ${what}: ${[...PROTECTED_BRANCHES].join('/')} only change through review`,
    };
  }
  return undefined;
}

/**
 * Why deleting (or opening up) this path would be destructive, or undefined. `$HOME`/`~` count as the
 * home directory; `$X/` counts as `/` because an unset variable makes it so. A trailing `*` or `.*` glob
 * stands for its directory. Other expansions cannot be judged and pass.
 */
function dangerousPath(raw: string, opts: { workingDirectory: 'protected' | 'allowed' }): string | undefined {
  const p = raw.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, '~');
  if (/^\$\{?\w+\}?\/\*?$/.test(p)) return `${raw} is "/" when the variable is empty`;
  if (p.startsWith('~')) {
    const depth = segments(posix.normalize('/' + p.replace(/^~[^/]*/, ''))).length;
    return depth <= 1 ? `${raw} is the home directory or a directory directly in it` : undefined;
  }
  if (p.startsWith('/')) {
    const parts = segments(posix.normalize(p));
    if (parts.length === 0) return `${raw} is the root directory`;
    if (parts.length === 1) return `${raw} is a top-level system directory`;
    if (SYSTEM_ROOTS.has(parts[0])) return `${raw} is inside the system directory /${parts[0]}`;
    if (parts[0] === 'home' && parts.length === 2) return `${raw} is a user's home directory`;
    return undefined;
  }
  if (p.startsWith('$')) return undefined;
  const n = posix.normalize(p);
  if (n === '..' || n.startsWith('../')) return `${raw} is outside the working directory`;
  if (p === '.*' || p.endsWith('/.*')) return `${raw} matches ".." in some shells`;
  if (opts.workingDirectory === 'protected' && (n === '.' || n === './')) return `${raw} is the working directory`;
  return undefined;
}

/** Path segments with trailing whole-directory globs (`/*`, `/.*`) dropped. */
function segments(normalized: string): string[] {
  const parts = normalized.split('/').filter((s) => s && s !== '.');
  while (parts.length && (parts.at(-1) === '*' || parts.at(-1) === '.*')) parts.pop();
  return parts;
}

/** Operands (after `--`, or not starting with `-`) and whether a flag matched. Options may follow operands. */
function splitOptions(args: string[], flag: RegExp): { flagged: boolean; operands: string[] } {
  const operands: string[] = [];
  let flagged = false;
  for (let j = 0; j < args.length; j++) {
    if (args[j] === '--') {
      operands.push(...args.slice(j + 1));
      break;
    }
    if (args[j].startsWith('-') && args[j] !== '-') flagged ||= flag.test(args[j]);
    else operands.push(args[j]);
  }
  return { flagged, operands };
}

function checkRm(args: string[]): Denial {
  if (args.includes('--no-preserve-root')) {
    return { rule: 'rm-recursive-protected-path', reason: 'rm --no-preserve-root can delete the whole system' };
  }
  const { flagged: recursive, operands } = splitOptions(args, /^(-[a-zA-Z]*[rR]|--recursive$)/);
  if (!recursive) return undefined;
  for (const target of operands) {
    const why = dangerousPath(target, { workingDirectory: 'protected' });
    if (why) return { rule: 'rm-recursive-protected-path', reason: `recursive rm of ${target}: ${why}` };
  }
  return undefined;
}

function checkFind(rest: Word[], depth: number): Denial {
  const args = rest.map((w) => w.text);
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const startPoints = firstExpression < 0 ? args : args.slice(0, firstExpression);
  for (let j = 0; j < args.length; j++) {
    if (args[j] === '-delete') {
      // `find . -name '*.pyc' -delete` is routine: only where find starts matters
      const why = startPoints.map((p) => dangerousPath(p, { workingDirectory: 'allowed' })).find(Boolean);
      if (why) return { rule: 'rm-recursive-protected-path', reason: `find -delete: ${why}` };
    }
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(args[j])) {
      let end = j + 1;
      while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
      const denial = checkArgv(rest.slice(j + 1, end), depth + 1, {});
      if (denial) return denial;
      j = end;
    }
  }
  return undefined;
}

/** World-writable: others may write (a numeric mode's last digit has the 2 bit, or `o+w`, `a=rwx`, ...). */
function worldWritable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (parseInt(mode.at(-1)!, 8) & 2) !== 0;
  return mode.split(',').some((clause) => /^[ugoa]*[oa][ugoa]*[+=][rwxXst]*w/.test(clause));
}

function checkPermissions(name: string, args: string[]): Denial {
  const { flagged: recursive, operands } = splitOptions(args, /^(-[a-zA-Z]*R|--recursive$)/);
  const reference = args.some((a) => a.startsWith('--reference'));
  const [mode, targets] = reference ? [undefined, operands] : [operands[0], operands.slice(1)];
  for (const target of targets) {
    const why = dangerousPath(target, { workingDirectory: 'allowed' });
    if (why) return { rule: 'permissions-protected-path', reason: `${name} on ${target}: ${why}` };
  }
  if (name === 'chmod' && recursive && mode && worldWritable(mode)) {
    return { rule: 'chmod-world-writable', reason: `chmod -R ${mode} makes a whole tree writable by everyone` };
  }
  return undefined;
}

function checkKill(args: string[]): Denial {
  // `kill -9 -1` signals every process the user may signal: as root, the whole machine (the farm included)
  const signalSpec = args.length > 1 && args[0].startsWith('-') ? (['-s', '-n'].includes(args[0]) ? 2 : 1) : 0;
  const pids = args.slice(signalSpec).filter((a) => a !== '--');
  return pids.includes('-1') ? { rule: 'kill-all-processes', reason: 'kill -1 signals every process' } : undefined;
}
