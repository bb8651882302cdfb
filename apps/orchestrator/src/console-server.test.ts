import { serveMetrics } from '@farm/runtime';
import { consoleRoutes } from './console-server';

describe('the console files', () => {
  let server: { port: number; close(): Promise<void> };
  let base: string;
  beforeAll(async () => {
    server = await serveMetrics(0, undefined, consoleRoutes());
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close());

  test('/ leads to the console, whose page, modules and eventsource-parser are served from the farm', async () => {
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/console/']);
    const page = await fetch(`${base}/console/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Only the farm's own origin may be loaded from or connected to.
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
    const html = await page.text();
    for (const src of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      if (src[1].startsWith('#')) continue;
      expect([src[1], (await fetch(`${base}${src[1]}`)).status]).toEqual([src[1], 200]);
    }
    const parser = await fetch(`${base}/console/vendor/eventsource-parser.js`);
    expect(parser.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await parser.text()).toMatch(/export\s*\{[^}]*createParser/);
    const app = await (await fetch(`${base}/console/app.js`)).text();
    for (const imported of app.matchAll(/from '([^']+)'/g)) {
      expect([imported[1], (await fetch(`${base}${imported[1]}`)).status]).toEqual([imported[1], 200]);
    }
  });

  test('an unknown file is a 404, any other method a 405, and no path leaves the console directory', async () => {
    expect((await fetch(`${base}/console/nope.js`)).status).toBe(404);
    expect((await fetch(`${base}/console/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${base}/console/../src/http-api.ts`)).status).not.toBe(200);
    const post = await fetch(`${base}/console/app.js`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    // Other paths are not the console's: the metrics server answers them.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});
