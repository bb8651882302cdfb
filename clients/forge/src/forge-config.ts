import { z } from '@farm/runtime';

/** The farm's forge settings (one forge per farm). Unset FARM_FORGE_KIND: no forge, requests end in branches. */
export const forgeConfigSchema = z.object({
  /** github | gitlab | gitea (Forgejo too). */
  FARM_FORGE_KIND: z.enum(['github', 'gitlab', 'gitea']).optional(),
  /** The forge's web origin (default https://github.com, https://gitlab.com; required for gitea). */
  FARM_FORGE_URL: z.string().url().optional(),
  /** Its API root when not the usual one (GitHub Enterprise: https://host/api/v3). */
  FARM_FORGE_API_URL: z.string().url().optional(),
  /** A token for the API; else the git credentials configured for the forge's URL. */
  FARM_FORGE_TOKEN: z.string().optional(),
  /** The webhook secret: deliveries without its signature are refused. Required to receive webhooks. */
  FARM_FORGE_WEBHOOK_SECRET: z.string().optional(),
  /** An issue with this label becomes a change request. */
  FARM_FORGE_LABEL: z.string().min(1).default('agent-farm'),
  /** A comment containing this mention becomes a change request (on an issue) or a follow-up (on a farm PR). */
  FARM_FORGE_MENTION: z.string().min(2).default('@agent-farm'),
  /** request: one pull request per change request (farm/<id>); task: one per task (agt/<task>); off: none. */
  FARM_FORGE_PULL_REQUESTS: z.enum(['request', 'task', 'off']).default('request'),
  /** The commit status's name. */
  FARM_FORGE_STATUS_CONTEXT: z.string().min(1).default('agent-farm'),
  /** Repositories (owner/name, comma-separated) polled for labelled issues, for a farm webhooks cannot reach. */
  FARM_FORGE_POLL_REPOS: z.string().default(''),
  FARM_FORGE_POLL_INTERVAL_S: z.coerce.number().int().min(5).default(60),
  /** Webhook deliveries accepted per repository per minute; more answer 429. */
  FARM_FORGE_WEBHOOK_RATE_PER_MIN: z.coerce.number().int().min(1).default(60),
});
export type ForgeConfig = z.infer<typeof forgeConfigSchema>;
