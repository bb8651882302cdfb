/**
 * Which variables a sandboxed command may not be given: names and values that look like credentials. Applied
 * where a request is made (so a secret never even reaches the sandbox runner) and again where it runs.
 */
const SECRET_NAMES = [
  /^OPENAI_/i,
  /TOKEN/i,
  /(^|_)KEY(_|$)/i,
  /SECRET/i,
  /PASS(WORD|WD)?(_|$)/i,
  /CREDENTIAL/i,
  /(^|_)AUTH(_|$)/i,
  /^AWS_/i,
  /^GIT_(ASKPASS|CONFIG|CREDENTIAL|SSH)/i, // GIT_CONFIG_* can carry http.extraHeader with a token
  /^SSH_(AUTH_SOCK|ASKPASS)$/i,
];
const CREDENTIAL_IN_URL = /:\/\/[^/\s:@]+:[^/\s@]+@/;

/** The variables that may be passed (unset ones left out), and the names of those that look like secrets. */
export function withoutSecrets(env: Record<string, string | undefined> = {}): {
  kept: Record<string, string>;
  dropped: string[];
} {
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SECRET_NAMES.some((re) => re.test(name)) || CREDENTIAL_IN_URL.test(value)) dropped.push(name);
    else kept[name] = value;
  }
  return { kept, dropped };
}
