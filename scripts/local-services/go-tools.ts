/**
 * The Go-built tools of the tests and deploy checks, cached outside the clone (~/.cache/agent-farm):
 *   node --import tsx scripts/local-services/go-tools.ts build   builds what is missing (control plane + helm,
 *                                                                 the manifest validator, Gitea, the real node's
 *                                                                 kubelet and kube-router), in parallel
 *   node --import tsx scripts/local-services/go-tools.ts env     prints HELM=..., VALIDATE=... and GITEA=...
 *                                                                 (building first)
 * The test command starts `build` in the background first thing, so the cold builds overlap the install, lint,
 * type check and the tests that need no cluster; whoever asks later waits for that build instead of repeating it.
 */
import { createLogger } from '@farm/runtime';
import { ensureGitea } from './gitea';
import { ensureControlPlaneBinaries, ensureHelm, ensureManifestValidator } from './kube-control-plane';
import { ensureNodeTools } from './real-node/node-tools';

async function main(command: string | undefined): Promise<number> {
  const log = createLogger('go-tools');
  if (command === 'build') {
    await Promise.all([
      ensureControlPlaneBinaries(log),
      ensureManifestValidator(log),
      ensureGitea(log),
      ensureNodeTools(log),
    ]);
    return 0;
  }
  if (command === 'env') {
    const [helm, validate, gitea] = await Promise.all([
      ensureHelm(log),
      ensureManifestValidator(log),
      ensureGitea(log),
    ]);
    process.stdout.write(`HELM=${helm}\nVALIDATE=${validate}\nGITEA=${gitea.bin}\n`);
    return 0;
  }
  process.stderr.write('usage: go-tools.ts build|env\n');
  return 2;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`go-tools: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
