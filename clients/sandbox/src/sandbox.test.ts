import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CommandDenied, SandboxError } from './errors';
import { ConfinementUnavailable, RISKS } from './confinement';
import { NO_NAMESPACES } from './isolation';
import { detectIsolation, runSandboxed } from './sandbox';
import type { SandboxRequest } from './sandbox-request';

/** What the sandbox falls back to on a machine without namespaces and cgroups (bash ulimit). */
const FALLBACK: SandboxRequest['capabilities'] = {
  namespaces: NO_NAMESPACES,
  cgroups: null,
  limitsTool: 'ulimit',
};
/** The fallbacks run only where the operator accepted what they lack (FARM_SANDBOX_ACCEPT_RISK=all). */
const MODES: [string, Partial<SandboxRequest>][] = [
  ['with the isolation this machine offers', {}],
  [
    'with prlimit but no namespaces or cgroups',
    { capabilities: { ...FALLBACK, limitsTool: 'prlimit' }, acceptRisks: RISKS },
  ],
  ['with only a process group and ulimits', { capabilities: FALLBACK, acceptRisks: RISKS }],
];

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Processes whose command line contains `tag` (seen from the host, whatever namespaces they are in). */
function processesTagged(tag: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(tag);
      } catch {
        return false; // exited while we looked
      }
    })
    .map(Number);
}

async function eventually(check: () => boolean, withinMs = 5000): Promise<boolean> {
  for (let i = 0; i < withinMs / 50 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  return check();
}

function isSleep(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\0');
  } catch {
    return false; // exited while we looked
  }
}

const uniqueTag = (lead: number) => `${lead}${Date.now() % 100000}.${process.pid}`; // a sleep no one else uses

