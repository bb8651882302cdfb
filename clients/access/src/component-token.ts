import { z } from '@farm/runtime';
import { decideAccess } from './scope-decision';
import { StaticTokenAuthenticator, componentPrincipal } from './static-token';

/** An empty variable (`FARM_X=` in a compose file) is no setting. */
export const emptyIsUnset = (value: unknown) => (value === '' ? undefined : value);

/**
 * The secret the farm's own components send to its internal services (srm, RAG service): in a cluster from a
 * Secret, on one machine generated in `farm up`'s state directory. Services given it refuse every other caller.
 */
export const componentTokenConfigSchema = z.object({
  FARM_COMPONENT_TOKEN: z.preprocess(emptyIsUnset, z.string().min(32).optional()),
});

/** The auth hook of an internal service: only a bearer of the component token gets through (401 otherwise). */
export function componentOnly(componentToken: string) {
  const authenticator = new StaticTokenAuthenticator(componentToken, componentPrincipal);
  return (r: { req: { headers: { authorization?: string } } }) =>
    decideAccess(authenticator, r.req.headers.authorization, 'admin');
}

/** The Authorization header a component sends, none without a token. */
export const componentAuthorization = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};
