import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { runCommand, silentLogger, type Logger } from '@farm/runtime';

const run = runCommand;
const GIT_HTTP_BACKEND = process.env.GIT_HTTP_BACKEND ?? '/usr/lib/git-core/git-http-backend';

export interface GitHttpServer {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  root: string;
  repoUrl(name: string): string;
  /** The directory of a repository this server serves, given its URL; undefined for any other URL. */
  gitDirFor(url: string): string | undefined;
  /** Creates `<root>/<name>` as a bare repo that accepts pushes over HTTP; returns its URL. */
  createBareRepo(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Repo names are path segments under root; refuse anything that could escape it. */
function checkRepoName(name: string): void {
  if (!/^[A-Za-z0-9._\-/]+$/.test(name) || name.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`invalid repo name: ${JSON.stringify(name)}`);
  }
}

/**
 * Smart-HTTP git server for local development and tests: every request is handed to `git http-backend`
 * (CGI), so clone/fetch/push behave exactly as against a real git host.
 */
export async function startGitHttpServer(opts: {
  root: string;
  port?: number;
  host?: string;
  log?: Logger;
  /** Require HTTP basic auth with these credentials (as a git host with private repositories does). */
  auth?: { username: string; password: string };
}): Promise<GitHttpServer> {
  const root = path.resolve(opts.root);
  const log = opts.log ?? silentLogger;
  await mkdir(root, { recursive: true });

  const expected =
    opts.auth && `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="farm"' }).end('authentication required\n');
      req.resume();
      return;
    }
    const u = new URL(req.url ?? '/', 'http://localhost');
    let pathInfo: string;
    try {
      pathInfo = decodeURIComponent(u.pathname);
    } catch {
      pathInfo = '';
    }
    if (!pathInfo.startsWith('/') || pathInfo.split('/').includes('..')) {
      res.writeHead(400).end('bad path\n');
      return;
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      // keep the operator's ~/.gitconfig and /etc/gitconfig out of server behaviour
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: root,
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: pathInfo,
      QUERY_STRING: u.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      // http-backend only enables receive-pack (push) for an authenticated user by default
      REMOTE_USER: 'farm',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    };
    // Chunked bodies have no length; without CONTENT_LENGTH http-backend reads stdin until EOF.
    if (req.headers['content-length'] !== undefined) env.CONTENT_LENGTH = req.headers['content-length'];
    if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
    // Forwarding Git-Protocol lets clients negotiate protocol v2.
    const proto = req.headers['git-protocol'];
    if (typeof proto === 'string') env.HTTP_GIT_PROTOCOL = proto;

    const child = spawn(GIT_HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => {
      log.error('git http-backend failed to start', { err });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
    child.on('close', (code) => {
      if (code !== 0 || stderr) log.warn('git http-backend', { code, stderr: stderr.trim(), path: pathInfo });
    });
    req.pipe(child.stdin);
    child.stdin.on('error', () => {}); // backend may exit before reading the whole body (e.g. on 403)
    req.on('aborted', () => child.kill());

    // CGI output: header lines, a blank line, then the body which we stream through untouched.
    let head = Buffer.alloc(0);
    let headersDone = false;
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const m = /\r?\n\r?\n/.exec(head.toString('latin1'));
      if (!m) return;
      headersDone = true;
      let status = 200;
      let statusText: string | undefined;
      const headers: Record<string, string | string[]> = {};
      for (const line of head.subarray(0, m.index).toString('latin1').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i <= 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') {
          status = parseInt(value, 10) || 500;
          statusText = value.replace(/^\d+\s*/, '') || undefined;
        } else if (headers[name] !== undefined) {
          headers[name] = ([] as string[]).concat(headers[name], value);
        } else {
          headers[name] = value;
        }
      }
      res.writeHead(status, statusText, headers);
      const rest = head.subarray(m.index + m[0].length);
      if (rest.length) res.write(rest);
      // pipe from here on so a slow client applies backpressure to http-backend instead of buffering packs
      child.stdout.off('data', onHead);
      child.stdout.pipe(res);
    };
    child.stdout.on('data', onHead);
    child.stdout.on('end', () => {
      if (headersDone) return;
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const url = `http://${opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1'}:${port}`;
  log.info('git http server listening', { url, root });

  return gitServerHandle(
    url,
    root,
    () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // keep-alive sockets would otherwise hold close() open
      }),
  );
}

/** What the farm needs of a git server serving `root` at `url`, wherever it runs (this process or its own). */
export function gitServerHandle(url: string, root: string, close: () => Promise<void>): GitHttpServer {
  const repoUrl = (name: string) => {
    checkRepoName(name);
    return `${url}/${name}`;
  };
  return {
    url,
    root,
    repoUrl,
    gitDirFor(repo) {
      if (!repo.startsWith(`${url}/`)) return undefined;
      const name = repo.slice(url.length + 1);
      try {
        checkRepoName(name);
      } catch {
        return undefined;
      }
      const dir = path.join(root, name);
      return existsSync(dir) ? dir : undefined;
    },
    async createBareRepo(name) {
      const u = repoUrl(name);
      const dir = path.join(root, name);
      await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir]);
      await run('git', ['-C', dir, 'config', 'http.receivepack', 'true']);
      return u;
    },
    close,
  };
}
