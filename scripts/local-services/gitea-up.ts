/**
 * A throwaway Gitea on this machine, for trying the farm's forge integration (README, "Pull requests on your
 * forge"): builds Gitea once (cached in ~/.cache/agent-farm), starts it on loopback with an admin account and
 * prints what to export; Ctrl-C stops it and removes its data.
 *   node --import tsx scripts/local-services/gitea-up.ts
 */
import { createLogger } from '@farm/runtime';
import { startGitea } from './gitea';

async function main(): Promise<void> {
  const gitea = await startGitea({ log: createLogger('gitea-up') });
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