describe('runSandboxed', () => {
  it('reports what isolation this machine gives', async () => {
    const isolation = await detectIsolation('none');
    // the report is the contract: callers tell users when a command ran with the host network
    expect(['namespace', 'unavailable']).toContain(isolation.network);
    expect(['prlimit', 'ulimit', 'none']).toContain(isolation.limits);
    console.log(`sandbox isolation here: ${JSON.stringify(isolation)}`);
  });

  it('cuts a check off from the network, which it reaches with network "host", but gives it its own loopback', async () => {
    const server = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const probe = [
      'node',
      '-e',
      `require('http').get('http://127.0.0.1:${port}/', (r) => { console.log('status', r.statusCode); process.exit(0); })` +
        `.on('error', (e) => { console.log('error', e.code); process.exit(3); })`,
    ];
    // binds 127.0.0.1:0 and connects to itself, as a test suite's local server does
    const selfTalk = [
      'node',
      '-e',
      "const net = require('net'); const s = net.createServer((c) => c.end('pong')).listen(0, '127.0.0.1', () =>" +
        " net.connect(s.address().port, '127.0.0.1').on('data', (d) => { console.log('got', String(d)); process.exit(0); })" +
        ".on('error', (e) => { console.log('error', e.code); process.exit(3); }))",
    ];
    try {
      const isolated = await runSandboxed({ argv: probe, cwd: work, timeoutMs: 30_000 });
      const open = await runSandboxed({ argv: probe, cwd: work, timeoutMs: 30_000, network: 'host' });
      const own = await runSandboxed({ argv: selfTalk, cwd: work, timeoutMs: 30_000 });
      expect(open.output).toContain('status 200');
      expect(open.isolation.network).toBe('host');
      if (isolated.isolation.network === 'namespace') {
        expect(isolated.exitCode).toBe(3);
        expect(isolated.output).toMatch(/error E[A-Z]+/);
        expect(own.isolation.loopback).not.toBe('host');
        if (own.isolation.loopback === 'own') expect([own.exitCode, own.output]).toEqual([0, 'got pong\n']);
      } else {
        // no namespace here: the run says so instead of pretending
        expect(isolated.isolation.network).toBe('unavailable');
        expect(isolated.output).toContain('status 200');
      }
    } finally {
      server.close();
    }
  });

  it('refuses a denylisted command before anything runs', async () => {
    const attempt = runSandboxed({ command: 'touch ran && git push --force origin main', cwd: work, timeoutMs: 5000 });
    await expect(attempt).rejects.toBeInstanceOf(CommandDenied);
    await expect(attempt).rejects.toMatchObject({ rule: 'git-force-push', retryable: false });
    expect(existsSync(join(work, 'ran'))).toBe(false);
  });

  it('refuses, before anything runs, a command that would lack a guarantee the operator did not accept', async () => {
    const lacking = { capabilities: FALLBACK, command: 'touch ran', cwd: work, timeoutMs: 5000 };
    const refused = runSandboxed(lacking);
    await expect(refused).rejects.toBeInstanceOf(ConfinementUnavailable);
    await expect(refused).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('set FARM_SANDBOX_ACCEPT_RISK=network,filesystem,processes to run them anyway'),
    });
    // what is accepted is no longer named; what is not still refuses
    const partly = runSandboxed({ ...lacking, acceptRisks: ['network'] });
    await expect(partly).rejects.toMatchObject({ gaps: [{ risk: 'filesystem' }, { risk: 'processes' }] });
    expect(existsSync(join(work, 'ran'))).toBe(false);
    // a run that asks for the host network needs no network namespace
    const hostNetwork = runSandboxed({ ...lacking, network: 'host', acceptRisks: ['filesystem'] });
    await expect(hostNetwork).rejects.toMatchObject({ gaps: [{ risk: 'processes' }] });
    const accepted = await runSandboxed({ ...lacking, acceptRisks: RISKS });
    expect(accepted.exitCode).toBe(0);
    expect(existsSync(join(work, 'ran'))).toBe(true);
  });

  it('refuses to start in a working directory that does not exist', async () => {
    await expect(runSandboxed({ argv: ['true'], cwd: join(work, 'missing'), timeoutMs: 5000 })).rejects.toBeInstanceOf(
      SandboxError,
    );
  });

  it.each(MODES)('kills a command that loops forever at its timeout, children included (%s)', async (_m, caps) => {
    const tag = `4${Date.now() % 100000}.${process.pid}`; // a sleep duration no other process uses
    const result = await runSandboxed({
      // a child in the group, one that left it with setsid, and a busy leader
      command: `sleep ${tag} & setsid sleep ${tag} & while :; do :; done`,
      cwd: work,
      timeoutMs: 1500,
      ...caps,
    });
    expect(result.timedOut).toBe(true);
    expect(result.killedBy).toBe('timeout');
    expect(result.output).toContain('timeout');
    expect(await eventually(() => processesTagged(tag).length === 0)).toBe(true);
  });

  it('does not let background jobs outlive a command that finished', async () => {
    const tag = `5${Date.now() % 100000}.${process.pid}`;
    const result = await runSandboxed({
      command: `(sleep ${tag} >/dev/null 2>&1 &) ; echo done`,
      cwd: work,
      timeoutMs: 20_000,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(await eventually(() => processesTagged(tag).length === 0)).toBe(true);
  });

  it('hides the secrets of the parent environment', async () => {
    process.env.OPENAI_API_KEY = 'sk-parent-secret';
    process.env.FARM_TEST_DEPLOY_TOKEN = 'parent-token-secret';
    try {
      const result = await runSandboxed({
        // also look where a same-user process could read the farm's environment: its /proc entry
        command: `env; cat /proc/${process.pid}/environ 2>/dev/null | tr '\\0' '\\n'`,
        cwd: work,
        timeoutMs: 20_000,
        env: {
          SAFE_SETTING: 'visible',
          GITHUB_TOKEN: 'passed-token-secret',
          AWS_ACCESS_KEY_ID: 'passed-aws-secret',
          REGISTRY_URL: 'https://user:passed-url-secret@registry.example',
        },
      });
      const envPart = result.output.split('\n').filter((l) => /^[A-Z_]+=/.test(l));
      expect(result.output).toContain('SAFE_SETTING=visible');
      expect(result.output).toContain('CI=true');
      expect(result.droppedEnv.sort()).toEqual(['AWS_ACCESS_KEY_ID', 'GITHUB_TOKEN', 'REGISTRY_URL']);
      expect(result.output).not.toMatch(/passed-(token|aws|url)-secret/);
      if (result.isolation.processTree === 'pid-namespace') expect(result.output).not.toMatch(/parent-.*secret/);
      else expect(envPart.join('\n')).not.toMatch(/sk-parent-secret/); // /proc is readable without a PID namespace
      expect(result.output).toMatch(/^HOME=.*farm-sandbox-/m);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.FARM_TEST_DEPLOY_TOKEN;
    }
  });

  it.each(MODES)('stops a command that takes more memory than allowed (%s)', async (_m, caps) => {
    const allocate = (mb: number) => [
      'node',
      '-e',
      `const b = Buffer.alloc(${mb} * 1024 * 1024, 1); console.log(b.length)`,
    ];
    const limits = { memoryBytes: 256 * 1024 * 1024 };
    const small = await runSandboxed({ argv: allocate(16), cwd: work, timeoutMs: 60_000, limits, ...caps });
    expect(small.exitCode).toBe(0);
    const big = await runSandboxed({ argv: allocate(1500), cwd: work, timeoutMs: 60_000, limits, ...caps });
    expect(big.exitCode).not.toBe(0);
    expect(big.killedBy).toBe('memory');
    expect(big.output).toContain('out of memory');
  });

  it.each(MODES)('stops a file from growing past the file-size limit (%s)', async (_m, caps) => {
    const result = await runSandboxed({
      command: 'head -c 5000000 /dev/zero > big.bin',
      cwd: work,
      timeoutMs: 20_000,
      limits: { maxFileBytes: 1_000_000 },
      ...caps,
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.killedBy).toBe('file-size');
    expect(statSync(join(work, 'big.bin')).size).toBeLessThanOrEqual(1_000_000);
  });

  it.each(MODES)('stops a busy loop at its CPU-time limit before the timeout (%s)', async (_m, caps) => {
    const result = await runSandboxed({
      command: 'while :; do :; done',
      cwd: work,
      timeoutMs: 60_000,
      limits: { cpuSeconds: 1 },
      ...caps,
    });
    expect(result.timedOut).toBe(false);
    expect(result.killedBy).toBe('cpu');
  });

  it('caps the number of processes where a cgroup can', async () => {
    const result = await runSandboxed({
      command: "sh -c 'for i in $(seq 40); do sleep 30 & done; wait'", // dash gives up at the first failed fork
      cwd: work,
      timeoutMs: 30_000,
      limits: { maxProcesses: 10 },
    });
    if (result.isolation.processes === 'cgroup') {
      expect(result.exitCode).not.toBe(0);
      expect(result.killedBy).toBe('processes');
    } else {
      // RLIMIT_NPROC does not bind root: a fork bomb would only end at the timeout. Reported, not hidden.
      expect(['rlimit-nproc', 'none']).toContain(result.isolation.processes);
    }
  });

  it("runs a unittest suite of stdlib socketserver and http.server servers on the run's own loopback", async () => {
    // a stand-in for a repository's socket tests (boltons' test_socketutils failed on a loopback that was down)
    writeFileSync(join(work, 'hello.txt'), 'hello');
    writeFileSync(
      join(work, 'test_loopback.py'),
      [
        'import functools, http.server, socket, socketserver, threading, unittest, urllib.request',
        '',
        'class Upper(socketserver.BaseRequestHandler):',
        '    def handle(self):',
        '        self.request.sendall(self.request.recv(1024).upper())',
        '',
        'def serving(server):',
        '    threading.Thread(target=server.serve_forever, daemon=True).start()',
        '    return server',
        '',
        'class LoopbackTests(unittest.TestCase):',
        '    def test_tcp_server_answers(self):',
        "        with serving(socketserver.ThreadingTCPServer(('127.0.0.1', 0), Upper)) as server:",
        '            with socket.create_connection(server.server_address, timeout=5) as client:',
        "                client.sendall(b'ping')",
        "                self.assertEqual(client.recv(1024), b'PING')",
        '            server.shutdown()',
        '',
        '    def test_udp_server_answers(self):',
        '        class UdpUpper(socketserver.BaseRequestHandler):',
        '            def handle(self):',
        '                data, sock = self.request',
        '                sock.sendto(data.upper(), self.client_address)',
        "        with serving(socketserver.UDPServer(('127.0.0.1', 0), UdpUpper)) as server:",
        '            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:',
        '                client.settimeout(5)',
        "                client.sendto(b'ping', server.server_address)",
        "                self.assertEqual(client.recv(1024), b'PING')",
        '            server.shutdown()',
        '',
        '    def test_http_server_serves_the_checkout(self):',
        "        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory='.')",
        "        with serving(http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)) as server:",
        "            url = f'http://127.0.0.1:{server.server_address[1]}/hello.txt'",
        "            self.assertEqual(urllib.request.urlopen(url, timeout=5).read(), b'hello')",
        '            server.shutdown()',
        '',
      ].join('\n'),
    );
    const result = await runSandboxed({
      argv: ['python3', '-m', 'unittest', '-v', 'test_loopback'],
      cwd: work,
      timeoutMs: 60_000,
    });
    if (result.isolation.loopback === 'down')
      throw new Error('a network namespace without loopback must not be reported as fine');
    expect(result.timedOut).toBe(false);
    expect(result.output).toMatch(/Ran 3 tests/);
    expect(result.output).toMatch(/\nOK\n?$/);
    expect(result.exitCode).toBe(0);
  });

  it('keeps every write outside the checkout (and a cache it is given) off the host, even as root', async () => {
    // a checkout outside /tmp, so that its parent is a host directory the command cannot write
    const checkout = mkdtempSync('/var/tmp/sandbox-checkout-');
    const cache = mkdtempSync('/var/tmp/sandbox-cache-');
    const id = randomBytes(6).toString('hex');
    const escapes = [`/var/tmp/outside-${id}`, join(dirname(checkout), `escaped-${id}`), `/tmp/outside-${id}`];
    try {
      const result = await runSandboxed({
        command: [
          'echo in > inside.txt && echo wrote-checkout',
          `echo out > /var/tmp/outside-${id} && echo wrote-var-tmp`,
          `echo out > ../escaped-${id} && echo wrote-parent`,
          `echo out > /tmp/outside-${id} && echo wrote-private-tmp`,
          'echo out > "$TMPDIR/scratch" && echo wrote-tmpdir',
          `echo cached > ${cache}/entry && echo wrote-cache`,
          'mount -o remount,rw / 2>/dev/null && echo remounted',
          'true',
        ].join('; '),
        cwd: checkout,
        writableDirs: [cache],
        timeoutMs: 20_000,
      });
      console.log(`filesystem isolation as uid ${process.getuid?.()}: ${result.isolation.filesystem}`);
      expect(readFileSync(join(checkout, 'inside.txt'), 'utf8')).toBe('in\n');
      expect(result.output).toContain('wrote-tmpdir');
      expect(readFileSync(join(cache, 'entry'), 'utf8')).toBe('cached\n');
      if (result.isolation.filesystem === 'checkout-only') {
        for (const path of escapes) expect(existsSync(path)).toBe(false);
        expect(result.output).not.toMatch(/wrote-var-tmp|wrote-parent|remounted/);
        expect(result.output).toMatch(/outside-.*: Read-only file system/);
        expect(result.output).toMatch(/escaped-.*: Read-only file system/);
        expect(result.output).toContain('wrote-private-tmp'); // its own /tmp, gone with the run
      } else {
        expect(result.isolation.filesystem).toBe('unrestricted'); // said, not hidden
      }
    } finally {
      for (const path of escapes) rmSync(path, { force: true });
      rmSync(checkout, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('bounds a fork bomb by the process limit and leaves nothing of it behind', async () => {
    const isolation = await detectIsolation('none');
    // without a cgroup a fork bomb run as root is only ended by the timeout (reported as 'rlimit-nproc')
    if (isolation.processes !== 'cgroup') return expect(isolation.processes).not.toBe('cgroup');
    const tag = `farm-bomb-${randomBytes(4).toString('hex')}`;
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, processesTagged(tag).length)), 20);
    try {
      const result = await runSandboxed({
        argv: ['bash', '-c', 'bomb() { bomb | bomb & }; bomb; sleep 2', tag],
        cwd: work,
        timeoutMs: 10_000,
        limits: { maxProcesses: 40 },
      });
      expect(result.output).toMatch(/Resource temporarily unavailable|retry/);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(40);
    expect(await eventually(() => processesTagged(tag).length === 0)).toBe(true);
  });

  it('keeps the start and the end of long output, with a marker between', async () => {
    const result = await runSandboxed({
      command: 'for i in $(seq 1 5000); do echo "line $i"; done; echo "the error is here" >&2; exit 1',
      cwd: work,
      timeoutMs: 20_000,
      limits: { maxOutputBytes: 2000 },
    });
    expect(result.exitCode).toBe(1);
    expect(result.output.length).toBeLessThan(2200);
    expect(result.output).toMatch(/^line 1\n/);
    expect(result.output).toMatch(/omitted/);
    // The last line says how much is not shown, of all the command printed.
    const [, total, lines, notShown] =
      /line 5000\nthe error is here\n\[output: (\d+) characters in (\d+) lines; about \d+ lines \((\d+) characters\) not shown\]$/.exec(
        result.output,
      )!;
    expect([Number(total), Number(lines)]).toEqual([result.outputChars, 5001]);
    expect(Number(notShown)).toBeGreaterThan(40_000);
    expect(result.outputChars).toBeGreaterThan(40_000);
  });

  it('an output far beyond what is kept in memory says how much of it was not kept, not a few omitted lines', async () => {
    // About 8 MB: more than the capture keeps while the command runs (256 KB of start, 2 MB of end).
    const result = await runSandboxed({
      command: 'yes "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789" | head -n 110000',
      cwd: work,
      timeoutMs: 60_000,
      limits: { maxOutputBytes: 2000 },
    });
    const [, lines, notShown] =
      /\[output: \d+ characters in (\d+) lines; about \d+ lines \((\d+) characters\) not shown\]$/.exec(result.output)!;
    expect(Number(lines)).toBe(110_000);
    expect(Number(notShown)).toBeGreaterThan(8_000_000);
  });
});

describe('the lifetime of a sandboxed command, bound from outside the agent', () => {
  const parentScript = join(__dirname, '..', 'testing', 'sandboxed-parent.ts');
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const startParent = (command: string, timeoutMs: number) =>
    spawn(process.execPath, ['--import', tsx, parentScript, command, work, String(timeoutMs)], { stdio: 'ignore' });
  // a child, one that left the process group, and a grandchild whose parent is gone
  const tree = (tag: string) => `sleep ${tag} & setsid sleep ${tag} & (sleep ${tag} &); sleep ${tag}`;

  it('ends, whole tree included, when the agent that started it is SIGKILLed', async () => {
    const tag = uniqueTag(6);
    const parent = startParent(tree(tag), 120_000);
    const command = () => processesTagged(tag).filter((pid) => pid !== parent.pid); // its argv holds the tag too
    try {
      expect(await eventually(() => command().filter((pid) => isSleep(pid)).length === 4, 30_000)).toBe(true);
      parent.kill('SIGKILL');
      const isolation = await detectIsolation('none');
      if (isolation.endsWithParent) expect(await eventually(() => command().length === 0)).toBe(true);
      else expect(command().length).toBeGreaterThan(0); // reported: this machine cannot do it
    } finally {
      parent.kill('SIGKILL');
      for (const pid of command()) process.kill(pid, 'SIGKILL');
    }
  });

  it('ends at its timeout even when the agent hangs and its own timer never fires', async () => {
    const tag = uniqueTag(7);
    const parent = startParent(tree(tag), 3000);
    const command = () => processesTagged(tag).filter((pid) => pid !== parent.pid);
    try {
      expect(await eventually(() => command().filter((pid) => isSleep(pid)).length === 4, 30_000)).toBe(true);
      parent.kill('SIGUSR1'); // blocks the parent's event loop for good
      const isolation = await detectIsolation('none');
      if (isolation.externalTimeout && isolation.processTree === 'pid-namespace') {
        expect(await eventually(() => command().length === 0, 15_000)).toBe(true);
        expect(parent.exitCode).toBeNull(); // the agent is still there, hung: timeout(1) did it
      }
    } finally {
      parent.kill('SIGKILL');
      for (const pid of command()) process.kill(pid, 'SIGKILL');
    }
  });
});
