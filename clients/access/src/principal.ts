// Who is calling the farm's HTTP surfaces, and what they may do. Authenticators turn a bearer credential into a
// Principal (the farm's own tokens; in a cluster, Kubernetes identities); routes ask for a scope.

/** What a caller may do: read (lists, status, events, lessons), submit, cancel, admin (tokens, audit, all). */
export type Scope = 'read' | 'submit' | 'cancel' | 'approve' | 'admin';

export const SCOPES: readonly Scope[] = ['read', 'submit', 'cancel', 'approve', 'admin'];

/** An authenticated caller. `subject` is recorded with what it does (requests, cancels, audit). */
export interface Principal {
  /** e.g. `token:ci-bot`, `system:serviceaccount:team-a:deployer`, `component:code-planner`. */
  subject: string;
  /** How it was authenticated. */
  via: 'token' | 'kubernetes' | 'component';
  /**
   * The scopes it holds; undefined when they are decided per request (Kubernetes: SubjectAccessReview), then
   * `Authenticator.allows` answers.
   */
  scopes?: readonly Scope[];
}

/** Turns a bearer credential into a Principal, or undefined when it is not one this authenticator knows. */
export interface Authenticator {
  authenticate(bearer: string): Promise<Principal | undefined>;
  /** Whether the principal may act with the scope (for principals without fixed `scopes`). */
  allows?(principal: Principal, scope: Scope): Promise<boolean>;
}
