/**
 * Pure decisions of putting the host back after the real node: what iptables rules and chains, mounts and
 * sysctls to undo, from what was recorded before the node started and what is there now. Only what appeared
 * since is removed: rules and chains of the host's own stay, whoever made them.
 */

/** The kernel settings the kubelet, the bridge plugin and kube-router change (kubelet: setupKernelTunables). */
export const RECORDED_SYSCTLS = [
  'vm.overcommit_memory',
  'vm.panic_on_oom',
  'kernel.panic',
  'kernel.panic_on_oops',
  'kernel.keys.root_maxkeys',
  'kernel.keys.root_maxbytes',
  'net.ipv4.ip_forward',
  'net.ipv4.conf.all.forwarding',
  'net.bridge.bridge-nf-call-iptables',
  'net.bridge.bridge-nf-call-ip6tables',
] as const;

export interface IptablesTable {
  /** Chain name -> policy ('-' for a user chain). */
  chains: Map<string, string>;
  /** Rules as iptables-save prints them (`-A CHAIN ...`), in order. */
  rules: string[];
}

/** Parses `iptables-save` output (without counters) into tables. */
export function parseIptablesSave(text: string): Map<string, IptablesTable> {
  const tables = new Map<string, IptablesTable>();
  let current: IptablesTable | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('*')) {
      current = { chains: new Map(), rules: [] };
      tables.set(line.slice(1).trim(), current);
    } else if (!current || line.startsWith('#') || !line.trim()) {
      continue;
    } else if (line.startsWith(':')) {
      const [name, policy] = line.slice(1).split(/\s+/);
      current.chains.set(name, policy);
    } else if (line.startsWith('-A ')) {
      current.rules.push(line.trim());
    } else if (line.trim() === 'COMMIT') {
      current = undefined;
    }
  }
  return tables;
}

/**
 * An `iptables-restore --noflush` script that removes what `after` has and `before` had not: new rules in
 * chains that were there are deleted one by one (`-D`, so the host's rules around them stay), then new chains
 * are flushed and deleted; a built-in chain's changed policy is set back. Empty when nothing changed.
 */
export function iptablesUndo(before: string, after: string): string {
  const was = parseIptablesSave(before);
  const now = parseIptablesSave(after);
  const out: string[] = [];
  for (const [table, t] of now) {
    const old = was.get(table) ?? { chains: new Map<string, string>(), rules: [] };
    const lines: string[] = [];
    const newChains = [...t.chains.keys()].filter((c) => !old.chains.has(c) && t.chains.get(c) === '-');
    const remaining = countOf(old.rules);
    for (const rule of t.rules) {
      const chain = rule.split(/\s+/)[1];
      if (newChains.includes(chain)) continue; // goes with the flush of its chain
      const left = remaining.get(rule) ?? 0;
      if (left > 0) remaining.set(rule, left - 1);
      else lines.push(`-D ${rule.slice(3)}`);
    }
    for (const c of newChains) lines.push(`-F ${c}`);
    for (const c of newChains) lines.push(`-X ${c}`);
    for (const [c, policy] of t.chains) {
      const oldPolicy = old.chains.get(c);
      if (policy !== '-' && oldPolicy && oldPolicy !== '-' && oldPolicy !== policy) lines.push(`-P ${c} ${oldPolicy}`);
    }
    if (lines.length) out.push(`*${table}`, ...lines, 'COMMIT');
  }
  return out.length ? out.join('\n') + '\n' : '';
}

/** Tables `after` has and `before` had not (iptables-nft makes them on first use; they stay, empty, after the undo). */
export function newTables(before: string, after: string): string[] {
  const was = parseIptablesSave(before);
  return [...parseIptablesSave(after).keys()].filter((t) => !was.has(t));
}

function countOf(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

/** Mount points (from /proc/self/mountinfo) at or under one of `prefixes`, deepest first: the order to unmount. */
export function mountsUnder(mountinfo: string, prefixes: string[]): string[] {
  const points = mountinfo
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => !!p)
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
  const ours = points.filter((p) =>
    prefixes.some((pre) => p === pre || p.startsWith(pre.endsWith('/') ? pre : pre + '/')),
  );
  // Stacked mounts on one point come back once per layer; unmount each layer.
  return ours
    .map((p, i) => ({ p, i }))
    .sort((a, b) => depth(b.p) - depth(a.p) || b.i - a.i)
    .map(({ p }) => p);
}

const depth = (p: string) => p.split('/').length;

/** The sysctls whose value now differs from the recorded one: what to write back. */
export function changedSysctls(before: Record<string, string>, now: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(before).filter(([k, v]) => now[k] !== undefined && now[k] !== v));
}

/**
 * Of the mount points at or under `prefixes` now, those the record did not have: each stacked layer once, the
 * newest layers first, deepest first (the order to unmount). A point the record had keeps as many layers as it had.
 */
export function newMounts(recorded: string[], mountinfo: string, prefixes: string[]): string[] {
  const keep = countOf(recorded);
  const extra = new Map<string, number>();
  const now = mountsUnder(mountinfo, prefixes);
  for (const [point, n] of countOf(now)) extra.set(point, Math.max(0, n - (keep.get(point) ?? 0)));
  return now.filter((point) => {
    const left = extra.get(point) ?? 0;
    extra.set(point, left - 1);
    return left > 0;
  });
}

/** What a restore could not remove, and the command that removes it. */
export interface Leftover {
  path: string;
  /** An empty directory (or an empty mount point): nothing runs from it, nothing is stored in it. */
  harmless: boolean;
  what: string;
  remove: string;
}

/** A path the restore should have removed (`gone`) or unmounted, as it was found afterwards. */
export function leftoverOf(path: string, found: { entries: string[]; mounted: boolean; gone: boolean }): Leftover {
  const q = shellQuote(path);
  const harmless = found.entries.length === 0;
  const contents = harmless
    ? 'empty'
    : `holding ${found.entries.length} entr${found.entries.length === 1 ? 'y' : 'ies'} (${found.entries.slice(0, 3).join(', ')}${found.entries.length > 3 ? ', ...' : ''})`;
  const what = `${found.mounted ? 'a mount point' : 'a directory'}, ${contents}`;
  const unmount = found.mounted ? `umount -R ${q}` : '';
  const remove = found.gone ? (harmless ? `rmdir ${q}` : `rm -rf ${q}`) : '';
  return { path, harmless, what, remove: [unmount, remove].filter(Boolean).join(' && ') };
}

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
