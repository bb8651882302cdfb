import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** Binds and releases `port` on loopback: resolves with the port the kernel gave (the same unless 0). */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const got = (srv.address() as { port: number }).port;
      srv.close(() => resolve(got));
    });
  });
}

/**
 * The loopback port of one of `farm up`'s own services: the configured one, else the one it had last time
 * (kept in the state directory), else a free one. Agents that outlive a restart of `farm up` hold URLs with
 * these ports, so the restarted services must come back on them.
 */
export async function stablePort(stateDir: string, service: string, configured: number): Promise<number> {
  if (configured) return configured;
  const file = path.join(stateDir, 'ports.json');
  let saved: Record<string, number> = {};
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    // first start, or an unreadable file: pick anew
  }
  const port = (saved[service] && (await probe(saved[service]))) || (await probe(0))!;
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...saved, [service]: port }));
  return port;
}
