import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { ApiError, ApiUnreachable, ChangeRequestClient } from './index';

describe('the typed client of the farm API', () => {
  test('its types are generated from the current openapi.yaml', () => {
    const script = path.join(__dirname, '..', 'scripts', 'generate-types.mjs');
    expect(execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' })).toContain('up to date');
  });

  test("a refusal is an ApiError with the server's message and field; a proxy's page is one too", async () => {
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith('/v1/change-requests?')) {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>');
        return;
      }
      const body = { error: { message: 'repo.url must be an http(s) git remote', field: 'repo.url' } };
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new ChangeRequestClient({
        baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
      });
      const refused = await client.submit({ title: 't', repo: { url: 'ftp://x' } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 400, field: 'repo.url', retryable: false });
      const proxied = await client.list().catch((e: unknown) => e);
      expect(proxied).toMatchObject({ status: 502, retryable: true, message: 'HTTP 502: <h1>bad gateway</h1>' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a server that cannot be reached is a retryable ApiUnreachable naming the address', async () => {
    const client = new ChangeRequestClient({ baseUrl: 'http://127.0.0.1:1', maxReconnects: 0 });
    const err = await client.get('cr-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiUnreachable);
    expect(err).toMatchObject({
      retryable: true,
      message: expect.stringContaining('http://127.0.0.1:1/v1/change-requests/cr-1'),
    });
    const events = client.events('cr-1')[Symbol.asyncIterator]();
    await expect(events.next()).rejects.toBeInstanceOf(ApiUnreachable);
  });

  test("a task's steps are followed through a dropped connection, each once, until the task's end", async () => {
    const asked: string[] = [];
    const step = (id: number) =>
      `id: ${id}\nevent: step\ndata: ${JSON.stringify({ dispatch: 1, runId: 'r', seq: id, step: { event: 'tool' } })}\n\n`;
    const server = http.createServer((req, res) => {
      const after = String(req.headers['last-event-id'] ?? '');
      asked.push(`${req.url} after ${after || 'none'}`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // The first connection breaks after two steps; the second repeats the second (as a server may) and ends.
      if (!after) res.write(step(1) + step(2), () => res.destroy());
      else res.end(step(2) + step(3) + 'id: 3\nevent: end\ndata: {"status":"SUCCESS"}\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new ChangeRequestClient({
        baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        reconnectDelayMs: 1,
      });
      const seqs: number[] = [];
      for await (const s of client.taskSteps('cr 1', 't/1')) seqs.push(s.seq);
      expect(seqs).toEqual([1, 2, 3]);
      expect(asked).toEqual([
        '/v1/change-requests/cr%201/tasks/t%2F1/events after none',
        '/v1/change-requests/cr%201/tasks/t%2F1/events after 2',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
