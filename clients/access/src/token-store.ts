import { randomUUID } from 'node:crypto';
import { FarmError } from '@farm/runtime';
import type { SqlExecutor, SqlStore } from '@farm/store';
import { hashToken, newToken, sameSecret, TOKEN_PREFIX } from './bearer-token';
import { migrateAccess } from './access-schema';
import { recordAudit } from './audit-log';
import { SCOPES, type Authenticator, type Principal, type Scope } from './principal';

/** A token as the farm shows it: everything but the secret, which exists only in the answer that created it. */
export interface TokenRecord {
  id: string;
  name: string;
  scopes: Scope[];
  createdBy: string;
  createdAt: string;
  /** Refused from then on; none: until revoked. */
  expiresAt?: string;
  lastUsedAt?: string;
  revokedAt?: string;
  revokedBy?: string;
}

/** A token request the farm cannot take (bad name or scopes): the caller's to fix. */
export class InvalidTokenRequest extends FarmError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message, { retryable: false, details: { field } });
  }
}

/** A live token already has this name; revoke it or pick another. */
export class TokenNameTaken extends FarmError {
  constructor(readonly tokenName: string) {
    super(`a live token is already named ${tokenName}; revoke it first or choose another name`, {
      retryable: false,
    });
  }
}

/** No live token has this id or name. */
export class TokenNotFound extends FarmError {
  constructor(readonly idOrName: string) {
    super(`no live token with id or name ${idOrName}`, { retryable: false });
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The operator's rule for token lifetimes: what a request that names none gets, and the most one may ask. */
export interface TokenExpiryPolicy {
  defaultSeconds?: number;
  maxSeconds?: number;
}

/**
 * How long a requested token lives, in seconds (undefined: until revoked): the request's own choice within the
 * operator's maximum, else the operator's default (else the maximum).
 */
export function tokenLifetime(requested: unknown, policy: TokenExpiryPolicy = {}): number | undefined {
  if (requested === undefined || requested === null) return policy.defaultSeconds ?? policy.maxSeconds;
  if (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 60) {
    throw new InvalidTokenRequest('expiresInSeconds: a whole number of seconds, at least 60', 'expiresInSeconds');
  }
  if (policy.maxSeconds !== undefined && requested > policy.maxSeconds) {
    throw new InvalidTokenRequest(
      `expiresInSeconds: at most ${policy.maxSeconds} (the operator's FARM_TOKEN_MAX_TTL_S)`,
      'expiresInSeconds',
    );
  }
  return requested;
}

/** Checks a token request's name and scopes; the scopes deduplicated in the order SCOPES gives them. */
export function parseTokenRequest(name: unknown, scopes: unknown): { name: string; scopes: Scope[] } {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new InvalidTokenRequest(
      'name: 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit',
      'name',
    );
  }
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.length > SCOPES.length) {
    throw new InvalidTokenRequest(`scopes: a non-empty list of ${SCOPES.join(', ')}, each at most once`, 'scopes');
  }
  const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
  if (unknown.length) {
    throw new InvalidTokenRequest(`scopes: unknown ${unknown.join(', ')}; use ${SCOPES.join(', ')}`, 'scopes');
  }
  return { name, scopes: SCOPES.filter((s) => scopes.includes(s)) };
}

type TokenRow = {
  id: string;
  name: string;
  token_hash: string;
  scopes: Scope[];
  created_by: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  revoked_by: string | null;
  expires_at: Date | string | null;
};

const iso = (d: Date | string | null) => (d === null ? undefined : new Date(d).toISOString());
const toRecord = (r: TokenRow): TokenRecord => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  createdBy: r.created_by,
  createdAt: iso(r.created_at)!,
  ...(r.expires_at ? { expiresAt: iso(r.expires_at) } : {}),
  ...(r.last_used_at ? { lastUsedAt: iso(r.last_used_at) } : {}),
  ...(r.revoked_at ? { revokedAt: iso(r.revoked_at), revokedBy: r.revoked_by ?? undefined } : {}),
});

/** A token's principal: its subject names the token, so what it does is recorded under that name. */
export const tokenPrincipal = (t: { name: string; scopes: readonly Scope[] }): Principal => ({
  subject: `token:${t.name}`,
  via: 'token',
  scopes: t.scopes,
});

/**
 * The farm's bearer tokens on its SQL store (PostgreSQL or PGlite): kept as sha256 hashes, created and revoked
 * with an audit event in the same transaction. Every check reads the table, so a revoke holds at once.
 */
