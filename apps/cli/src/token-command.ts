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

/** `30d`, `12h`, `45m`, `3600s` or `3600` as seconds; anything else is refused before anything is asked. */
export function parseDuration(value: string): number {
  const m = /^(\d+)\s*(d|h|m|s)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('a duration such as 30d, 12h, 45m or 3600s');
  return Number(m[1]) * { d: 86_400, h: 3600, m: 60, s: 1 }[(m[2] ?? 's') as 'd' | 'h' | 'm' | 's'];
}

/** A token's state as of `now`: live, expired or revoked. */
function tokenState(t: Token, now: number): string {
  if (t.revokedAt) return `revoked ${t.revokedAt.slice(0, 10)}`;
  if (t.expiresAt && Date.parse(t.expiresAt) <= now) return `expired ${t.expiresAt.slice(0, 10)}`;
  return 'live';
}

export function formatTokens(tokens: Token[], now = Date.now()): string {
  if (!tokens.length) return 'no tokens';
  const rows = tokens.map((t) => [
    t.name,
    t.scopes.join(','),
    t.createdBy,
    t.createdAt.slice(0, 19).replace('T', ' '),
    t.expiresAt ? t.expiresAt.slice(0, 19).replace('T', ' ') : 'never',
    t.lastUsedAt ? t.lastUsedAt.slice(0, 19).replace('T', ' ') : '-',
    tokenState(t, now),
    t.id,
  ]);
  const header = ['NAME', 'SCOPES', 'CREATED BY', 'CREATED', 'EXPIRES', 'LAST USED', 'STATE', 'ID'];
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
    .option(
      '--expires-in <duration>',
      'how long it lives, e.g. 30d or 12h (default: the operator’s FARM_TOKEN_TTL_S, else until revoked)',
      parseDuration,
    )
    .option('--json', 'print JSON')
    .action(async (o: { name: string; scopes: Scope[]; expiresIn?: number; json?: boolean }) => {
      const created = await (await cliApi()).createToken(o.name, o.scopes, o.expiresIn);
      const until = created.expiresAt ? `expires ${created.expiresAt}` : 'lives until revoked';
      process.stdout.write(
        o.json
          ? `${JSON.stringify(created)}\n`
          : `${created.token}\n` +
              `  token ${created.name} (${created.scopes.join(', ')}), id ${created.id}, ${until}: shown only now; ` +
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
