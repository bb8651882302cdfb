import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsRegistry } from './metrics';
import { watchStateWritable } from './state-writability';

const gaugeValue = async () => (await metricsRegistry.getSingleMetric('farm_state_writable')!.get()).values[0]?.value;

test('a full disk (ENOSPC) or a lost directory is said by the watch, its health and its gauge, until writes work again', async () => {
  const root = mkdtempSync(join(tmpdir(), 'state-'));
  const dir = join(root, 'state');
  mkdirSync(dir);
  const watch = watchStateWritable(dir, { intervalMs: 3_600_000 });
  try {
    expect([watch.problem(), watch.health(), await gaugeValue()]).toEqual([
      undefined,
      { healthy: true, reasons: [] },
      1,
    ]);

    // Every write fails as on a full disk: the probe's file is /dev/full, which answers ENOSPC.
    symlinkSync('/dev/full', join(dir, '.writable-probe'));
    watch.probe();
    expect(watch.problem()).toMatch(/state directory .* cannot be written: .*ENOSPC/);
    expect(watch.health()).toEqual({ healthy: false, reasons: [watch.problem()] });
    expect(await gaugeValue()).toBe(0);

    // Space again (the probe removed its file): writable, healthy.
    watch.probe();
    expect([watch.problem(), await gaugeValue()]).toEqual([undefined, 1]);

    // The directory gone (a lost mount): said too.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, '');
    watch.probe();
    expect(watch.problem()).toMatch(/ENOTDIR|ENOENT/);
  } finally {
    watch.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
