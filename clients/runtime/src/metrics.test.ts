import { serveMetrics } from './metrics';

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
