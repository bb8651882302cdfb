import { bearerCredential } from './bearer-token';
import type { Authenticator, Principal, Scope } from './principal';

/** The answer to "may this request act with this scope": its principal, or a 401/403 with a reason and headers. */
export type AccessDecision =
  { principal: Principal } | { deny: 401 | 403; message: string; headers?: Record<string, string> };

/** `WWW-Authenticate` of a refusal (RFC 6750): a client learns it needs a bearer token, and which error it made. */
const challenge = (error?: 'invalid_token' | 'insufficient_scope', scope?: Scope): Record<string, string> => ({
  'www-authenticate': ['Bearer realm="agent-farm"', error && `error="${error}"`, scope && `scope="${scope}"`]
    .filter(Boolean)
    .join(', '),
});

/** Whether a principal with fixed scopes holds the scope; admin holds every scope. */
export function holdsScope(principal: Principal, scope: Scope): boolean {
  return !!principal.scopes && (principal.scopes.includes(scope) || principal.scopes.includes('admin'));
}

/**
 * Decides a request from its Authorization header: no bearer token or one no authenticator knows → 401, a
 * principal without the scope → 403. The messages never repeat the token.
 */
export async function decideAccess(
  authenticator: Authenticator,
  authorization: string | string[] | undefined,
  scope: Scope,
): Promise<AccessDecision> {
  const bearer = bearerCredential(authorization);
  if (!bearer) {
    return { deny: 401, message: 'this needs a bearer token (Authorization: Bearer <token>)', headers: challenge() };
  }
  const principal = await authenticator.authenticate(bearer);
  if (!principal) {
    return {
      deny: 401,
      message: 'the bearer token is not valid (unknown, revoked, expired or malformed)',
      headers: challenge('invalid_token'),
    };
  }
  const allowed = principal.scopes ? holdsScope(principal, scope) : !!(await authenticator.allows?.(principal, scope));
  if (!allowed) {
    return {
      deny: 403,
      message: `${principal.subject} may not do this: it needs the ${scope} scope`,
      headers: challenge('insufficient_scope', scope),
    };
  }
  return { principal };
}

/** Asks each authenticator in turn; the first that knows the credential answers (and decides `allows`). */
export function anyOf(...authenticators: Authenticator[]): Authenticator {
  const owner = new WeakMap<Principal, Authenticator>();
  return {
    async authenticate(bearer) {
      for (const a of authenticators) {
        const principal = await a.authenticate(bearer);
        if (principal) {
          owner.set(principal, a);
          return principal;
        }
      }
      return undefined;
    },
    async allows(principal, scope) {
      const a = owner.get(principal);
      return !!a?.allows && a.allows(principal, scope);
    },
  };
}
