/**
 * Which repository a git remote URL names on a forge: the adapters' shared answer to `Forge.repoFor`. Handles
 * http(s) URLs (credentials ignored, the forge's path prefix stripped), ssh:// URLs and scp-like
 * `git@host:owner/name.git`; the host must be the forge's.
 */
export function repoPathOnForge(remoteUrl: string, webUrl: string): string[] | undefined {
  const web = new URL(webUrl);
  let path: string;
  const scp = remoteUrl.includes('://') ? null : /^(?:[^@/]+@)?([^:/]+):(.+)$/.exec(remoteUrl);
  if (scp) {
    if (scp[1]!.toLowerCase() !== web.hostname.toLowerCase()) return undefined;
    path = scp[2]!;
  } else {
    let url: URL;
    try {
      url = new URL(remoteUrl);
    } catch {
      return undefined;
    }
    const isWeb = url.protocol === 'http:' || url.protocol === 'https:';
    // An ssh:// remote has its own port; an http one must be the forge's origin, path prefix included.
    if (isWeb ? url.host.toLowerCase() !== web.host.toLowerCase() : url.hostname !== web.hostname) return undefined;
    path = url.pathname;
    const prefix = web.pathname.replace(/\/+$/, '');
    if (isWeb && prefix) {
      if (!path.startsWith(prefix + '/')) return undefined;
      path = path.slice(prefix.length);
    }
  }
  const segments = path
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  return segments.length >= 2 ? segments : undefined;
}
