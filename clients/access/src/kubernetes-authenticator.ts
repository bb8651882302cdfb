// The platform's own identities: a Kubernetes ServiceAccount or user token, checked with TokenReview, and what
// it may do decided by SubjectAccessReview on a virtual resource, so a platform team grants the farm's scopes
// with ordinary RBAC (a Role or ClusterRole naming `changerequests` in the API group `farm.dev`).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { FarmError, silentLogger, type Logger } from '@farm/runtime';
import type { Authenticator, Principal, Scope } from './principal';

/** The virtual resource the farm's scopes are verbs on: `changerequests.farm.dev`. Nothing serves it. */
export const FARM_API_GROUP = 'farm.dev';
export const CHANGE_REQUESTS_RESOURCE = 'changerequests';

/**
 * The RBAC verb each scope asks for. `admin` holds every scope (as a farm token with the admin scope does), and
 * RBAC's `*` matches every verb, `admin` included.
 */
export const SCOPE_VERBS: Readonly<Record<Scope, string>> = {
  read: 'get',
  submit: 'create',
  cancel: 'delete',
  // A verb of its own (RBAC allows any): who may approve a plan is granted apart from who may submit one.
  approve: 'approve',
  admin: 'admin',
};

/** The user a TokenReview names, as a SubjectAccessReview needs it back (groups carry most grants). */
export interface KubernetesUser {
  username: string;
  uid?: string;
  groups: readonly string[];
  extra?: Record<string, string[]>;
}

/** A caller authenticated by the API server; its scopes are decided per request. */
export interface KubernetesPrincipal extends Principal {
  via: 'kubernetes';
  user: KubernetesUser;
}

export interface ResourceCheck {
  verb: string;
  /** Undefined: only cluster-wide grants (ClusterRoleBindings) count. */
  namespace?: string;
}

/** The two API calls, behind an interface so the decisions can be tested apart from the API server. */
export interface KubernetesReviews {
  /** The token's user, or undefined when the API server does not authenticate it (with its reason). */
  reviewToken(token: string, audiences: readonly string[]): Promise<{ user?: KubernetesUser; reason?: string }>;
  /** Whether RBAC (or the cluster's authorizer) lets `user` do `check` on changerequests.farm.dev. */
  reviewAccess(user: KubernetesUser, check: ResourceCheck): Promise<boolean>;
}

/** The API server could not answer a review; the caller gets 503, not 401/403. */
export class KubernetesReviewFailed extends FarmError {}

export interface KubernetesAuthenticatorOptions {
  /** Namespace of the virtual resource: a RoleBinding there grants the farm's scopes. */
  namespace?: string;
  /** Audiences a token must be for (TokenRequest `audiences`); empty: the API server's own. */
  audiences?: readonly string[];
  /** How long an answer is reused (> 0), so SSE streams and list polling do not ask again each time. */
  cacheTtlMs?: number;
  /** Tokens and decisions kept at most (each); the least recently used go first. */
  cacheMaxEntries?: number;
  log?: Logger;
  /** Milliseconds for the cache's ages (tests pass their own). */
  clock?: { now(): number };
}

const DEFAULT_TTL_MS = 10_000;
const DEFAULT_MAX_ENTRIES = 1000;

/** Wrapped, as the cache stores no undefined: an unauthenticated token is remembered too. */
type TokenAnswer = { principal?: KubernetesPrincipal };

export class KubernetesAuthenticator implements Authenticator {
  private readonly tokens: LRUCache<string, TokenAnswer, string>;
  private readonly decisions: LRUCache<string, { allowed: boolean }, { user: KubernetesUser; verb: string }>;
  private readonly log: Logger;

  constructor(
    private readonly reviews: KubernetesReviews,
    private readonly options: KubernetesAuthenticatorOptions = {},
  ) {
    this.log = options.log ?? silentLogger;
    const ttl = options.cacheTtlMs ?? DEFAULT_TTL_MS;
    const max = options.cacheMaxEntries ?? DEFAULT_MAX_ENTRIES;
    const timing = options.clock ? { perf: options.clock, ttlResolution: 0 } : {};
    // fetch() also joins concurrent asks for one key into one review; a failed review is not kept.
    this.tokens = new LRUCache({
      max,
      ttl,
      ...timing,
      fetchMethod: async (_key, _stale, { context: token }) => this.review(token),
    });
    this.decisions = new LRUCache({
      max,
      ttl,
      ...timing,
      fetchMethod: async (_key, _stale, { context: { user, verb } }) => ({
        allowed: await this.reviews.reviewAccess(user, { verb, namespace: this.options.namespace }),
      }),
    });
  }

  async authenticate(bearer: string): Promise<KubernetesPrincipal | undefined> {
    if (!bearer) return undefined;
    // Keyed by a hash: the cache holds no usable credential.
    const key = createHash('sha256').update(bearer).digest('base64url');
    const answer = await this.tokens.fetch(key, { context: bearer });
    return answer?.principal;
  }

  async allows(principal: Principal, scope: Scope): Promise<boolean> {
    if (!isKubernetesPrincipal(principal)) return false;
    if (await this.decide(principal.user, SCOPE_VERBS[scope])) return true;
    return scope !== 'admin' && this.decide(principal.user, SCOPE_VERBS.admin);
  }

  private async decide(user: KubernetesUser, verb: string): Promise<boolean> {
    const key = JSON.stringify([user.username, user.uid, [...user.groups].sort(), user.extra, verb]);
    const answer = await this.decisions.fetch(key, { context: { user, verb } });
    return answer!.allowed;
  }

  private async review(token: string): Promise<TokenAnswer> {
    const { user, reason } = await this.reviews.reviewToken(token, this.options.audiences ?? []);
    if (!user) {
      this.log.debug('kubernetes token not authenticated', { reason: reason ?? 'not authenticated' });
      return {};
    }
    return { principal: { subject: user.username, via: 'kubernetes', user } };
  }
}

export function isKubernetesPrincipal(p: Principal): p is KubernetesPrincipal {
  return p.via === 'kubernetes' && typeof (p as KubernetesPrincipal).user?.username === 'string';
}
