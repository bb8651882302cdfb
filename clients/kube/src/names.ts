import { createHash } from 'node:crypto';

const short = (s: string, n: number) => createHash('sha256').update(s).digest('hex').slice(0, n);

/**
 * A Job name: `prefix-` + a readable slug of `id` + a hash of `unique`, so two ids that slug alike never share a
 * Job. A DNS-1123 label of at most 63 characters.
 */
export function jobName(prefix: string, id: string, unique: string): string {
  const room = 63 - prefix.length - 1 - 1 - 10; // prefix, two dashes, the hash
  const slug = id
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, room)
    .replace(/-$/, '');
  return `${prefix}-${slug ? slug + '-' : ''}${short(unique, 10)}`;
}

/** A label value for an id: the id itself when it is one (ids are UUID-based), else a slug plus a hash. */
export function labelValue(id: string): string {
  if (id.length <= 63 && /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(id)) return id;
  const slug = id
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 52)
    .replace(/[^A-Za-z0-9]+$/, '');
  return `${slug ? slug + '-' : ''}${short(id, 10)}`;
}
