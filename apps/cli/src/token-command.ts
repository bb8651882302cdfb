import { type Command, InvalidArgumentError } from 'commander';
import { SCOPES, type Scope } from '@farm/access';
import type { Token } from '@farm/farm-api';
import { cliApi } from './cli-api';

/** `read,submit` as scopes; an unknown one is refused before anything is asked. */
export function parseScopes(value: string): Scope[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
  if (!scopes.length || unknown.length) {
    throw new InvalidArgumentError(
      `a comma-separated list of ${SCOPES.join(', ')}${unknown.length ? `; not ${unknown.join(', ')}` : ''}`,
    );
  }
  return scopes as Scope[];
}

export function formatTokens(tokens: Token[]): string {
  if (!tokens.length) return 'no tokens';
  const rows = tokens.map((t) => [
    t.name,
    t.scopes.join(','),
    t.createdBy,
    t.createdAt.slice(0, 19).replace('T', ' '),
    t.lastUsedAt ? t.lastUsedAt.slice(0, 19).replace('T', ' ') : '-',
    t.revokedAt ? `revoked ${t.revokedAt.slice(0, 10)}` : 'live',
    t.id,
  ]);
  const header = ['NAME', 'SCOPES', 'CREATED BY', 'CREATED', 'LAST USED', 'STATE', 'ID'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `farm token create|list|revoke`: the farm's bearer tokens, through the API with an admin token. */
export function registerTokenCommand(program: Command): void {
  const token = program
    .command('token')
    .description('bearer tokens for the farm API (needs an admin token: FARM_TOKEN, or farm up’s own)');
  token
    .command('create')
    .description('create a token; prints it once (the farm keeps only its hash)')
    .requiredOption('--name <name>', 'what it is for, e.g. ci-bot (unique among live tokens)')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, parseScopes)
    .option('--json', 'print JSON')
    .action(async (o: { name: string; scopes: Scope[]; json?: boolean }) => {
      const created = await (await cliApi()).createToken(o.name, o.scopes);
      process.stdout.write(
        o.json
          ? `${JSON.stringify(created)}\n`
          : `${created.token}\n` +
              `  token ${created.name} (${created.scopes.join(', ')}), id ${created.id}: shown only now; ` +
              'use it as FARM_TOKEN or in Authorization: Bearer\n',
      );
    });
  token
    .command('list')
    .description('the tokens, without their secrets')
    .option('--all', 'include revoked tokens')
    .option('--json', 'print JSON')
    .action(async (o: { all?: boolean; json?: boolean }) => {
      const tokens = await (await cliApi()).listTokens({ includeRevoked: !!o.all });
      process.stdout.write(`${o.json ? JSON.stringify(tokens, null, 2) : formatTokens(tokens)}\n`);
    });
  token
    .command('revoke <id-or-name>')
    .description('revoke a token: the next request with it is refused')
    .option('--json', 'print JSON')
    .action(async (idOrName: string, o: { json?: boolean }) => {
      const revoked = await (await cliApi()).revokeToken(idOrName);
      process.stdout.write(o.json ? `${JSON.stringify(revoked)}\n` : `revoked ${revoked.name} (${revoked.id})\n`);
    });
}
