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
