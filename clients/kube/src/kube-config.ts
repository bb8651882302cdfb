import { existsSync, readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { z } from '@farm/runtime';

const SA_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/** A Kubernetes resource quantity (CPU, memory, storage) in a setting, checked at start-up. */
export const kubernetesQuantity = z
  .string()
  .regex(/^[0-9.]+([eE][0-9]+|[mkMGTPE]i?|[KMGTPE]i)?$/, 'must be a Kubernetes quantity, e.g. 500m, 2Gi');

/** In a pod: its service account; elsewhere $KUBECONFIG (its first file) or ~/.kube/config. */
export function kubeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (env.KUBECONFIG) kubeConfig.loadFromFile(env.KUBECONFIG.split(':')[0]);
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}

/** The namespace Jobs go to: the one set, else the pod's own (its service account), else the context's, else `default`. */
export function jobNamespace(explicit: string | undefined, kubeConfig: KubeConfig): string {
  return (
    explicit ??
    (existsSync(SA_NAMESPACE_FILE) ? readFileSync(SA_NAMESPACE_FILE, 'utf8').trim() : undefined) ??
    kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ??
    'default'
  );
}
