import { NetworkingV1Api, type KubeConfig } from '@kubernetes/client-node';
import { Gauge } from 'prom-client';
import { apiError } from '@farm/kube';
import { metricsRegistry, type HealthStatus, type Logger } from '@farm/runtime';
import { egressProblems } from './egress-policy';

const egressPolicyGauge = new Gauge({
  name: 'farm_egress_policy_ok',
  help: '1 when the chart egress NetworkPolicy selects the agent and build pods and no other policy reopens their egress',
  registers: [metricsRegistry],
});

export interface EgressPolicyWatch {
  /** For /readyz: not ready while the pods' egress is not the chart's. */
  readiness(): HealthStatus;
  stop(): void;
}

const CHECK_EVERY_MS = 5 * 60_000;

/**
 * Checks at start and every few minutes that the Jobs' pods get the chart's egress policy and nothing more
 * (egressProblems), as the orchestrator's ServiceAccount sees the namespace's NetworkPolicies. A problem is
 * logged, counted in farm_egress_policy_ok and makes /readyz fail (not /healthz: a restart cannot fix it).
 * Whether the cluster's network plugin enforces policies cannot be read from the API: docs/operations says how
 * to try it.
 */
export function watchEgressPolicy(opts: {
  kubeConfig: KubeConfig;
  namespace: string;
  release: string;
  policy: string;
  log: Logger;
  everyMs?: number;
}): EgressPolicyWatch {
  const api = opts.kubeConfig.makeApiClient(NetworkingV1Api);
  const pods = (['coding-task', 'build'] as const).map((component) => ({
    what: component === 'build' ? 'build Job' : 'agent Job',
    labels: { 'app.kubernetes.io/instance': opts.release, 'app.kubernetes.io/component': component },
  }));
  let status: HealthStatus = { healthy: false, reasons: ['the egress NetworkPolicy was not checked yet'] };
  let last = '';
  const check = async () => {
    let problems: string[];
    try {
      const { body } = await api.listNamespacedNetworkPolicy(opts.namespace);
      problems = egressProblems(body.items, opts.policy, pods);
    } catch (err) {
      const e = apiError(err);
      problems = [
        `the NetworkPolicies of ${opts.namespace} cannot be read${e.code ? ` (${e.code})` : ''}: ${e.message}; the orchestrator's Role needs list on networkpolicies`,
      ];
    }
    status = { healthy: problems.length === 0, reasons: problems };
    egressPolicyGauge.set(problems.length ? 0 : 1);
    const now = problems.join('\n');
    if (now !== last) {
      if (problems.length) opts.log.error('the agent pods’ egress is not limited as the chart says', { problems });
      else opts.log.info('the agent pods’ egress is limited by the chart’s NetworkPolicy', { policy: opts.policy });
      last = now;
    }
  };
  void check();
  const timer = setInterval(() => void check(), opts.everyMs ?? CHECK_EVERY_MS);
  timer.unref();
  return { readiness: () => status, stop: () => clearInterval(timer) };
}
