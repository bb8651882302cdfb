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
