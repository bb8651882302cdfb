// The forge settings turned into the bridge and the webhook route, for the orchestrator's service and `farm up`.
import { forgeConfigSchema, forgeFromConfig, type ForgeConfig } from '@farm/forge';
import { splitCredentials } from '@farm/git';
import { ConfigError, z, type Logger } from '@farm/runtime';
import type { SqlStore } from '@farm/store';
import type { ChangeRequestApiDeps } from '../http-api';
import { recordPlanDecision } from '../request-decisions';
import { changeRequestSubmitter, type SubmitterDeps } from '../submissions';
import { ForgeBridge } from './forge-bridge';

export const forgeSetupConfigSchema = forgeConfigSchema.extend({
  /** The farm's address as people reach it (the console's links in comments and pull requests). */
  FARM_PUBLIC_URL: z.string().url().optional(),
});
export type ForgeSetupConfig = z.infer<typeof forgeSetupConfigSchema>;

export interface ForgeSetup {
  bridge: ForgeBridge;
  /** For changeRequestApi: the forge's kind and web address (clients link to it). */
  site: NonNullable<ChangeRequestApiDeps['forgeSite']>;
  /** For changeRequestApi: the webhook route, when a webhook secret is set. */
  webhooks?: ChangeRequestApiDeps['forgeWebhooks'];
}

/**
 * The bridge (started) and the webhook route for the configured forge; undefined without FARM_FORGE_KIND.
 * The forge's token is FARM_FORGE_TOKEN, else the git credentials configured for the forge's URL.
 */
export function startForge(
  config: ForgeSetupConfig,
  deps: { store: SqlStore; log: Logger; tickMs?: number } & SubmitterDeps,
): ForgeSetup | undefined {
  const made = forgeFromConfig(config as ForgeConfig, (url) => splitCredentials(url).auth?.password);
  if (!made) return undefined;
  const pollRepos = config.FARM_FORGE_POLL_REPOS.split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (!config.FARM_FORGE_WEBHOOK_SECRET && !pollRepos.length) {
    throw new ConfigError(
      'FARM_FORGE_KIND is set but neither FARM_FORGE_WEBHOOK_SECRET (to receive webhooks) nor FARM_FORGE_POLL_REPOS (to poll): the farm would hear nothing from the forge',
    );
  }
  const { accept } = changeRequestSubmitter(deps);
  const bridge = new ForgeBridge({
    store: deps.store,
    forge: made.forge,
    submit: accept,
    decide: (id, decision, input, requestedBy, alsoInTx) =>
      recordPlanDecision(deps.orchestrator, id, decision, input, requestedBy, alsoInTx),
    log: deps.log,
    tickMs: deps.tickMs,
    settings: {
      label: config.FARM_FORGE_LABEL,
      mention: config.FARM_FORGE_MENTION,
      statusContext: config.FARM_FORGE_STATUS_CONTEXT,
      pullRequests: config.FARM_FORGE_PULL_REQUESTS,
      publicUrl: config.FARM_PUBLIC_URL,
      pollRepos,
      pollIntervalMs: config.FARM_FORGE_POLL_INTERVAL_S * 1000,
    },
  });
  bridge.start();
  deps.log.info('forge bridge started', {
    forge: made.forge.kind,
    url: made.forge.webUrl,
    webhooks: !!config.FARM_FORGE_WEBHOOK_SECRET,
    polled: pollRepos,
  });
  return {
    bridge,
    site: { kind: made.forge.kind, webUrl: made.forge.webUrl },
    webhooks: config.FARM_FORGE_WEBHOOK_SECRET
      ? {
          webhooks: made.webhooks,
          secret: config.FARM_FORGE_WEBHOOK_SECRET,
          ratePerMinute: config.FARM_FORGE_WEBHOOK_RATE_PER_MIN,
        }
      : undefined,
  };
}
