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
    expect(risks({ ...pod, endsWithParent: false })).toEqual(['network', 'filesystem', 'processes']);
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
