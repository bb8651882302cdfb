import { spawn } from 'node:child_process';
import { alive } from './proc';

test('a zombie (killed, not reaped by its parent) is not alive; a live process and ourselves are', async () => {
  // The background child ends a second later, after its parent has exec'd into `sleep`, which never reaps it (a
  // child that ended before the exec could be reaped by the shell itself on a loaded machine: no zombie then).
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 120'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(d))));
  try {
    for (let i = 0; i < 50 && alive(zombie); i++) await new Promise((r) => setTimeout(r, 100));
    expect(() => process.kill(zombie, 0)).not.toThrow(); // the pid still exists...
    expect(alive(zombie)).toBe(false); // ...as a zombie
    expect(alive(parent.pid!)).toBe(true);
    expect(alive(process.pid)).toBe(true);
  } finally {
    parent.kill('SIGKILL');
  }
});
