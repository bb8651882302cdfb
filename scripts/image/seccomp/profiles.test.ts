import { readFileSync } from 'node:fs';
import {
  NAMESPACE_SYSCALLS,
  RUNTIME_DEFAULT_FILE,
  SANDBOX_RUNNER_FILE,
  profileText,
  readProfile,
  sandboxRunnerProfile,
} from './profiles';

const allowed = (profile: ReturnType<typeof readProfile>, name: string) =>
  profile.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && r.names.includes(name));

describe("the sandbox sidecar's seccomp profiles", () => {
  const runtimeDefault = readProfile(RUNTIME_DEFAULT_FILE);

  it('the stand-in for RuntimeDefault refuses what the sandbox needs, clone only with namespace flags', () => {
    expect(runtimeDefault.defaultAction).toBe('SCMP_ACT_ERRNO');
    for (const name of ['unshare', 'setns', 'mount', 'umount2', 'pivot_root'])
      expect(allowed(runtimeDefault, name)).toEqual([]);
    // CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET masked out: a plain fork passes, a namespace does not
    expect(allowed(runtimeDefault, 'clone')).toEqual([
      { names: ['clone'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 2114060288, op: 'SCMP_CMP_MASKED_EQ' }] },
    ]);
  });

  it("the chart's Localhost profile is RuntimeDefault plus the namespace and mount calls, and is current", () => {
    const derived = sandboxRunnerProfile(runtimeDefault);
    expect(readFileSync(SANDBOX_RUNNER_FILE, 'utf8')).toBe(profileText(derived)); // else run profiles.ts
    for (const name of ['clone', ...NAMESPACE_SYSCALLS]) expect(allowed(derived, name)).toHaveLength(1);
    expect(allowed(derived, 'clone')[0].args).toBeUndefined();
    // nothing else: what RuntimeDefault refuses besides stays refused (bpf, keyctl, ptrace of others, ...)
    const names = (p: typeof derived) =>
      new Set(p.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW').flatMap((r) => r.names));
    const added = [...names(derived)].filter((n) => !names(runtimeDefault).has(n)).sort();
    expect(added).toEqual([...NAMESPACE_SYSCALLS].sort());
    for (const name of ['bpf', 'keyctl', 'add_key', 'init_module', 'kexec_load', 'perf_event_open'])
      expect(allowed(derived, name)).toEqual([]);
    // clone3 stays ENOSYS, so the C library falls back to clone
    expect(derived.syscalls.find((r) => r.names.includes('clone3'))).toEqual({
      names: ['clone3'],
      action: 'SCMP_ACT_ERRNO',
      errnoRet: 38,
    });
  });
});
