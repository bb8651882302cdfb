import { loadConfig } from '@farm/runtime';
import {
  acceptanceSetting,
  confinementGaps,
  describeGaps,
  sandboxRiskConfigSchema,
  unacceptedGaps,
} from './confinement';
import type { Isolation } from './isolation';

const FULL: Isolation = {
  network: 'namespace',
  loopback: 'own',
  filesystem: 'checkout-only',
  endsWithParent: true,
  externalTimeout: true,
  processTree: 'pid-namespace',
  proc: 'own',
  limits: 'prlimit',
  memory: 'cgroup',
  processes: 'cgroup',
};
const risks = (isolation: Partial<Isolation>) => confinementGaps({ ...FULL, ...isolation }).map((g) => g.risk);

describe('confinement gaps', () => {
  it('finds none where every guarantee holds, or where the host network was asked for', () => {
    expect(risks({})).toEqual([]);
    expect(risks({ network: 'host', loopback: 'host' })).toEqual([]);
    // limits without cgroups are weaker, but bounded by the timeout: not a confinement guarantee
    expect(risks({ memory: 'address-space', processes: 'rlimit-nproc' })).toEqual([]);
  });

  it('names each missing guarantee: a pod whose seccomp refuses unshare lacks all three', () => {
    expect(risks({ network: 'unavailable' })).toEqual(['network']);
    expect(risks({ filesystem: 'unrestricted' })).toEqual(['filesystem']);
    expect(risks({ processTree: 'process-group', endsWithParent: false })).toEqual(['processes']);
    expect(risks({ endsWithParent: false })).toEqual(['processes']); // no setpriv: outlives the agent
    const pod = { network: 'unavailable', filesystem: 'unrestricted', processTree: 'process-group' } as const;
    expect(risks({ ...pod, endsWithParent: false, proc: 'host' })).toEqual(['network', 'filesystem', 'processes']);
  });

  it("counts a PID namespace that sees its container's /proc only in the sandbox runner", () => {
    const containerProc = { ...FULL, proc: 'container' } as const;
    // anywhere else that /proc shows the farm's own processes, whose environments hold its secrets
    expect(confinementGaps(containerProc).map((g) => g.risk)).toEqual(['processes']);
    expect(describeGaps(confinementGaps(containerProc))).toContain("no /proc of the command's own");
    expect(confinementGaps(containerProc, { runner: true })).toEqual([]);
    // the runner still needs the PID namespace itself and the parent-death signal
    expect(confinementGaps({ ...containerProc, endsWithParent: false }, { runner: true }).map((g) => g.risk)).toEqual([
      'processes',
    ]);
  });

  it("needs the runner's mount namespace for the network too: it hides the runner's socket", () => {
    const noMount = { ...FULL, filesystem: 'unrestricted' } as const;
    expect(confinementGaps(noMount).map((g) => g.risk)).toEqual(['filesystem']);
    const inRunner = confinementGaps(noMount, { runner: true });
    expect(inRunner.map((g) => g.risk)).toEqual(['network', 'filesystem']);
    expect(inRunner[0].consequence).toContain('control socket');
  });

  it("names the runner container's chart values when the runner lacks a guarantee", () => {
    const text = describeGaps(confinementGaps({ ...FULL, network: 'unavailable' }), { runner: true });
    expect(text).toContain('sandbox runner container');
    expect(text).toContain('sandbox.seccompProfile');
    expect(text).toContain('FARM_SANDBOX_ACCEPT_RISK=network (Helm value sandbox.acceptRisk)');
  });

  it('says what is missing and the exact setting that accepts only that', () => {
    const gaps = confinementGaps({ ...FULL, network: 'unavailable', processTree: 'process-group' });
    const text = describeGaps(gaps);
    expect(text).toContain('no private network namespace');
    expect(text).toContain('no PID namespace');
    expect(text).not.toContain('mount namespace');
    expect(acceptanceSetting(gaps)).toBe('FARM_SANDBOX_ACCEPT_RISK=network,processes');
    expect(unacceptedGaps(gaps, ['processes']).map((g) => g.risk)).toEqual(['network']);
  });
});

describe('FARM_SANDBOX_ACCEPT_RISK', () => {
  const parse = (value?: string) =>
    loadConfig(sandboxRiskConfigSchema, value === undefined ? {} : { FARM_SANDBOX_ACCEPT_RISK: value })
      .FARM_SANDBOX_ACCEPT_RISK;

  it('accepts nothing unless told, a list of risks, or all', () => {
    expect(parse()).toEqual([]);
    expect(parse('')).toEqual([]);
    expect(parse('network, processes,network')).toEqual(['network', 'processes']);
    expect(parse('all')).toEqual(['network', 'filesystem', 'processes']);
  });

  it('refuses a word it does not know, naming the ones it does', () => {
    expect(() => parse('network,everything')).toThrow(/FARM_SANDBOX_ACCEPT_RISK.*network, filesystem, processes, all/s);
  });
});

describe('FARM_SANDBOX_RUNNER', () => {
  it('is unset unless given (commands run here), else an absolute socket path', () => {
    expect(loadConfig(sandboxRiskConfigSchema, {}).FARM_SANDBOX_RUNNER).toBeUndefined();
    const socket = '/run/farm-sandbox/runner.sock';
    expect(loadConfig(sandboxRiskConfigSchema, { FARM_SANDBOX_RUNNER: socket }).FARM_SANDBOX_RUNNER).toBe(socket);
    expect(() => loadConfig(sandboxRiskConfigSchema, { FARM_SANDBOX_RUNNER: 'runner.sock' })).toThrow(
      /FARM_SANDBOX_RUNNER.*absolute/s,
    );
  });
});
