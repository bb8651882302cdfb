/**
 * Which adapter the farm's forge settings make: the forge, its webhook reader, and the token (FARM_FORGE_TOKEN,
 * else the git credentials configured for the forge's URL). A wrong combination stops start-up with a
 * ConfigError naming the setting.
 */
import { ConfigError, holdSecrets } from '@farm/runtime';

import type { Forge, ForgeKind, WebhookReader } from './forge';
import type { ForgeConfig } from './forge-config';
import { GitHubForge } from './github';
import { GitHubWebhooks, type WebhookReaderOptions } from './github-webhooks';
import { GitLabForge } from './gitlab';
import { GitLabWebhooks } from './gitlab-webhooks';
import { GiteaForge } from './gitea';
import { GiteaWebhooks } from './gitea-webhooks';
import { redactingForge } from './redacting-forge';

export interface CreateForgeOptions {
  kind: ForgeKind;
  /** The web origin; github and gitlab default to github.com and gitlab.com. */
  webUrl?: string;
  apiUrl?: string;
  token: string;
  fetch?: typeof fetch;
}

/** The web origin each forge has when FARM_FORGE_URL is unset (Gitea has none: it is always self-hosted). */
export const DEFAULT_FORGE_URL: Record<ForgeKind, string | undefined> = {
  github: 'https://github.com',
  gitlab: 'https://gitlab.com',
  gitea: undefined,
};

export function createForge(opts: CreateForgeOptions): Forge {
  switch (opts.kind) {
    case 'github':
      return new GitHubForge(opts);
    case 'gitlab':
      return new GitLabForge(opts);
    case 'gitea':
      if (!opts.webUrl) throw new ConfigError("FARM_FORGE_URL is required for gitea: the forge's web address");
      return new GiteaForge({ webUrl: opts.webUrl, apiUrl: opts.apiUrl, token: opts.token, fetch: opts.fetch });
  }
}

export function webhookReaderFor(kind: ForgeKind, opts: WebhookReaderOptions = {}): WebhookReader {
  switch (kind) {
    case 'github':
      return new GitHubWebhooks(opts);
    case 'gitlab':
      return new GitLabWebhooks(opts);
    case 'gitea':
      return new GiteaWebhooks(opts);
  }
}

/**
 * The forge the settings configure, or undefined when FARM_FORGE_KIND is unset (no forge: requests end in
 * branches). `credentialsFor(url)` answers the secret git would use for that URL (a credential helper's
 * password), if any.
 */
export function forgeFromConfig(
  config: ForgeConfig,
  credentialsFor: (url: string) => string | undefined,
  opts: { fetch?: typeof fetch } = {},
): { forge: Forge; webhooks: WebhookReader } | undefined {
  const kind = config.FARM_FORGE_KIND;
  if (!kind) return undefined;
  const webUrl = config.FARM_FORGE_URL ?? DEFAULT_FORGE_URL[kind];
  if (!webUrl) {
    throw new ConfigError(`FARM_FORGE_URL is required when FARM_FORGE_KIND=${kind}: the forge's web address`);
  }
  const token = config.FARM_FORGE_TOKEN || credentialsFor(webUrl);
  if (!token) {
    throw new ConfigError(
      `FARM_FORGE_TOKEN is not set and git has no credentials for ${webUrl}: set FARM_FORGE_TOKEN to an API token of the forge`,
    );
  }
  // The token may be a git credential's rather than a setting's: what the farm writes is redacted of it as well.
  holdSecrets({ secrets: [token, config.FARM_FORGE_WEBHOOK_SECRET] });
  const forge = redactingForge(
    createForge({ kind, webUrl, apiUrl: config.FARM_FORGE_API_URL, token, fetch: opts.fetch }),
  );
  return { forge, webhooks: webhookReaderFor(kind, { label: config.FARM_FORGE_LABEL }) };
}
