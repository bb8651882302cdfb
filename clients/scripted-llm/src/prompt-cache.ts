/**
 * A stand-in for an endpoint's automatic prompt cache (OpenAI's: prefixes of 1024 tokens and more, in steps
 * of 128): a request's cached tokens are its longest prefix shared with a recent request. So a client that
 * rewrites the start of its conversation sees fewer cached tokens, as it would against a real endpoint.
 */
export class PromptCache {
  private readonly recent: string[] = [];

  constructor(private readonly keep = 64) {}

  /** Of `promptTokens`, how many a real cache would have served for this request; remembers the request. */
  cachedTokens(serialized: string, promptTokens: number): number {
    let shared = 0;
    for (const earlier of this.recent) shared = Math.max(shared, commonPrefix(earlier, serialized));
    this.recent.push(serialized);
    if (this.recent.length > this.keep) this.recent.shift();
    const tokens = Math.floor((promptTokens * shared) / Math.max(1, serialized.length));
    return tokens < 1024 ? 0 : tokens - (tokens % 128);
  }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
