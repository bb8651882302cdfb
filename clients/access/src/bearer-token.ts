import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The farm's own tokens start with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'farm_';

/** A new random token: `farm_` and 32 random bytes, base64url. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * What the store keeps instead of the token: its sha256, hex. A token has 256 bits of entropy, so a fast hash
 * is enough (nothing to brute-force, unlike a password).
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the length of the expected secret does not leak either.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** The credential of an `Authorization: Bearer <token>` header; undefined when there is none. */
export function bearerCredential(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}
