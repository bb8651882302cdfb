/** The signature checks the webhook readers share; each compares in constant time and never echoes the body. */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import { type WebhookHeaders, WebhookRejected } from './forge';

/** One header's value (node gives repeated headers as an array: the first counts). */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  const one = Array.isArray(v) ? v[0] : v;
  return one === undefined || one === '' ? undefined : one;
}

export function requiredHeader(headers: WebhookHeaders, name: string): string {
  const v = headerValue(headers, name);
  if (v === undefined) throw new WebhookRejected(`missing ${name} header`);
  return v;
}

/**
 * Whether two secrets are equal, in time that depends on neither: both are hashed first, so
 * timingSafeEqual compares equal lengths and the length of the secret does not leak either.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** `sha256=<hex>`: the HMAC-SHA256 of the raw body under the secret (GitHub's and Gitea's X-Hub-Signature-256). */
export function hmacSha256Signature(rawBody: Buffer, secret: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Throws WebhookRejected unless `signature` is the body's `sha256=<hmac>` under `secret`. */
export function verifyHmacSha256(rawBody: Buffer, secret: string, signature: string, header: string): void {
  if (!secret) throw new WebhookRejected('no webhook secret is configured: deliveries cannot be verified');
  if (!/^sha256=[0-9a-f]{64}$/i.test(signature.trim())) throw new WebhookRejected(`${header} is not sha256=<hex>`);
  const expected = Buffer.from(hmacSha256Signature(rawBody, secret).slice(7), 'hex');
  const given = Buffer.from(signature.trim().slice(7).toLowerCase(), 'hex');
  if (!timingSafeEqual(expected, given)) throw new WebhookRejected(`${header} does not match the body`);
}
