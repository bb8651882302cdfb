import type { farm } from '@farm/proto';
import { splitCredentials } from '@farm/git';
import { environmentRedactor, type Redactor } from '@farm/runtime';

/** The most of a request's integration diff a BuildResult carries (as a task's report carries its diff). */
export const INTEGRATION_DIFF_CHARS = 64_000;

/** What a build's diff may be read into: more than git's output is shown as cut. */
export const INTEGRATION_DIFF_READ_BYTES = 64 * 1024 * 1024;

/**
 * A build's diff as its result carries it: each credential the build holds replaced (a repository may contain
 * one, and the diff is shown to anyone who may read the request), then cut at `max` characters at a line end
 * (redacted before the cut: a secret cut in half would no longer be recognised).
 */
export function boundedDiff(
  text: string,
  redact: Redactor,
  max = INTEGRATION_DIFF_CHARS,
): { diff: string; diffTruncated: boolean } {
  const diff = redact(text);
  if (diff.length <= max) return { diff, diffTruncated: false };
  const cut = diff.lastIndexOf('\n', max);
  return { diff: diff.slice(0, cut > 0 ? cut + 1 : max), diffTruncated: true };
}

/**
 * The request's change from `from` (its base, or the tip it was built on) to `merged` (the build's merge), as
 * every build records it for review (GET .../diff), in a process or in place: git's arguments read it with no
 * diff driver or text conversion of the repository's (.gitattributes) run, and bounded as boundedDiff says. A
 * diff too large to read (past INTEGRATION_DIFF_READ_BYTES) is shown as cut and never fails the build:
 * `onUnreadable` hears why.
 */
export async function integrationDiff(
  git: (args: string[]) => Promise<string>,
  range: { from: string; merged: string },
  request: farm.v1.IBuildRequest,
  onUnreadable: (err: unknown) => void,
): Promise<{ diff: string; diffTruncated: boolean }> {
  const args = ['-c', 'core.quotepath=false', 'diff', '--no-color', '--no-ext-diff', '--no-textconv'];
  const text = await git([...args, range.from, range.merged]).then(
    (stdout) => stdout,
    (err: unknown) => {
      onUnreadable(err);
      return undefined;
    },
  );
  if (text === undefined) return { diff: '', diffTruncated: true };
  return boundedDiff(text, buildRedactor(request));
}

/** The build's secrets: this process's, and the credentials git sends for the request's repository. */
export const buildRedactor = (request: farm.v1.IBuildRequest): Redactor =>
  environmentRedactor(process.env, [splitCredentials(request.repo?.url ?? '').auth?.password]);
