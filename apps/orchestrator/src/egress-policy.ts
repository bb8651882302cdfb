import type { V1LabelSelector, V1NetworkPolicy } from '@kubernetes/client-node';

/**
 * Whether the NetworkPolicies of the Jobs' namespace limit what the agent and build pods reach as the chart
 * means: the chart's egress policy (`expected`) selects them, and no other policy selecting them allows egress
 * too (policies add up: one more policy with an egress rule opens what it names, whatever the chart's says).
 * Pure: `egressProblems` is decided on the listed policies and the pods' labels.
 */
export function selects(selector: V1LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.key in labels;
    const value = labels[e.key];
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(value)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(value)
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false; // an operator the API would refuse: count the policy as not selecting
    if (!ok) return false;
  }
  return true;
}

/** A policy limits egress when Egress is among its types (or, without types, when it has egress rules). */
const limitsEgress = (p: V1NetworkPolicy) =>
  p.spec?.policyTypes ? p.spec.policyTypes.includes('Egress') : (p.spec?.egress?.length ?? 0) > 0;

/** What is wrong, in words an operator can act on; empty when the pods' egress is the chart's. */
export function egressProblems(
  policies: V1NetworkPolicy[],
  expected: string,
  pods: { what: string; labels: Record<string, string> }[],
): string[] {
  const problems: string[] = [];
  for (const pod of pods) {
    const selecting = policies.filter((p) => limitsEgress(p) && selects(p.spec?.podSelector, pod.labels));
    if (!selecting.some((p) => p.metadata?.name === expected))
      problems.push(
        policies.some((p) => p.metadata?.name === expected)
          ? `the egress NetworkPolicy ${expected} does not select the ${pod.what} pods`
          : `the egress NetworkPolicy ${expected} is missing: the ${pod.what} pods may reach anything`,
      );
    for (const other of selecting.filter((p) => p.metadata?.name !== expected && (p.spec?.egress?.length ?? 0) > 0))
      problems.push(
        `the NetworkPolicy ${other.metadata?.name} also selects the ${pod.what} pods and allows egress (policies add up: it opens what ${expected} closes)`,
      );
  }
  return [...new Set(problems)];
}
