import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { egressProblems, selects } from './egress-policy';

const AGENT = {
  what: 'agent Job',
  labels: { 'app.kubernetes.io/instance': 'farm', 'app.kubernetes.io/component': 'coding-task' },
};
const BUILD = {
  what: 'build Job',
  labels: { 'app.kubernetes.io/instance': 'farm', 'app.kubernetes.io/component': 'build' },
};

/** The chart's policy, as templates/networkpolicy.yaml renders it in jobs mode. */
const chart: V1NetworkPolicy = {
  metadata: { name: 'farm-code-egress' },
  spec: {
    podSelector: {
      matchLabels: { 'app.kubernetes.io/instance': 'farm' },
      matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'In', values: ['coding-task', 'build'] }],
    },
    policyTypes: ['Egress'],
    egress: [{ ports: [{ port: 53, protocol: 'UDP' }] }],
  },
};
const named = (name: string, spec: V1NetworkPolicy['spec']): V1NetworkPolicy => ({ metadata: { name }, spec });

test('label selectors: matchLabels and each operator', () => {
  const labels = { a: '1', b: '2' };
  expect(selects(undefined, labels)).toBe(true);
  expect(selects({}, labels)).toBe(true);
  expect(selects({ matchLabels: { a: '1' } }, labels)).toBe(true);
  expect(selects({ matchLabels: { a: '2' } }, labels)).toBe(false);
  expect(selects({ matchExpressions: [{ key: 'b', operator: 'In', values: ['2', '3'] }] }, labels)).toBe(true);
  expect(selects({ matchExpressions: [{ key: 'b', operator: 'NotIn', values: ['2'] }] }, labels)).toBe(false);
  expect(selects({ matchExpressions: [{ key: 'c', operator: 'NotIn', values: ['2'] }] }, labels)).toBe(true);
  expect(selects({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, labels)).toBe(true);
  expect(selects({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, labels)).toBe(false);
});

test('the chart’s policy alone, or with policies that add no egress, is what the farm relies on', () => {
  expect(egressProblems([chart], 'farm-code-egress', [AGENT, BUILD])).toEqual([]);
  const denyAll = named('deny-all', { podSelector: {}, policyTypes: ['Egress', 'Ingress'] });
  const ingressOnly = named('ingress', { podSelector: {}, policyTypes: ['Ingress'], ingress: [{}] });
  const otherPods = named('web', {
    podSelector: { matchLabels: { app: 'web' } },
    policyTypes: ['Egress'],
    egress: [{}],
  });
  expect(egressProblems([chart, denyAll, ingressOnly, otherPods], 'farm-code-egress', [AGENT, BUILD])).toEqual([]);
});

test('missing, not selecting, or reopened by another policy: each said, per kind of pod', () => {
  expect(egressProblems([], 'farm-code-egress', [AGENT])).toEqual([
    'the egress NetworkPolicy farm-code-egress is missing: the agent Job pods may reach anything',
  ]);
  const narrowed = named('farm-code-egress', {
    ...chart.spec!,
    podSelector: { matchLabels: { 'app.kubernetes.io/component': 'build' } },
  });
  expect(egressProblems([narrowed], 'farm-code-egress', [AGENT, BUILD])).toEqual([
    'the egress NetworkPolicy farm-code-egress does not select the agent Job pods',
  ]);
  const allowAll = named('allow-all-egress', { podSelector: {}, policyTypes: ['Egress'], egress: [{}] });
  expect(egressProblems([chart, allowAll], 'farm-code-egress', [AGENT])).toEqual([
    'the NetworkPolicy allow-all-egress also selects the agent Job pods and allows egress (policies add up: it opens what farm-code-egress closes)',
  ]);
  // Without policyTypes, egress rules make it an egress policy.
  const untyped = named('untyped', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }] });
  expect(egressProblems([chart, untyped], 'farm-code-egress', [AGENT])).toHaveLength(1);
});