export class TokenStore {
  private constructor(
    private readonly store: SqlStore,
    private readonly expiry: TokenExpiryPolicy,
  ) {}

  /** `expiry`: the operator's rule for the tokens created through the API (FARM_TOKEN_TTL_S, FARM_TOKEN_MAX_TTL_S). */
  static async open(store: SqlStore, expiry: TokenExpiryPolicy = {}): Promise<TokenStore> {
    await migrateAccess(store);
    return new TokenStore(store, expiry);
  }

  /**
   * A new token; its secret is in this answer only. Its lifetime follows the operator's rule, unless `untilRevoked`
   * (the first admin token a farm makes for its operator, who must not be locked out by a default).
   */
  async create(
    request: { name: unknown; scopes: unknown; expiresInSeconds?: unknown },
    createdBy: string,
    options: { untilRevoked?: boolean } = {},
  ): Promise<TokenRecord & { token: string }> {
    const { name, scopes } = parseTokenRequest(request.name, request.scopes);
    const lifetime = options.untilRevoked ? undefined : tokenLifetime(request.expiresInSeconds, this.expiry);
    const token = newToken();
    return this.store.transaction(async (tx) => {
      const taken = await tx.query('SELECT 1 FROM farm_access_tokens WHERE name = $1 AND revoked_at IS NULL', [name]);
      if (taken.rows.length) throw new TokenNameTaken(name);
      const { rows } = await tx.query<TokenRow>(
        `INSERT INTO farm_access_tokens (id, name, token_hash, scopes, created_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + $6::float8 * interval '1 second')
         RETURNING *`,
        [randomUUID(), name, hashToken(token), scopes, createdBy, lifetime ?? null],
      );
      const created = toRecord(rows[0]);
      await recordAudit(tx, {
        subject: createdBy,
        action: 'token.create',
        detail: { tokenId: created.id, name, scopes, ...(created.expiresAt ? { expiresAt: created.expiresAt } : {}) },
      });
      return { ...created, token };
    });
  }

  /** Every token, live ones first, newest first; with revoked ones when asked. */
  async list(options: { includeRevoked?: boolean } = {}): Promise<TokenRecord[]> {
    const { rows } = await this.store.query<TokenRow>(
      `SELECT * FROM farm_access_tokens ${options.includeRevoked ? '' : 'WHERE revoked_at IS NULL'}
       ORDER BY revoked_at IS NOT NULL, created_at DESC, id`,
    );
    return rows.map(toRecord);
  }

  /** Revokes the live token with this id or name; from the next request on it is refused. */
  async revoke(idOrName: string, revokedBy: string): Promise<TokenRecord> {
    return this.store.transaction(async (tx) => {
      const { rows } = await tx.query<TokenRow>(
        `UPDATE farm_access_tokens SET revoked_at = now(), revoked_by = $2
         WHERE revoked_at IS NULL AND (id = $1 OR name = $1) RETURNING *`,
        [idOrName, revokedBy],
      );
      if (!rows.length) throw new TokenNotFound(idOrName);
      const revoked = toRecord(rows[0]);
      await recordAudit(tx, {
        subject: revokedBy,
        action: 'token.revoke',
        detail: { tokenId: revoked.id, name: revoked.name },
      });
      return revoked;
    });
  }

  /** The live token with this secret (not revoked, not expired), noting its use; undefined for anything else. */
  async verify(token: string): Promise<TokenRecord | undefined> {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const hash = hashToken(token);
    const { rows } = await this.store.query<TokenRow>(
      'SELECT * FROM farm_access_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())',
      [hash],
    );
    // The index found the row by its hash; compare once more in constant time rather than trust the lookup's.
    const row = rows[0];
    if (!row || !sameSecret(row.token_hash, hash)) return undefined;
    await markUsed(this.store, row.id);
    return toRecord(row);
  }
}

/** Notes a token's use, at most once a minute, so a busy client does not write on every request. */
async function markUsed(db: SqlExecutor, id: string): Promise<void> {
  await db.query(
    `UPDATE farm_access_tokens SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [id],
  );
}

/** The farm's own tokens as an Authenticator: a live token is its principal, with the scopes it was given. */
export class TokenAuthenticator implements Authenticator {
  constructor(private readonly tokens: TokenStore) {}

  async authenticate(bearer: string): Promise<Principal | undefined> {
    const found = await this.tokens.verify(bearer);
    return found && tokenPrincipal(found);
  }
}
