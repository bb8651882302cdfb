import { farm } from '@farm/proto';

const K = farm.v1.TaskKind;

/** Conventional-commit prefixes (`docs: ...`, `fix(parser): ...`) say the kind outright. */
const PREFIXES: Record<string, farm.v1.TaskKind> = {
  docs: K.DOCS,
  doc: K.DOCS,
  fix: K.FIX,
  feat: K.FEATURE,
  feature: K.FEATURE,
  refactor: K.REFACTOR,
  test: K.TEST,
  tests: K.TEST,
};
const DOCS = /\b(readme|docs?|documentation|document|docstrings?|changelog|typos?|spelling|comments?)\b/i;
const TEST =
  /^(add|write|extend|improve)?\s*(unit |integration |regression )?tests?\b|\btests? (for|of|covering)\b|^cover\b/i;
const REFACTOR = /\b(refactor|rename|restructure|extract|move|simplify|clean ?up|deduplicate)\b/i;
const FIX = /\b(fix|fixes|bug|crash(es)?|broken|regression|wrong|incorrect|fails?|failing|error|exception|leak)\b/i;

/**
 * The kind of task a one-line goal asks for, read from its words: a documentation change is judged by its checks,
 * not by failing tests (it has none), which a FEATURE would need. Documentation words win over "fix" ("Fix the
 * typo in the README" is documentation); anything not recognised is a FEATURE.
 */
export function kindOfGoal(title: string): farm.v1.TaskKind {
  const line = title.trim().split('\n')[0];
  const prefix = /^(\w+)(\([^)]*\))?!?:/.exec(line)?.[1]?.toLowerCase();
  if (prefix && prefix in PREFIXES) return PREFIXES[prefix];
  if (DOCS.test(line)) return K.DOCS;
  if (TEST.test(line)) return K.TEST;
  if (REFACTOR.test(line)) return K.REFACTOR;
  if (FIX.test(line)) return K.FIX;
  return K.FEATURE;
}
