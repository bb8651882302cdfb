import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { ConfigError } from './errors';

/**
 * The process listening on a TCP port of this machine, as far as this user can see (Linux /proc: the socket's
 * inode in /proc/net/tcp{,6}, then the process holding it among /proc/<pid>/fd). Undefined when unknown.
 */
export function portHolder(port: number): { pid: number; command: string } | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // not Linux, or no IPv6
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; st 0A is LISTEN; inode is the tenth field.
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1].split(':')[1] ?? '', 16) === port) inodes.add(f[9]);
    }
  }
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

/**
 * Refuses a port another process listens on (PortInUse), by listening on it a moment: before a process starts
 * anything it would announce. The port is free again when this resolves.
 */
export function ensurePortFree(port: number, host: string, setting = 'FARM_METRICS_PORT'): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUse(host, port, setting) : err),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
