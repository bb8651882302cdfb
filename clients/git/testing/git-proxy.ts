import http from 'node:http';

/** What a proxy does with a request before forwarding it: `true` when it handled (answered or dropped) it. */
export type Intercept = (req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;

/**
 * A git host in trouble, for tests: an HTTP proxy in front of a real git smart-HTTP server (`upstream`) that
 * forwards every request `intercept` leaves alone. Answers `url(repoUrl)`: the repository's URL through it.
 */
export async function startGitProxy(
  upstream: string,
  intercept: Intercept = () => false,
): Promise<{ url(repoUrl: string): string; close(): void }> {
  const target = new URL(upstream);
  const proxy = http.createServer(async (req, res) => {
    if (await intercept(req, res)) return;
    const forwarded = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => (res.writeHead(answer.statusCode ?? 502, answer.headers), answer.pipe(res)),
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  return {
    url: (repoUrl) => repoUrl.replace(upstream, base),
    close() {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}
