import { containersConf, hardLimits } from './podman';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             96365                96365                processes
Max open files            1024                 20000                files
`;

describe("podman's configuration on a machine like CI's", () => {
  it("gives containers the host's hard limits at most: root without CAP_SYS_RESOURCE may not raise them", () => {
    expect(hardLimits(LIMITS)).toEqual({ nofile: 20000, nproc: 96365 });
    // nproc above 32768 fails under runc there even though the host allows more.
    expect(containersConf(hardLimits(LIMITS), '/c')).toContain(
      'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]',
    );
    const unlimited = LIMITS.replace('96365                processes', 'unlimited            processes');
    expect(hardLimits(unlimited).nproc).toBe(Infinity);
  });

  it('runs runc on cgroupfs (crun refuses cgroup v1 hybrid; no systemd) and logs events to a file', () => {
    const conf = containersConf({ nofile: Infinity, nproc: Infinity }, '/c');
    expect(conf).toMatch(/^runtime = "runc"$/m);
    expect(conf).toMatch(/^cgroup_manager = "cgroupfs"$/m);
    expect(conf).toMatch(/^events_logger = "file"$/m);
    expect(conf).toContain('"nofile=1048576:1048576"');
  });
});
