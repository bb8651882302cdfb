// Whether, and how, the farm accepts Kubernetes identities: read once from the environment at start-up.
import type { KubeConfig } from '@kubernetes/client-node';
import { jobNamespace, kubeConfigFromEnv } from '@farm/kube';
import { loadConfig, z, type Logger } from '@farm/runtime';
import { KubernetesAuthenticator } from './kubernetes-authenticator';
import { apiServerReviews } from './kubernetes-reviews';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const kubernetesAuthConfigSchema = z.object({
  /** true: bearer tokens the farm does not know are checked with the API server (TokenReview). */
  FARM_AUTH_KUBERNETES: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Where a RoleBinding grants the farm's scopes; default: the pod's own namespace. */
  FARM_AUTH_KUBERNETES_NAMESPACE: z.string().regex(DNS_LABEL, 'must be a namespace name').optional(),
  /** Comma-separated audiences a token must be for (e.g. `agent-farm`); empty: the API server's own. */
  FARM_AUTH_KUBERNETES_AUDIENCES: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').flatMap((a) => (a.trim() ? [a.trim()] : []))),
  /** How long a token's or a decision's answer is reused. */
  FARM_AUTH_KUBERNETES_CACHE_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
});
export type KubernetesAuthConfig = z.infer<typeof kubernetesAuthConfigSchema>;

/** The Kubernetes authenticator when FARM_AUTH_KUBERNETES=true, else undefined. */
export function kubernetesAuthenticatorFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  opts: { kubeConfig?: KubeConfig; log?: Logger } = {},
): KubernetesAuthenticator | undefined {
  const config = loadConfig(kubernetesAuthConfigSchema, env);
  if (!config.FARM_AUTH_KUBERNETES) return undefined;
  const kubeConfig = opts.kubeConfig ?? kubeConfigFromEnv(env);
  return new KubernetesAuthenticator(apiServerReviews(kubeConfig), {
    namespace: config.FARM_AUTH_KUBERNETES_NAMESPACE ?? jobNamespace(undefined, kubeConfig),
    audiences: config.FARM_AUTH_KUBERNETES_AUDIENCES,
    cacheTtlMs: config.FARM_AUTH_KUBERNETES_CACHE_SECONDS * 1000,
    log: opts.log,
  });
}
