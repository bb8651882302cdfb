/**
 * The Debian mirrors this machine's apt uses, for a Debian release: the stand-in base is bootstrapped from
 * them and its apt reads them (CI machines reach Debian only through the mirror they are configured with).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AptSource {
  uri: string;
  suite: string;
  components: string[];
}

/** Both formats: one-line `deb [opts] uri suite comp...` and deb822 stanzas (`Types: deb`, `URIs:`, ...). */
export function parseAptSources(text: string, deb822: boolean): AptSource[] {
  if (!deb822) {
    return text.split('\n').flatMap((raw) => {
      const line = raw
        .replace(/#.*/, '')
        .replace(/\[[^\]]*\]/, ' ')
        .trim();
      const [type, uri, suite, ...components] = line.split(/\s+/);
      return type === 'deb' && uri && suite ? [{ uri, suite, components }] : [];
    });
  }
  return text.split(/\n\s*\n/).flatMap((stanza) => {
    const fields = new Map<string, string>();
    for (const raw of stanza.split('\n')) {
      if (raw.startsWith('#')) continue;
      const m = raw.match(/^([A-Za-z-]+):\s*(.*)$/);
      if (m) fields.set(m[1].toLowerCase(), m[2].trim());
    }
    const list = (name: string) => (fields.get(name) ?? '').split(/\s+/).filter(Boolean);
    if (!list('types').includes('deb') || fields.get('enabled') === 'no') return [];
    const components = list('components');
    return list('uris').flatMap((uri) => list('suites').map((suite) => ({ uri, suite, components })));
  });
}

/** Every `deb` source of this machine's apt. */
export function machineAptSources(etcApt = '/etc/apt'): AptSource[] {
  const sources: AptSource[] = [];
  const main = join(etcApt, 'sources.list');
  if (existsSync(main)) sources.push(...parseAptSources(readFileSync(main, 'utf8'), false));
  const dir = join(etcApt, 'sources.list.d');
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    if (!name.endsWith('.list') && !name.endsWith('.sources')) continue;
    sources.push(...parseAptSources(readFileSync(join(dir, name), 'utf8'), name.endsWith('.sources')));
  }
  return sources;
}

/**
 * The release's main sources (`bookworm`, `bookworm-updates`, `bookworm-security`) among the machine's, the
 * release itself first; Debian's own mirrors when the machine has none (another distribution).
 */
export function debianSources(release: string, machine: AptSource[]): AptSource[] {
  const suites = [release, `${release}-updates`, `${release}-security`];
  const found = machine
    .filter((s) => suites.includes(s.suite) && s.components.includes('main'))
    .map((s) => ({ ...s, components: ['main'] }))
    .sort((a, b) => suites.indexOf(a.suite) - suites.indexOf(b.suite));
  if (found.some((s) => s.suite === release)) return found;
  return [
    { uri: 'http://deb.debian.org/debian', suite: release, components: ['main'] },
    { uri: 'http://deb.debian.org/debian', suite: `${release}-updates`, components: ['main'] },
    { uri: 'http://deb.debian.org/debian-security', suite: `${release}-security`, components: ['main'] },
  ];
}

export function sourcesList(sources: AptSource[]): string {
  return sources.map((s) => `deb ${s.uri} ${s.suite} ${s.components.join(' ')}\n`).join('');
}
