import { sameSecret } from './bearer-token';
import type { Authenticator, Principal } from './principal';

/**
 * One secret given in the settings, as one principal: FARM_ADMIN_TOKEN (a cluster's first admin, from a
 * Secret) or FARM_COMPONENT_TOKEN (the farm's own components calling its internal services).
 */
export class StaticTokenAuthenticator implements Authenticator {
  constructor(
    private readonly secret: string,
    private readonly principal: Principal,
  ) {}

  async authenticate(bearer: string): Promise<Principal | undefined> {
    return sameSecret(bearer, this.secret) ? this.principal : undefined;
  }
}

/** The farm's components among themselves (srm, RAG service): they hold every scope of those services. */
export const componentPrincipal: Principal = { subject: 'component:farm', via: 'component', scopes: ['admin'] };

/** The admin whose token a cluster gives in FARM_ADMIN_TOKEN. */
export const bootstrapAdminPrincipal: Principal = { subject: 'token:farm-admin', via: 'token', scopes: ['admin'] };
