// Links to the forge the farm works with (GET /v1/forge): a repository's branches, commits, issues and pull
// requests, in each forge's own URL scheme. Only http(s) addresses are used (dom.js's outLink checks them again).
import { outLink, safeUrl } from '/console/dom.js';

const PATHS = {
  github: { branch: 'tree', commit: 'commit', issue: 'issues', pull: 'pull' },
  gitea: { branch: 'src/branch', commit: 'commit', issue: 'issues', pull: 'pulls' },
  gitlab: { branch: '-/tree', commit: '-/commit', issue: '-/issues', pull: '-/merge_requests' },
};

const segments = (path) => path.split('/').map(encodeURIComponent).join('/');

/** The repository's path on the forge (`owner/name`): given by its link, else read from a clone URL on the forge. */
export function repoOnForge(site, repoUrl, linkedRepo) {
  if (linkedRepo) return linkedRepo;
  const web = safeUrl(site?.webUrl);
  if (!web || typeof repoUrl !== 'string') return undefined;
  let url;
  try {
    url = new URL(repoUrl);
  } catch {
    return undefined;
  }
  const root = new URL(web);
  const prefix = root.pathname.replace(/\/+$/, '');
  if (url.host.toLowerCase() !== root.host.toLowerCase() || !url.pathname.startsWith(`${prefix}/`)) return undefined;
  const path = url.pathname
    .slice(prefix.length)
    .replace(/\.git\/?$/, '')
    .replace(/^\/+|\/+$/g, '');
  return path.split('/').length >= 2 ? decodeURIComponent(path) : undefined;
}

/** URL makers for one repository on the forge, or undefined without a forge (or off it). */
export function forgeUrls(site, repo) {
  const web = safeUrl(site?.webUrl);
  const paths = PATHS[site?.kind];
  if (!web || !paths || !repo) return undefined;
  const base = `${web.replace(/\/+$/, '')}/${segments(repo)}`;
  return {
    repo: () => base,
    branch: (name) => `${base}/${paths.branch}/${segments(name)}`,
    commit: (sha) => `${base}/${paths.commit}/${encodeURIComponent(sha)}`,
    issue: (n) => `${base}/${paths.issue}/${Number(n)}`,
    pull: (n) => `${base}/${paths.pull}/${Number(n)}`,
  };
}

/** A branch, commit, issue or pull request: a link when the forge is known, else its name as text. */
export function forgeRef(urls, kind, value, text = value) {
  if (!value) return '—';
  return urls ? outLink(urls[kind](value), text) : text;
}
