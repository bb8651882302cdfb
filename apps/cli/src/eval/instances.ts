/**
 * Task instances in SWE-bench's published format (JSON Lines, as SWE-bench Lite, Verified and Pro ship them):
 * `FAIL_TO_PASS` and `PASS_TO_PASS` are JSON-encoded lists of test ids, as a string (the published files) or
 * as a list. Fields the farm adds, all optional: where the repository is (`repo_path`: a git bundle, a mirror
 * or a work tree, relative to the dataset file; else `repo_url`; else https://github.com/<repo>.git), how the
 * tests run (`test_cmd`, `log_parser`), an environment step (`setup_cmd`) and the command the agents check
 * with (`check_cmd`).
 */
import { FarmError, z } from '@farm/runtime';
import { shellQuote } from '@farm/sandbox';

export const LOG_PARSERS = ['pytest', 'pytest-v2', 'unittest', 'django', 'node-test'] as const;
export type LogParserName = (typeof LOG_PARSERS)[number];

/**
 * The parser SWE-bench's harness reads a repository's logs with (its `MAP_REPO_TO_PARSER_PY`), for the
 * repositories whose parser is one of the farm's: Django's runner, pytest's v2 reading (whole ids, spaces kept)
 * for astropy, scikit-learn and sphinx, pytest's first reading (ids cut at their first space) for the others.
 */
export function swebenchParserOf(repo: string): LogParserName {
  if (repo === 'django/django') return 'django';
  if (['astropy/astropy', 'scikit-learn/scikit-learn', 'sphinx-doc/sphinx'].includes(repo)) return 'pytest-v2';
  return 'pytest';
}

/** A line of the dataset that is not an instance: the file, the line and what is wrong, nothing dropped silently. */
export class InstanceFormatError extends FarmError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly problems: string[],
  ) {
    super(`${file}:${line}: not a task instance: ${problems.join('; ')}`, { retryable: false });
  }
}

/** A list of test ids: a JSON-encoded list in a string (as published), or a JSON list. */
const testList = (nonEmpty?: string) =>
  z.unknown().transform((value, ctx) => {
    let list: unknown = value;
    if (typeof value === 'string') {
      try {
        list = JSON.parse(value);
      } catch {
        list = undefined; // not JSON: reported below as not a list
      }
    }
    if (Array.isArray(list) && list.every((v) => typeof v === 'string')) {
      if (!list.length && nonEmpty) ctx.addIssue({ code: z.ZodIssueCode.custom, message: nonEmpty });
      return list as string[];
    }
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: value === undefined ? 'Required' : 'expected a JSON-encoded list of test ids',
    });
    return z.NEVER;
  });

const instanceSchema = z
  .object({
    instance_id: z.string().min(1),
    repo: z.string().min(1),
    base_commit: z.string().regex(/^[0-9a-f]{7,64}$/, 'expected a commit id (hex)'),
    problem_statement: z.string().min(1),
    test_patch: z.string().min(1),
    patch: z.string().optional(),
    FAIL_TO_PASS: testList('at least one test must go from failing to passing'),
    PASS_TO_PASS: testList(),
    environment_setup_commit: z.string().optional(),
    repo_path: z.string().min(1).optional(),
    repo_url: z.string().min(1).optional(),
    test_cmd: z.string().min(1).optional(),
    log_parser: z.enum(LOG_PARSERS).optional(),
    setup_cmd: z.string().min(1).optional(),
    check_cmd: z.string().min(1).optional(),
  })
  .passthrough();

export type TaskInstance = z.infer<typeof instanceSchema>;

/** Parses a dataset's text; every bad line is reported (with its number), and so is a repeated id. */
export function parseInstances(text: string, file = 'dataset'): TaskInstance[] {
  const instances: TaskInstance[] = [];
  const errors: InstanceFormatError[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const lineNo = index + 1;
    if (!raw.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      errors.push(new InstanceFormatError(file, lineNo, [`not valid JSON: ${(err as Error).message}`]));
      return;
    }
    const parsed = instanceSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(the line)'}: ${i.message}`);
      errors.push(new InstanceFormatError(file, lineNo, problems));
      return;
    }
    const first = seen.get(parsed.data.instance_id);
    if (first !== undefined) {
      errors.push(
        new InstanceFormatError(file, lineNo, [`instance_id ${parsed.data.instance_id} repeats line ${first}`]),
      );
      return;
    }
    seen.set(parsed.data.instance_id, lineNo);
    instances.push(parsed.data);
  });
  if (errors.length === 1) throw errors[0];
  if (errors.length) throw new DatasetInvalid(file, errors);
  return instances;
}

/** Several bad lines: each named. */
export class DatasetInvalid extends FarmError {
  constructor(
    readonly file: string,
    readonly errors: InstanceFormatError[],
  ) {
    super(
      `${file}: ${errors.length} lines are not task instances:\n${errors.map((e) => `  ${e.message}`).join('\n')}`,
      {
        retryable: false,
      },
    );
  }
}

/** The instances named by `ids` (all when none), in the dataset's order; an unknown id is an error. */
export function selectInstances(all: TaskInstance[], ids: string[] | undefined): TaskInstance[] {
  if (!ids?.length) return all;
  const known = new Set(all.map((i) => i.instance_id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length)
    throw new FarmError(`no such instance in the dataset: ${unknown.join(', ')}`, { retryable: false });
  const wanted = new Set(ids);
  return all.filter((i) => wanted.has(i.instance_id));
}

/** The paths a unified diff touches (both sides, without a/ and b/), in order. */
export function patchedFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const m of patch.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) {
    files.add(m[1]);
    files.add(m[2]);
  }
  for (const m of patch.matchAll(/^(?:---|\+\+\+) [ab]\/(\S+)/gm)) files.add(m[1]);
  return [...files];
}

/**
 * The test command when the instance names none: over the test files its test patch touches, `node --test` for
 * JavaScript ones, pytest otherwise. Each file is one word of the command, whatever its name says (`$(...)`,
 * spaces, a leading `-`): the shell expands nothing in it, and the runner takes none of them for an option.
 */
export function testCommandOf(instance: TaskInstance): { command: string; parser: LogParserName } {
  if (instance.test_cmd) {
    return { command: instance.test_cmd, parser: instance.log_parser ?? swebenchParserOf(instance.repo) };
  }
  const files = patchedFiles(instance.test_patch).filter((f) => f !== '/dev/null');
  const args = (list: string[]) => list.map((f) => shellQuote(f.startsWith('-') ? `./${f}` : f)).join(' ');
  const js = files.filter((f) => /\.(c|m)?js$/.test(f));
  if (js.length && !files.some((f) => f.endsWith('.py'))) {
    return { command: `node --test --test-reporter=tap ${args(js)}`, parser: instance.log_parser ?? 'node-test' };
  }
  const py = files.filter((f) => f.endsWith('.py'));
  return {
    command: `python3 -m pytest -rA -p no:cacheprovider ${args(py)}`.trim(),
    // pytest's log, read as SWE-bench reads the repository's pytest logs
    parser: instance.log_parser ?? (swebenchParserOf(instance.repo) === 'pytest-v2' ? 'pytest-v2' : 'pytest'),
  };
}
