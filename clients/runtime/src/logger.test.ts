import { FarmError } from './errors';
import { createLogger } from './logger';

const capture = () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('test', { level: 'debug', write: (l) => lines.push(JSON.parse(l)) });
  return { log, lines };
};

describe('structured logs', () => {
  it('keep a FarmError whole: name, message, retryable, details, cause and stack', () => {
    const { log, lines } = capture();
    const cause = new Error('socket hang up');
    log.error('push failed', {
      err: new FarmError('push of agt/t1 rejected', { retryable: true, details: { branch: 'agt/t1' }, cause }),
    });
    const err = lines[0].err as Record<string, unknown>;
    expect(err).toMatchObject({
      name: 'FarmError',
      message: 'push of agt/t1 rejected',
      retryable: true,
      details: { branch: 'agt/t1' },
      cause: { name: 'Error', message: 'socket hang up' },
    });
    expect(String(err.stack)).toContain('logger.test.ts');
  });

  it('never show credentials written in a URL, in the message, fields or errors', () => {
    const { log, lines } = capture();
    const url = 'https://bot:s3cret@git.example.com/app.git';
    log.warn(`clone of ${url} failed`, { url, nested: [{ url }], err: new Error(`fatal: ${url}`) });
    expect(JSON.stringify(lines[0])).not.toContain('s3cret');
    expect(lines[0].url).toBe('https://[secret redacted]@git.example.com/app.git');
  });

  it("never show a secret of the process's settings, however deep in the fields", () => {
    const { log, lines } = capture();
    process.env.FARM_FORGE_TOKEN = 'canary-forge-token-1';
    try {
      const deep = { a: { b: { c: { d: { e: { f: { g: { h: 'canary-forge-token-1' } } } } } } } };
      log.info('forge answered with canary-forge-token-1', { deep });
    } finally {
      delete process.env.FARM_FORGE_TOKEN;
    }
    expect(JSON.stringify(lines[0])).not.toContain('canary-forge-token-1');
    expect(lines[0].msg).toBe('forge answered with [secret redacted]');
  });
});
