import { environmentRedactor, type Redactor } from '@farm/runtime';
import type { Forge } from './forge';

/**
 * `forge` with every text the farm writes there (comments, pull request titles and bodies, commit status
 * descriptions) redacted of the secrets the process holds and of every credential's shape: they quote notes,
 * plans and diffs, and a forge's pages are read by anyone who may read the repository. Reads pass through.
 */
export function redactingForge(forge: Forge, redactor: () => Redactor = () => environmentRedactor()): Forge {
  const writes: Partial<Forge> = {
    comment: (repo, number, body, on) => forge.comment(repo, number, redactor()(body), on),
    openOrUpdatePullRequest: (input) => {
      const redact = redactor();
      return forge.openOrUpdatePullRequest({ ...input, title: redact(input.title), body: redact(input.body) });
    },
    setCommitStatus: (input) => forge.setCommitStatus({ ...input, description: redactor()(input.description) }),
  };
  return new Proxy(forge, {
    get(target, name, receiver) {
      if (Object.hasOwn(writes, name)) return writes[name as keyof Forge];
      const value: unknown = Reflect.get(target, name, receiver);
      // The adapter's own methods run on the adapter itself (private fields), not on the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
