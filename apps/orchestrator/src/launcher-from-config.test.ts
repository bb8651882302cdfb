import { InProcessBus } from '@farm/bus';
import { silentLogger } from '@farm/runtime';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessLauncher } from './child-process-launcher';
import { loadOrchestratorConfig } from './config';
import { createTaskLauncher } from './launcher-from-config';

describe('the process launcher from configuration', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'launcher-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const launcherFor = (env: NodeJS.ProcessEnv) => {
    const config = loadOrchestratorConfig({ FARM_STATE_DIR: dir, ...env });
    const bus = new InProcessBus();
    return createTaskLauncher(config, { bus, log: silentLogger, env: { FARM_ENTRY: 'source' } });
  };

  test('FARM_AGENT_PROCESSES bounds the agent processes at once (16 by default; 0: no bound)', async () => {
    expect(loadOrchestratorConfig({}).FARM_AGENT_PROCESSES).toBe(16);
    expect(() => loadOrchestratorConfig({ FARM_AGENT_PROCESSES: '-1' })).toThrow(/FARM_AGENT_PROCESSES/);
    for (const [given, bound] of [
      ['3', 3],
      ['0', undefined],
      [undefined, 16],
    ] as const) {
      const launcher = launcherFor(given === undefined ? {} : { FARM_AGENT_PROCESSES: given });
      expect(launcher).toBeInstanceOf(ChildProcessLauncher);
      expect((launcher as ChildProcessLauncher).maxRunning).toBe(bound);
      await launcher.close();
    }
  });
});
