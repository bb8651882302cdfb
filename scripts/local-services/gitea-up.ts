/**
 * A throwaway Gitea on this machine, for trying the farm's forge integration (docs/forges.md, "Pull requests on
 * your forge"): builds Gitea once (cached in ~/.cache/agent-farm), starts it on loopback with an admin account and
 * prints what to export; Ctrl-C stops it and removes its data.
 *   node --import tsx scripts/local-services/gitea-up.ts [--port N]     (a free port unless given)
 */
import { parseArgs } from 'node:util';
import { createLogger } from '@farm/runtime';
import { startGitea } from './gitea';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' } } });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new Error(`--port: a port number from 1 to 65535, not ${values.port}`);
  }
  const gitea = await startGitea({ log: createLogger('gitea-up'), port });
  process.stdout.write(
    [
      `# Gitea ${gitea.url} is up (admin ${gitea.adminUser}, password ${gitea.adminPassword}); Ctrl-C stops it.`,
      `export GITEA_URL=${gitea.url} GITEA_TOKEN=${gitea.token}`,
      '',
    ].join('\n'),
  );
  const stop = () => void gitea.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => undefined, 1 << 30);
}

main().catch((err) => {
  process.stderr.write(`gitea-up: ${(err as Error).message}\n`);
  process.exit(1);
});
