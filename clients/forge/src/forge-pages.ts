import type { ForgeHttp } from './forge-http';

/**
 * Every page of a list, up to `maxPages`, with only the paging parameters the forge documents (`page`,
 * `per_page`; GitHub's and GitLab's): stops when the answer's Link header has no rel="next".
 */
export async function followPages<T>(
  http: ForgeHttp,
  path: string,
  query: Record<string, string | number | undefined> = {},
  opts: { perPage?: number; maxPages?: number } = {},
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= (opts.maxPages ?? 20); page++) {
    const res = await http.request<T[]>('GET', path, { query: { ...query, per_page: opts.perPage ?? 100, page } });
    out.push(...(Array.isArray(res.body) ? res.body : []));
    if (!/rel="next"/.test(res.headers.get('link') ?? '')) break;
  }
  return out;
}
