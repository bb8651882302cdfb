import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TokenNotFound, newToken, type TokenStore } from '@farm/access';
import { FARM_ROOT } from '@farm/runtime';
import { DEFAULT_STATE_DIR } from './config';

/** The name of the admin token `farm up` creates at its first start. */
export const FARM_UP_TOKEN_NAME = 'farm-up-admin';

/**
 * `farm up`'s admin token: the one kept in `file` while it is still live, else a new one written there (mode
 * 600). A lost or revoked file's token is revoked and replaced, so the file always holds a working token.
 */
export async function ensureFarmUpToken(
  tokens: TokenStore,
  file: string,
): Promise<{ token: string; created: boolean }> {
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (kept && (await tokens.verify(kept))) {
    chmodSync(file, 0o600); // in case someone widened it
    return { token: kept, created: false };
  }
  await tokens.revoke(FARM_UP_TOKEN_NAME, 'farm-up').catch((err) => {
    if (!(err instanceof TokenNotFound)) throw err;
  });
  const { token } = await tokens.create({ name: FARM_UP_TOKEN_NAME, scopes: ['admin'] }, 'farm-up', {
    untilRevoked: true,
  });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync keeps the mode of a file that was there
  return { token, created: true };
}

/** The component token of `farm up`: FARM_COMPONENT_TOKEN when given, else one generated once into `file`. */
export function ensureComponentToken(file: string, given: string | undefined): string {
  if (given) return given;
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (kept) return kept;
  const token = newToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/**
 * What `farm up` prints at each start, like a notebook server: where it is, where its admin token is kept, and
 * how to reach it from elsewhere (the farm CLI of this checkout finds both by itself, from any directory).
 */
export function tokenNotice(apiUrl: string, file: string, created = true, stateDir = DEFAULT_STATE_DIR): string {
  // The CLI finds the farm on its default state directory by itself; on another one, when told which.
  const via = stateDir === DEFAULT_STATE_DIR ? '' : `FARM_STATE_DIR=${stateDir} `;
  return [
    `farm up: the API and its console are at ${apiUrl}`,
    created
      ? `  An admin token was created and kept in ${file} (mode 600); the farm CLI on this machine uses it.`
      : `  Its admin token is kept in ${file} (mode 600); the farm CLI on this machine uses it.`,
    `  This checkout's farm command finds this farm from any directory: ${via}${path.join(FARM_ROOT, 'farm')} submit --repo . --title "<what to change>" --watch`,
    `  Another farm CLI, or a script:  export FARM_URL=${apiUrl} FARM_TOKEN=$(cat ${file})`,
    `  Tokens for others: farm token create --name <name> --scopes read,submit`,
    '',
  ].join('\n');
}
