import type { Redactor } from '@farm/runtime';

/** The most of a request's integration diff a BuildResult carries (as a task's report carries its diff). */
export const INTEGRATION_DIFF_CHARS = 64_000;

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
