/**
 * Local git host: `git-http-server-main.ts --root DIR [--port N] [--host H] [--create name.git ...]`; prints its
 * URL on stdout. Started by `farm up` with an IPC channel (startGitServerProcess), it says its URL there instead
 * and exits when the channel closes, i.e. with the farm.
 */
import { parseArgs } from 'node:util';
import { createLogger } from '@farm/runtime';
import { startGitHttpServer } from './git-http-server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      create: { type: 'string', multiple: true, default: [] },
    },
  });
  if (!values.root) throw new Error('usage: git-http-server-main --root DIR [--port N] [--host H] [--create NAME]...');
  const log = createLogger('git-http-server');
  const server = await startGitHttpServer({ root: values.root, port: Number(values.port), host: values.host, log });
  for (const name of values.create ?? []) log.info('created repo', { url: await server.createBareRepo(name) });
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (process.send) {
    process.on('disconnect', () => process.exit(0)); // the farm went away: so does its git server
    process.send({ url: server.url });
  } else process.stdout.write(server.url + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
