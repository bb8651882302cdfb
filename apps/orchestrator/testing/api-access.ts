import { randomUUID } from 'node:crypto';
import type { Scope } from '@farm/access';
import type { SqlStore } from '@farm/store';
import { openApiAccess, type ApiAccess, type ApiAccessConfig } from '../src/api-access';

/**
 * The API's access on a test's store, with an admin token for the test's calls; `tokenWith` makes others.
 * Names are unique to the call: the PostgreSQL database may be shared.
 */
export async function testApiAccess(
  store: SqlStore,
  config: Partial<ApiAccessConfig> = {},
): Promise<{ access: ApiAccess; adminToken: string; tokenWith(scopes: Scope[], name?: string): Promise<string> }> {
  const access = await openApiAccess(store, config);
  const tokenWith = async (scopes: Scope[], name = `test-${scopes.join('-')}-${randomUUID().slice(0, 8)}`) =>
    (await access.tokens.create({ name, scopes }, 'test')).token;
  return { access, adminToken: await tokenWith(['admin']), tokenWith };
}
