/**
 * Takes secret values (the model key, git tokens) out of text before it reaches the model, a log or the
 * trajectory: a repository may hold them (a committed .env, a test fixture), and the sandbox's scrubbed
 * environment does not cover files.
 */
export type Redactor = (text: string) => string;

/** Values shorter than this are too generic to redact without mangling ordinary text (e.g. "k", "none"). */
const MIN_SECRET_LENGTH = 8;

export function secretRedactor(secrets: (string | undefined)[]): Redactor {
  const values = [...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  if (!values.length) return (text) => text;
  return (text) => {
    let out = text;
    for (const v of values) if (out.includes(v)) out = out.split(v).join('[secret redacted]');
    return out;
  };
}
