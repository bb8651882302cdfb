import { serveMetrics } from './metrics';
import { PortInUse, portHolder, portTaken } from './port-holder';

test('/healthz answers the health check; /readyz also the readiness check, with every reason', async () => {
  let healthy = true;
  let ready = false;
  const server = await serveMetrics(
    0,
    undefined,
    undefined,
    () => ({ healthy, reasons: healthy ? [] : ['the bus is down'] }),
    '127.0.0.1',
    () => ({ healthy: ready, reasons: ready ? [] : ['the egress NetworkPolicy is missing'] }),
  );
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`);
    return [res.status, await res.text()];
  };
  try {
    expect(await get('/healthz')).toEqual([200, 'ok']);
    expect(await get('/readyz')).toEqual([
      503,
      JSON.stringify({ healthy: false, reasons: ['the egress NetworkPolicy is missing'] }),
    ]);
    healthy = false;
    expect(JSON.parse((await get('/readyz'))[1] as string).reasons).toEqual([
      'the bus is down',
      'the egress NetworkPolicy is missing',
    ]);
    healthy = true;
    ready = true;
    expect(await get('/readyz')).toEqual([200, 'ok']);
  } finally {
    await server.close();
  }
});

test('a port in use is refused at once, naming who holds it and the setting to change', async () => {
  const { createServer } = await import('node:net');
  const holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  const port = (holder.address() as { port: number }).port;
  try {
    const err = await serveMetrics(port, undefined, undefined, undefined, '127.0.0.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortInUse);
    expect((err as Error).message).toBe(
      `127.0.0.1:${port} is in use by pid ${process.pid} (${portHolder(port)!.command}): stop that process, or set FARM_METRICS_PORT to a free port (e.g. FARM_METRICS_PORT=${port + 1})`,
    );
    expect(portHolder(port)?.command).toContain('jest');
  } finally {
    holder.close();
  }
});

test('a healthy but degraded process answers 200 with what degrades it', async () => {
  const server = await serveMetrics(0, undefined, undefined, () => ({
    healthy: true,
    reasons: ['degraded: probing the sandbox'],
  }));
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect([res.status, await res.text()]).toEqual([200, 'ok (degraded: probing the sandbox)']);
  } finally {
    await server.close();
  }
});

test('a process checks its port before it starts anything: refused when held, and left free when not', async () => {
  const { createServer } = await import('node:net');
  const holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  const port = (holder.address() as { port: number }).port;
  expect(portTaken(port, '127.0.0.1')).toBeInstanceOf(PortInUse);
  expect(portTaken(port, '0.0.0.0')?.message).toMatch(
    new RegExp(`^0\\.0\\.0\\.0:${port} is in use by pid ${process.pid} `),
  );
  expect(portTaken(port, '10.9.8.7')).toBeUndefined(); // another address of the machine: no conflict
  await new Promise<void>((r) => holder.close(() => r()));
  expect(portTaken(port, '127.0.0.1')).toBeUndefined();
  const server = await serveMetrics(port, undefined, undefined, undefined, '127.0.0.1'); // the check let it go
  await server.close();
});

test('a listener on IPv6 loopback takes nothing an IPv4 host binds; one on every address (dual-stack) takes it', async () => {
  const { createServer } = await import('node:net');
  const listen = async (host: string, port = 0) => {
    const s = createServer();
    await new Promise<void>((r) => s.listen({ port, host, ipv6Only: host === '::1' }, r));
    return s;
  };
  const v6Loopback = await listen('::1');
  const port = (v6Loopback.address() as { port: number }).port;
  try {
    expect(portTaken(port, '127.0.0.1')).toBeUndefined();
    expect(portTaken(port, '::')).toBeInstanceOf(PortInUse);
  } finally {
    await new Promise<void>((r) => v6Loopback.close(() => r()));
  }
  const dualStack = await listen('::');
  const other = (dualStack.address() as { port: number }).port;
  try {
    expect(portTaken(other, '127.0.0.1')).toBeInstanceOf(PortInUse);
  } finally {
    await new Promise<void>((r) => dualStack.close(() => r()));
  }
});
