import { ceilingsOrDefaults, checkSandboxConfigSchema, checkCeilingsFromConfig, settleStep } from './check-policy';
import { DEFAULT_LIMITS } from './sandbox-request';

const operator = ceilingsOrDefaults({
  timeoutSeconds: 20,
  memoryBytes: 512 * 1024 * 1024,
  maxProcesses: 64,
  hostNetwork: 'off',
});

describe("holding a repository's check steps to the operator's limits", () => {
  it('clamps a timeout, memory and process count above the limits, and says so', () => {
    const settled = settleStep(
      { name: 'test', run: 'pytest', timeoutSeconds: 100_000, memoryMb: 65_536, maxProcesses: 100_000 },
      operator,
    );
    expect(settled).toMatchObject({ timeoutSeconds: 20, memoryBytes: 512 * 1024 * 1024, maxProcesses: 64 });
    expect(settled.notes).toEqual([
      "timeoutSeconds 100000 s is above the operator's limit: 20 s applies",
      "memoryMb 65536 MiB is above the operator's limit: 512 MiB applies",
      "maxProcesses 100000 is above the operator's limit: 64 applies",
    ]);
  });

  it('keeps what a step asks for within the limits, and gives the limits to steps that ask for nothing', () => {
    expect(
      settleStep({ name: 'lint', run: 'ruff', timeoutSeconds: 5, memoryMb: 100, maxProcesses: 8 }, operator),
    ).toEqual({ timeoutSeconds: 5, memoryBytes: 100 * 1024 * 1024, maxProcesses: 8, network: 'none', notes: [] });
    expect(settleStep({ name: 'lint', run: 'ruff' }, operator)).toEqual({
      timeoutSeconds: 20,
      memoryBytes: 512 * 1024 * 1024,
      maxProcesses: 64,
      network: 'none',
      notes: [],
    });
  });

  it('gives the host network only where the operator allows it', () => {
    const repoStep = { name: 'deploy', run: 'git push', network: 'host' as const };
    const install = { name: 'install', run: 'npm ci', network: 'host' as const, installsDependencies: true as const };
    const network = (step: typeof repoStep | typeof install, hostNetwork: 'off' | 'install' | 'on') =>
      settleStep(step, { ...operator, hostNetwork });

    expect(network(repoStep, 'off')).toMatchObject({
      network: 'none',
      notes: ['network "host" is not allowed (FARM_CHECK_HOST_NETWORK=off): the step runs without network'],
    });
    expect(network(install, 'off').network).toBe('none');
    expect(network(repoStep, 'install')).toMatchObject({
      network: 'none',
      notes: [expect.stringContaining('only for the dependency installation the farm detects')],
    });
    expect(network(install, 'install')).toMatchObject({ network: 'host', notes: [] });
    expect(network(repoStep, 'on')).toMatchObject({ network: 'host', notes: [] });
  });

  it('reads the ceilings from the environment, off and the sandbox defaults unless set', () => {
    expect(checkCeilingsFromConfig(checkSandboxConfigSchema.parse({}))).toEqual({
      hostNetwork: 'off',
      memoryBytes: DEFAULT_LIMITS.memoryBytes,
      maxProcesses: DEFAULT_LIMITS.maxProcesses,
    });
    const set = { FARM_CHECK_HOST_NETWORK: 'install', FARM_CHECK_MEMORY_MB: '1024', FARM_CHECK_MAX_PROCESSES: '100' };
    expect(checkCeilingsFromConfig(checkSandboxConfigSchema.parse(set))).toEqual({
      hostNetwork: 'install',
      memoryBytes: 1024 * 1024 * 1024,
      maxProcesses: 100,
    });
    expect(checkSandboxConfigSchema.safeParse({ FARM_CHECK_HOST_NETWORK: 'yes' }).success).toBe(false);
    expect(checkSandboxConfigSchema.parse({}).FARM_CHECK_WRITABLE_DIRS).toEqual([]);
    const dirs = { FARM_CHECK_WRITABLE_DIRS: '/var/cache/npm, /var/cache/pip' };
    expect(checkSandboxConfigSchema.parse(dirs).FARM_CHECK_WRITABLE_DIRS).toEqual(['/var/cache/npm', '/var/cache/pip']);
    expect(checkSandboxConfigSchema.safeParse({ FARM_CHECK_WRITABLE_DIRS: 'cache' }).success).toBe(false);
  });

  it('fills ceilings that are not given (or undefined) with the defaults', () => {
    expect(ceilingsOrDefaults({ timeoutSeconds: 30, hostNetwork: undefined })).toEqual({
      timeoutSeconds: 30,
      memoryBytes: DEFAULT_LIMITS.memoryBytes,
      maxProcesses: DEFAULT_LIMITS.maxProcesses,
      hostNetwork: 'off',
    });
  });
});
