import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors';

/**
 * Reads settings once from the environment and validates them; a bad setting stops start-up with an error
 * naming each variable and what it expects.
 */
export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // An empty variable means "not set" (VAR= in a shell, an empty value in a manifest).
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`, { details: { problems } });
  }
  return parsed.data;
}

export { z };

/** A comma-separated setting as its trimmed, non-empty items (unset or empty: none). */
export const commaSeparated = () =>
  z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );

/** A setting holding JSON, parsed and then checked by `schema`; `shape` says what is expected when it is not JSON. */
export const jsonVariable = <S extends z.ZodTypeAny>(schema: S, shape: string) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be JSON: ${shape}` });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** Settings every process reads (the logger's level). */
export const runtimeConfigSchema = z.object({
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

/** loadConfig for an entry point: a bad setting prints what is wrong and exits 78 (EX_CONFIG), no stack. */
export function loadConfigOrExit<S extends z.ZodTypeAny>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  try {
    return loadConfig(schema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(78);
  }
}

/**
 * A directory a setting names for the process's own state, made at start-up: where it cannot be (a read-only
 * root filesystem, as in the image when the setting keeps its default), start-up stops with a ConfigError
 * naming the setting and what else would do, instead of failing later.
 */
export function ensureWritableDir(dir: string, setting: string, instead: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = whyNotWritable(path.resolve(dir)) ?? (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(`${setting}: cannot write ${path.resolve(dir)} (${code}): ${instead}`, {
      details: { setting, dir },
    });
  }
}

/** Why the nearest existing directory cannot be written (EROFS, EACCES): a recursive mkdir says only ENOENT. */
function whyNotWritable(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (!existsSync(d)) continue;
    try {
      accessSync(d, constants.W_OK);
      return undefined;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code;
    }
  }
}
