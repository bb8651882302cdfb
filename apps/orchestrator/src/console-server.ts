import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { RouteHandler } from '@farm/runtime';

/** Where the console's files are: plain HTML, CSS and JavaScript modules, served as they are (no build step). */
export const CONSOLE_DIR = path.join(__dirname, '..', 'console');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Everything the browser loads comes from here (the policy forbids any other origin, so no CDN can creep in);
 * the API answers the data, with the token the console sends.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** The console's files by URL path: read once at start, so no request can name a file outside them. */
function consoleFiles(): Map<string, { body: Buffer; type: string }> {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(CONSOLE_DIR)) {
    const type = TYPES[path.extname(name)];
    if (type) files.set(`/console/${name}`, { body: readFileSync(path.join(CONSOLE_DIR, name)), type });
  }
  files.set('/console/', files.get('/console/index.html')!);
  // The SSE stream is read with fetch (EventSource cannot send a token); eventsource-parser's ESM build parses it.
  const parser = require.resolve('eventsource-parser').replace(/index\.c?js$/, 'index.js');
  files.set('/console/vendor/eventsource-parser.js', { body: readFileSync(parser), type: TYPES['.js'] });
  return files;
}

/**
 * The web console, served beside the API on the same port: `/` redirects to `/console/`, whose pages call
 * the API under /v1/ with the user's token. The files hold no data, so they are served to anyone.
 */
export function consoleRoutes(): RouteHandler {
  const files = consoleFiles();
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const method = req.method ?? 'GET';
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== '/' && pathname !== '/console' && !pathname.startsWith('/console/')) return false;
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `${method} is not allowed on ${pathname}` } }));
      return true;
    }
    if (pathname === '/' || pathname === '/console') {
      res.writeHead(302, { location: '/console/' });
      res.end();
      return true;
    }
    const file = files.get(pathname);
    if (!file) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no console file ${pathname}` } }));
      return true;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': file.type, 'content-length': file.body.length });
    res.end(method === 'HEAD' ? undefined : file.body);
    return true;
  };
}
