import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { ConfigError } from './errors';

/**
 * The process listening on a TCP port of this machine, as far as this user can see (Linux /proc: the socket's
 * inode in /proc/net/tcp{,6}, then the process holding it among /proc/<pid>/fd). Undefined when unknown.
 */
export function portHolder(port: number): { pid: number; command: string } | undefined {
  const inodes = new Set(listeners(port).map((l) => l.inode));
  if (!inodes.size) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's, or gone
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) {
          const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
          return { pid: Number(pid), command: command.slice(0, 200) };
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** The TCP sockets listening on `port` (Linux /proc/net/tcp{,6}; none elsewhere): their address and inode. */
function listeners(port: number): { address: string; inode: string }[] {
  const found: { address: string; inode: string }[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // not Linux, or no IPv6
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT (IPv4 little-endian); st 0A is LISTEN; inode is the tenth field.
      if (f.length < 10 || f[3] !== '0A') continue;
      const [ip, hexPort] = f[1].split(':');
      if (parseInt(hexPort ?? '', 16) !== port) continue;
      found.push({ address: addressOf(ip), inode: f[9] });
    }
  }
  return found;
}

/**
 * A /proc/net address as text: IPv4 (also IPv4-mapped IPv6, `::ffff:a.b.c.d`) dotted, the IPv6 wildcard `::`, any
 * other IPv6 address as `v6:<hex>`. Each 32-bit word is printed in the machine's (little-endian) order.
 */
function addressOf(hex: string): string {
  const v4 = (word: string) =>
    word
      .match(/../g)!
      .reverse()
      .map((b) => parseInt(b, 16))
      .join('.');
  if (hex.length === 8) return v4(hex);
  if (/^0+$/.test(hex)) return '::';
  if (/^0{16}FFFF0000/i.test(hex)) return v4(hex.slice(24));
  return `v6:${hex}`;
}

/**
 * The port is taken for `host`: a listener on it at the same address, or where either is every address. Read
 * from /proc without waiting for anything, so a process can refuse before it starts (Linux; elsewhere the
 * listen itself says EADDRINUSE).
 */
export function portTaken(port: number, host: string, setting = 'FARM_METRICS_PORT'): PortInUse | undefined {
  const ipv4 = /^[\d.]+$/;
  // The IPv6 wildcard (dual-stack), or this host as it, takes every address; an IPv6-only one (::1) takes nothing an
  // IPv4 host binds.
  const conflicts = (listener: string) =>
    listener === '::' || host === '::'
      ? true
      : ipv4.test(listener) && (listener === '0.0.0.0' || host === '0.0.0.0' || listener === host);
  const taken = listeners(port).some((l) => conflicts(l.address));
  return taken ? new PortInUse(host, port, setting) : undefined;
}

/** The port a process was told to listen on is taken: said at once, with who holds it and the setting to change. */
export class PortInUse extends ConfigError {
  constructor(host: string, port: number, setting: string) {
    const holder = portHolder(port);
    const who = holder ? ` by pid ${holder.pid} (${holder.command})` : '';
    super(
      `${host}:${port} is in use${who}: stop that process, or set ${setting} to a free port (e.g. ${setting}=${port + 1})`,
      { details: { host, port, setting, ...(holder ? { holder } : {}) } },
    );
  }
}
