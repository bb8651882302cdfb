/**
 * Git trailers (`Key: value` lines in the last paragraph of a commit message, as `git interpret-trailers`
 * reads them): the farm marks its commits with them so a commit says which task made it.
 */

const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*?)\s*$/;

/** `message` with a trailer paragraph of `trailers` appended (values must be single-line). */
export function withTrailers(message: string, trailers: Record<string, string>): string {
  const lines = Object.entries(trailers).map(([key, value]) => {
    if (!TRAILER_LINE.test(`${key}: x`) || /[\r\n]/.test(value)) throw new Error(`invalid trailer ${key}: ${value}`);
    return `${key}: ${value}`;
  });
  return `${message.trimEnd()}\n\n${lines.join('\n')}\n`;
}

/**
 * The trailers of a commit message: the last paragraph, when every line of it is a trailer (keys as written;
 * the first occurrence wins). A message without such a paragraph has none.
 */
export function parseTrailers(message: string): Map<string, string> {
  const paragraphs = message.trim().split(/\n\s*\n/);
  const trailers = new Map<string, string>();
  if (paragraphs.length < 2) return trailers; // the subject alone is never a trailer block
  const lines = paragraphs[paragraphs.length - 1].split('\n');
  const parsed = lines.map((l) => TRAILER_LINE.exec(l));
  if (parsed.some((m) => !m)) return trailers;
  for (const m of parsed) if (!trailers.has(m![1])) trailers.set(m![1], m![2]);
  return trailers;
}
