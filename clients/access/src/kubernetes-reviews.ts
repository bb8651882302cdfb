// TokenReview and SubjectAccessReview against the API server, as the farm's ServiceAccount: it needs the
// `system:auth-delegator` ClusterRole (the chart binds it when kubernetes auth is on).
import { AuthenticationV1Api, AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { apiError } from '@farm/kube';
import {
  CHANGE_REQUESTS_RESOURCE,
  FARM_API_GROUP,
  KubernetesReviewFailed,
  type KubernetesReviews,
  type KubernetesUser,
  type ResourceCheck,
} from './kubernetes-authenticator';

const REVIEW_TIMEOUT_MS = 5000;

export function apiServerReviews(kubeConfig: KubeConfig, timeoutMs = REVIEW_TIMEOUT_MS): KubernetesReviews {
  const authn = kubeConfig.makeApiClient(AuthenticationV1Api);
  const authz = kubeConfig.makeApiClient(AuthorizationV1Api);
  return {
    async reviewToken(token, audiences) {
      const res = await review('TokenReview', timeoutMs, () =>
        authn.createTokenReview({
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          spec: { token, audiences: audiences.length ? [...audiences] : undefined },
        }),
      );
      const status = res.body.status;
      if (!status?.authenticated || !status.user?.username) return { reason: status?.error };
      const { username, uid, groups, extra } = status.user;
      return { user: { username, uid, groups: groups ?? [], extra } };
    },
    async reviewAccess(user: KubernetesUser, check: ResourceCheck) {
      const res = await review('SubjectAccessReview', timeoutMs, () =>
        authz.createSubjectAccessReview({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: user.username,
            uid: user.uid,
            groups: [...user.groups],
            extra: user.extra,
            resourceAttributes: {
              group: FARM_API_GROUP,
              resource: CHANGE_REQUESTS_RESOURCE,
              verb: check.verb,
              namespace: check.namespace,
            },
          },
        }),
      );
      return res.body.status?.allowed === true;
    },
  };
}

/** One review call, bounded in time; a refusal of the farm's own ServiceAccount says which role it lacks. */
async function review<T>(kind: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KubernetesReviewFailed(`${kind} timed out after ${timeoutMs} ms`, { retryable: true })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (err) {
    if (err instanceof KubernetesReviewFailed) throw err;
    const { code, message } = apiError(err);
    const forbidden = code === 401 || code === 403;
    throw new KubernetesReviewFailed(
      forbidden
        ? `${kind} refused (HTTP ${code}): the farm's ServiceAccount needs the system:auth-delegator ClusterRole: ${message}`
        : `${kind} failed${code ? ` (HTTP ${code})` : ''}: ${message}`,
      { retryable: !forbidden, cause: err, details: { code } },
    );
  } finally {
    clearTimeout(timer);
  }
}
