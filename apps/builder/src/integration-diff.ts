/** The most of a request's integration diff a BuildResult carries (as a task's report carries its diff). */
export const INTEGRATION_DIFF_CHARS = 64_000;

/**
 * A build's diff as its result carries it: each credential the build holds replaced (a repository may contain
 * one, and the diff is shown to anyone who may read the request), then cut at `max` characters at a line end.
 */
export function boundedDiff(
  text: string,
  secrets: readonly (string | undefined)[],
  max = INTEGRATION_DIFF_CHARS,
): { diff: string; diffTruncated: boolean } {
  let diff = text;
  // Short values would replace ordinary text; no credential is that short.
  for (const secret of secrets) if (secret && secret.length >= 8) diff = diff.split(secret).join('[secret redacted]');
  if (diff.length <= max) return { diff, diffTruncated: false };
  const cut = diff.lastIndexOf('\n', max);
  return { diff: diff.slice(0, cut > 0 ? cut + 1 : max), diffTruncated: true };
}
